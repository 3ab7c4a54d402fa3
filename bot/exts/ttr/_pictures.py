"""The Ticket to Ride pictures the bot posts, drawn by render/ttr in worker processes (never on the event loop) and
kept per game, version, seat and language, so a second look costs nothing.

File names say only what a picture is (`board.png`, `hand.png`, …), never whose cards or which tickets. A public
picture is drawn from a public view only: a seat's view never travels to the workers that draw public pictures.
"""

from __future__ import annotations

from bot.drawing import PICTURES, draw_once
from bot.i18n import labels
from bot.storage.games import GameRecord
from bot.ui.pictures import bot_seats, plain_names
from render.ttr import render_board, render_hand, render_score_sheet, render_score_summary, render_ticket_choice
from rules.ttr.view import PublicView, SeatView

BOARD = "board.png"
HAND = "hand.png"
TICKETS = "tickets.png"
SCORES = "scores.png"
DETAIL = "score-detail.png"


async def board(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The board with the public panel (what the turn message shows), drawn from the game's base in its worker,
    bot players' names marked."""
    key = (record.id, record.version, "board", language)
    names = plain_names(record)
    return await PICTURES.get(
        key, render_board, public_only(view), labels(language), names, record.id, bot_seats(record)
    )


async def hand(language: str, record: GameRecord, view: SeatView, places: str | None = None) -> bytes:
    """A player's cards, tickets and trains (private), its cities named in `places` (the game's language)."""
    key = (record.id, record.version, "hand", view.seat, language, places)
    words = labels(language, places=places)
    return await PICTURES.get(key, render_hand, view, words, plain_names(record), private=True)


async def ticket_choice(language: str, record: GameRecord, view: SeatView, places: str | None = None) -> bytes:
    """The tickets a player is choosing from (private), its cities named in `places` (the game's language)."""
    key = (record.id, record.version, "tickets", view.seat, language, places)
    return await PICTURES.get(key, render_ticket_choice, view, labels(language, places=places), private=True)


async def score_summary(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The final summary: the winner, the ranking and the totals (public, once the game is over)."""
    names = plain_names(record)
    return await draw_once(
        record.id, render_score_summary, public_only(view), labels(language), names, bot_seats(record)
    )


async def score_sheet(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The final score sheet: every player's routes and tickets (public, once the game is over)."""
    names = plain_names(record)
    return await draw_once(record.id, render_score_sheet, public_only(view), labels(language), names, bot_seats(record))


def public_only(view: PublicView) -> PublicView:
    """The public part of a view: a seat's view (which holds its cards and tickets) is cut down to it."""
    if type(view) is PublicView:
        return view
    return PublicView.model_validate(view.model_dump(include=set(PublicView.model_fields)))
