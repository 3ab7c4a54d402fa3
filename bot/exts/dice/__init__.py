"""The dice game «Поезд» in Discord: /roll, the turn message with its buttons, and the pictures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.dice import _ratings
from bot.game_entry import GameInfo
from render.dice import PICTURES
from rules.dice import DiceEngine

if TYPE_CHECKING:
    from bot.app import Conductor

GAME = GameInfo(
    engine=DiceEngine(),
    namespace="dice",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="bot.exts.dice.words",
)
"""The dice game's entry in `bot.games` (its moves are made by clicking the turn message's buttons)."""


async def setup(bot: Conductor) -> None:
    """Load the dice cog (discord.py extension entry point)."""
    from bot.exts.dice._cog import DiceCog  # the cog reads the list of games, which imports this package

    await bot.add_cog(DiceCog(bot))
