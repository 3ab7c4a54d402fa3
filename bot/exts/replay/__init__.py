"""/replay: a finished game of this server as an animation of its public table and its public log (JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.replay._cog import ReplayCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the replay cog (discord.py extension entry point)."""
    await bot.add_cog(ReplayCog(bot))
