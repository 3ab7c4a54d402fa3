"""The card game's pictures the bot posts, drawn by render/cardgame in worker processes (never on the event loop) and
kept per game, version, seat and language, so a second look costs nothing.

File names say only what a picture is (`table.png`, `hand.png`, …), never whose cards or which tickets.
"""

from __future__ import annotations

from bot.drawing import PICTURES, draw_once
from bot.i18n import labels
from bot.storage.games import GameRecord
from bot.ui.pictures import bot_seats, plain_names
from render.cardgame import render_hand, render_scoring, render_scoring_detail, render_table
from render.cardgame.scoring import Stage
from rules.cardgame.view import CardGameView

TABLE = "table.png"
HAND = "hand.png"
FIRST_SCORING = "first-scoring.png"
SCORES = "scores.png"
DETAIL = "score-detail.png"


async def table(language: str, record: GameRecord, view: CardGameView) -> bytes:
    """The table everyone sees (what the turn messages show), bot players' names marked."""
    key = (record.id, record.version, "table", language)
    return await PICTURES.get(key, render_table, view, labels(language), plain_names(record), bot_seats(record))


async def hand(language: str, record: GameRecord, view: CardGameView, places: str | None = None) -> bytes:
    """A player's cards and tickets, with any offered to choose from (private), its cities named in `places` (the
    game's language)."""
    key = (record.id, record.version, "hand", view.seat, language, places)
    words = labels(language, places=places)
    return await PICTURES.get(key, render_hand, view, words, plain_names(record), private=True)


async def first_scoring(language: str, record: GameRecord, view: CardGameView) -> bytes:
    """The 4-player first scoring (public once it has happened)."""
    names, bots = plain_names(record), bot_seats(record)
    return await draw_once(record.id, render_scoring, view, labels(language), names, "first", bots)


async def final_scoring(language: str, record: GameRecord, view: CardGameView) -> bytes:
    """The final summary: the winner, the ranking and the totals (public, once the game is over)."""
    names, bots = plain_names(record), bot_seats(record)
    return await draw_once(record.id, render_scoring, view, labels(language), names, "final", bots)


async def scoring_detail(language: str, record: GameRecord, view: CardGameView, stage: Stage) -> bytes:
    """A scoring's detail (each stack and ticket, the big cities), posted under its summary."""
    names, bots = plain_names(record), bot_seats(record)
    return await draw_once(record.id, render_scoring_detail, view, labels(language), names, stage, bots)
