"""Ticket to Ride (USA and Europe) in Discord: the turn messages, private hands, menus and slash commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.ttr._cog import TtrCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the Ticket to Ride cog (discord.py extension entry point)."""
    await bot.add_cog(TtrCog(bot))
