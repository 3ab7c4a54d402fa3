"""Server admins and every game's common commands: /config, /endgame, /leave, /rules and /help."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.admin._config_cog import ConfigCog
from bot.exts.admin._games_cog import GamesCog
from bot.exts.admin._help_cog import HelpCog

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def setup(bot: Bot) -> None:
    """Load the admin cogs (discord.py extension entry point)."""
    for cog in (ConfigCog(bot), GamesCog(bot), HelpCog(bot)):
        await bot.add_cog(cog)
