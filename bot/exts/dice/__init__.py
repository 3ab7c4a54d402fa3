"""The dice game «Поезд» in Discord: /roll, the turn message with its buttons, and the pictures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.dice._cog import DiceCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the dice cog (discord.py extension entry point)."""
    await bot.add_cog(DiceCog(bot))
