"""Ratings and stats: /stats, /leaderboard, and the buttons of the ratings reset that /config asks about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.stats._cog import StatsCog
from bot.exts.stats._reset import ResetRatingsButton, reset_question

if TYPE_CHECKING:
    from bot.ui.parts import Bot

__all__ = ["reset_question"]


async def setup(bot: Bot) -> None:
    """Load the stats cog and the reset buttons (discord.py extension entry point)."""
    await bot.add_cog(StatsCog(bot))
    bot.add_dynamic_items(ResetRatingsButton)


async def teardown(bot: Bot) -> None:
    """Forget the reset buttons (the cog goes with the extension)."""
    bot.remove_dynamic_items(ResetRatingsButton)
