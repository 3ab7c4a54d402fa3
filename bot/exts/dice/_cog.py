"""/roll, and the registration of the dice game's controller and bot-move publisher."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.dice._controller import DiceController
from bot.exts.shared_commands import own_game
from bot.i18n import text
from rules.dice import Roll

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class DiceCog(commands.Cog):
    """Slash commands of the dice game; its buttons go through the controller."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.controller = DiceController(bot)

    async def cog_load(self) -> None:
        """Register the controller for `dice:` components, bot players' moves and games that end."""
        self.controller.attach()

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        self.controller.detach()

    @app_commands.command(name="roll", description=text("en", "commands.roll.description"))
    @app_commands.guild_only()
    async def roll(self, interaction: discord.Interaction[Any]) -> None:
        """Roll again in this channel's dice game, as the Roll button does."""
        record = await own_game(self.bot, interaction, DiceController.game, "roll")
        if record is not None:
            await self.controller.act(interaction, record.id, Roll(), version=None)


async def setup(bot: Bot) -> None:
    """Load the dice cog (discord.py extension entry point)."""
    await bot.add_cog(DiceCog(bot))
