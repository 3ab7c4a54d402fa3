"""The lobby every game starts in: /newgame, then Join, Leave, bot players, Start and Cancel; the host's removals,
Rematch on a final message, and the "Invite to a game" user menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.lobby._cog import LobbyCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the lobby cog (discord.py extension entry point)."""
    await bot.add_cog(LobbyCog(bot))
