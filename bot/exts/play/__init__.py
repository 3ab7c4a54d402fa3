"""The commands several games share (/draw, /hand, /board, /score, /tickets), answered by the channel's game.

A game plugs in by letting its cog inherit `bot.exts.shared_commands.SharedCommands`; nothing here names a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.play._cog import PlayCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the shared commands' cog (discord.py extension entry point)."""
    await bot.add_cog(PlayCog(bot))
