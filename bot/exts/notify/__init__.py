"""Turn notifications: /notify (DMs and the channel ping), /mygames and /watch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.notify._cog import NotifyCog
from bot.exts.notify._messenger import DirectMessenger

if TYPE_CHECKING:
    from bot.app import Conductor


async def setup(bot: Conductor) -> None:
    """Load the notification commands (discord.py extension entry point)."""
    await bot.add_cog(NotifyCog(bot))


__all__ = ["DirectMessenger"]
