"""Turn notifications: /notify (DMs, the channel ping, refused invitations), /mygames and /watch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.notify._cog import NotifyCog
from bot.exts.notify._messenger import DirectMessenger
from bot.exts.notify._panel import refusal_buttons

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the notification commands (discord.py extension entry point)."""
    await bot.add_cog(NotifyCog(bot))


__all__ = ["DirectMessenger", "refusal_buttons"]
