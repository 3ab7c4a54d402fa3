"""The Ticket to Ride pictures the bot posts, drawn by render/ttr in a worker thread (never on the event loop).

File names say only what a picture is (`board.png`, `hand.png`, …), never whose cards or which tickets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.i18n import text
from render.ttr import render_board, render_hand, render_score_sheet, render_ticket_choice
from rules.ttr.view import PublicView, SeatView

BOARD = "board.png"
HAND = "hand.png"
TICKETS = "tickets.png"
SCORES = "scores.png"


def labels(language: str) -> Callable[[str], str]:
    """The pictures' words in a language."""
    return lambda key: text(language, key)


async def board(language: str, view: PublicView, names: Sequence[str]) -> bytes:
    """The board with the public panel (what the turn message shows)."""
    return await asyncio.to_thread(render_board, view, labels(language), list(names))


async def hand(language: str, view: SeatView, names: Sequence[str]) -> bytes:
    """A player's cards, tickets and trains (private)."""
    return await asyncio.to_thread(render_hand, view, labels(language), list(names))


async def ticket_choice(language: str, view: SeatView) -> bytes:
    """The tickets a player is choosing from (private)."""
    return await asyncio.to_thread(render_ticket_choice, view, labels(language))


async def score_sheet(language: str, view: PublicView, names: Sequence[str]) -> bytes:
    """The final score sheet (public, once the game is over)."""
    return await asyncio.to_thread(render_score_sheet, view, labels(language), list(names))
