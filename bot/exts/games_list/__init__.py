"""/games and /history: the server's open lobbies and running games, and its recent finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.games_list._cog import GamesListCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the games list cog (discord.py extension entry point)."""
    await bot.add_cog(GamesListCog(bot))
