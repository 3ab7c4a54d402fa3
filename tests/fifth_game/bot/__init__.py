"""The coin race in Discord: its entry in the list of games, and its cog (loaded as the dice game's is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.game_entry import GameInfo
from tests.fifth_game.bot import _ratings
from tests.fifth_game.pictures import PICTURES
from tests.fifth_game.rules import CoinEngine

if TYPE_CHECKING:
    from bot.app import Conductor

GAME = GameInfo(
    engine=CoinEngine(),
    namespace="coin",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="tests.fifth_game.words",
    package="tests.fifth_game.bot",
)
"""The coin race's entry (its moves are made by clicking the turn message's button)."""


async def setup(bot: Conductor) -> None:
    """Load the coin race's cog (discord.py extension entry point)."""
    from tests.fifth_game.bot._cog import CoinCog  # the cog reads the list of games, which holds this package

    await bot.add_cog(CoinCog(bot))
