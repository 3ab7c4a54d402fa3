"""Ticket to Ride: The Card Game in Discord: the turn messages, private hands and play menus, slash commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.cardgame._cog import CardGameCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the card game's cog (discord.py extension entry point)."""
    await bot.add_cog(CardGameCog(bot))
