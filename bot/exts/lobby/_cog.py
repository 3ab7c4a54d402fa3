"""/newgame: open a lobby in this channel for one of the games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.lobby._controller import LobbyController
from bot.exts.lobby._presenter import lobby_embed, lobby_view
from bot.games import GAMES
from bot.i18n import language_of, text
from bot.services.games import ServiceError
from bot.ui.controller import reply_private
from rules.engine import Message

if TYPE_CHECKING:
    from bot.app import Conductor

GAME_CHOICES = [
    app_commands.Choice(name=text("en", f"bot.game.{info.namespace}"), value=g) for g, info in GAMES.items()
]


class LobbyCog(commands.Cog):
    """Opening games; the lobby's buttons are handled by its controller."""

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the lobby's controller for its components."""
        self.bot.controllers["lobby"] = LobbyController(self.bot)

    async def cog_unload(self) -> None:
        """Unregister the lobby's controller."""
        self.bot.controllers.pop("lobby", None)

    @app_commands.command(name="newgame", description=text("en", "commands.newgame.description"))
    @app_commands.describe(game=text("en", "commands.newgame.game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def newgame(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Open a lobby here with the invoker as host; one open game per channel."""
        language = language_of(interaction.locale)
        if game not in GAMES or interaction.channel_id is None:
            await reply_private(interaction, text(language, "bot.reason.unknown_game"))
            return
        open_here = await self.bot.service.store.in_channel(interaction.channel_id)
        if open_here:
            message = Message(key="bot.reason.channel_busy", params={"id": open_here[0].id})
            await reply_private(interaction, text(language, message.key, **message.params))
            return
        try:
            record = await self.bot.service.open_lobby(
                game=game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=await self.bot.default_options(interaction.guild_id, game),
            )
        except ServiceError as error:
            await reply_private(interaction, text(language, error.message.key, **error.message.params))
            return
        public = await self.bot.public_language(record.guild_id)
        info = GAMES[game]
        view = lobby_view(public, info, record)
        assert view is not None, "a new lobby always has its buttons"
        response = await interaction.response.send_message(embed=lobby_embed(public, info, record), view=view)
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            await self.bot.service.store.set_message(record.id, "lobby", interaction.channel_id, message_id)
