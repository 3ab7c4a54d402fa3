"""The Ticket to Ride pictures the bot posts, drawn by render/ttr in worker pools (never on the event loop) and kept
per game, version, seat and language, so a second look costs nothing.

File names say only what a picture is (`board.png`, `hand.png`, …), never whose cards or which tickets.
"""

from __future__ import annotations

from typing import cast

from bot.storage.games import GameRecord
from bot.ui.pictures import PICTURES, draw_once, labels, plain_names
from render.ttr import render_board, render_hand, render_score_sheet, render_ticket_choice
from rules.ttr import TicketToRideEngine
from rules.ttr.view import PublicView, SeatView

BOARD = "board.png"
HAND = "hand.png"
TICKETS = "tickets.png"
SCORES = "scores.png"


async def board(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The board with the public panel (what the turn message shows)."""
    key = (record.id, record.version, "board", language)
    return await PICTURES.get(key, lambda: render_board(view, labels(language), plain_names(record)))


async def hand(language: str, record: GameRecord, view: SeatView) -> bytes:
    """A player's cards, tickets and trains (private)."""
    key = (record.id, record.version, "hand", view.seat, language)
    return await PICTURES.get(key, lambda: render_hand(view, labels(language), plain_names(record)), private=True)


async def ticket_choice(language: str, record: GameRecord, view: SeatView) -> bytes:
    """The tickets a player is choosing from (private)."""
    key = (record.id, record.version, "tickets", view.seat, language)
    return await PICTURES.get(key, lambda: render_ticket_choice(view, labels(language)), private=True)


async def score_sheet(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The final score sheet (public, once the game is over)."""
    return await draw_once(lambda: render_score_sheet(view, labels(language), plain_names(record)))


def warm(language: str) -> None:
    """Draw every map's art once in `language` (the first board of a map costs about a second)."""
    engine = TicketToRideEngine()
    for map_id in ("usa", "europe"):
        state = engine.new_game(engine.load_options({"map": map_id}), 2, seed=0)
        names = ["A", "B"]
        render_board(engine.view(state, None), labels(language), names)
        seat = cast(SeatView, engine.view(state, 0))
        render_hand(seat, labels(language), names)
        render_ticket_choice(seat, labels(language))
