"""Undo by consent (/undo) and votes to pause, resume or end the channel's game (/vote), with their buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.vote._cog import VoteCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the vote cog (discord.py extension entry point)."""
    await bot.add_cog(VoteCog(bot))
