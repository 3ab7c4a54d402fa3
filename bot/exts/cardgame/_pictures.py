"""The card game's pictures the bot posts, drawn by render/cardgame in a worker thread (never on the event loop).

File names say only what a picture is (`table.png`, `hand.png`, …), never whose cards or which tickets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.i18n import text
from render.cardgame import render_hand, render_scoring, render_table
from rules.cardgame.view import CardGameView

TABLE = "table.png"
HAND = "hand.png"
FIRST_SCORING = "first-scoring.png"
SCORES = "scores.png"


def labels(language: str) -> Callable[[str], str]:
    """The pictures' words in a language."""
    return lambda key: text(language, key)


async def table(language: str, view: CardGameView, names: Sequence[str]) -> bytes:
    """The table everyone sees (what the turn messages show)."""
    return await asyncio.to_thread(render_table, view, labels(language), list(names))


async def hand(language: str, view: CardGameView, names: Sequence[str]) -> bytes:
    """A player's cards and tickets, with any offered to choose from (private)."""
    return await asyncio.to_thread(render_hand, view, labels(language), list(names))


async def first_scoring(language: str, view: CardGameView, names: Sequence[str]) -> bytes:
    """The 4-player first scoring (public once it has happened)."""
    return await asyncio.to_thread(render_scoring, view, labels(language), list(names), "first")


async def final_scoring(language: str, view: CardGameView, names: Sequence[str]) -> bytes:
    """The final score sheet (public, once the game is over)."""
    return await asyncio.to_thread(render_scoring, view, labels(language), list(names), "final")
