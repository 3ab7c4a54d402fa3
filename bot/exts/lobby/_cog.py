"""/newgame: open a lobby in this channel for one of the games."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.lobby._controller import LobbyController
from bot.exts.lobby._options import option_parameters, options_for
from bot.exts.lobby._presenter import lobby_embed, lobby_view
from bot.games import GAMES
from bot.i18n import language_of, render, text
from bot.services.games import ServiceError
from bot.ui.controller import reply_private
from bot.ui.house_rules import (
    TIMER_CHOICES,
    TIMER_DESCRIPTIONS,
    TIMER_OVERRIDES,
    plan_new_game,
    timer_lines,
    timer_parameters,
)
from rules.engine import Message

if TYPE_CHECKING:
    from bot.app import Conductor

GAME_CHOICES = [
    app_commands.Choice(name=text("en", f"bot.game.{info.namespace}"), value=g) for g, info in GAMES.items()
]
OPTION_PARAMETERS = option_parameters(GAMES)


class LobbyCog(commands.Cog):
    """Opening games; the lobby's buttons are handled by its controller."""

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the lobby's controller for its components, and /newgame (built from the options models)."""
        self.bot.controllers["lobby"] = LobbyController(self.bot)
        self.bot.tree.add_command(newgame_command(self))

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        self.bot.controllers.pop("lobby", None)
        self.bot.tree.remove_command("newgame")

    async def newgame(self, interaction: discord.Interaction[Any], game: str, **given: Any) -> None:
        """Open a lobby here with the invoker as host; one open game per channel; options override the server's."""
        language = language_of(interaction.locale)
        if game not in GAMES or interaction.channel_id is None:
            await reply_private(interaction, text(language, "bot.reason.unknown_game"))
            return
        chosen, foreign = options_for(game, OPTION_PARAMETERS, given)
        if foreign:
            names = ", ".join(foreign)
            await reply_private(interaction, text(language, "bot.reason.option_not_for_game", options=names))
            return
        try:  # the server's rules: who may create, locked options, timers, threads
            timers = {name: given.get(name) for name in TIMER_OVERRIDES}
            plan = await plan_new_game(self.bot, interaction, game, chosen, timers)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        public = await self.bot.public_language(interaction.guild_id)
        info = GAMES[game]
        thread = None
        if plan.threads and self.bot.places.can_open_thread(interaction):
            title = text(public, f"bot.game.{info.namespace}")
            name = text(public, "admin.thread.name", game=title, host=interaction.user.display_name)
            thread = await self.bot.places.open_thread(interaction, name)
        open_here = [] if thread is not None else await self.bot.service.store.in_channel(interaction.channel_id)
        if open_here:
            message = Message(key="bot.reason.channel_busy", params={"id": open_here[0].id})
            await reply_private(interaction, text(language, message.key, **message.params))
            return
        try:
            record = await self.bot.service.open_lobby(
                game=game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id if thread is None else thread.id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=plan.options,
            )
        except ServiceError as error:
            await reply_private(interaction, text(language, error.message.key, **error.message.params))
            return
        await self.bot.timers.adopt(record.id, plan.timers)
        view = lobby_view(public, info, record, bots_allowed=plan.bots_allowed)
        assert view is not None, "a new lobby always has its buttons"
        embed = lobby_embed(public, info, record, timers=timer_lines(public, plan.timers))
        if thread is not None:  # the lobby goes in the game's thread; the channel gets a pointer to it
            await self.bot.places.bind(record, thread)
            posted = await thread.send(embed=embed, view=view)
            await self.bot.service.store.set_message(record.id, "lobby", thread.id, posted.id)
            title = text(public, f"bot.game.{info.namespace}")
            pointer = text(
                public, "admin.thread.pointer", host=interaction.user.mention, game=title, thread=thread.mention
            )
            await interaction.response.send_message(pointer, allowed_mentions=discord.AllowedMentions.none())
            return
        response = await interaction.response.send_message(embed=embed, view=view)
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            await self.bot.service.store.set_message(record.id, "lobby", interaction.channel_id, message_id)


def newgame_command(cog: LobbyCog) -> app_commands.Command[Any, Any, None]:
    """Build /newgame: the game, then every game's variant options (each optional, with its description)."""

    async def newgame(interaction: discord.Interaction[Any], game: str, **given: Any) -> None:
        await cog.newgame(interaction, game, **given)

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
        *(
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, annotation=p.annotation, default=None)
            for p in OPTION_PARAMETERS
        ),
        *timer_parameters(),
    ]
    newgame.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback: Any = app_commands.describe(
        game=text("en", "commands.newgame.game.description"),
        **{p.name: p.description for p in OPTION_PARAMETERS},
        **TIMER_DESCRIPTIONS,
    )(newgame)
    callback = app_commands.choices(
        game=GAME_CHOICES, **{p.name: list(p.choices) for p in OPTION_PARAMETERS if p.choices}, **TIMER_CHOICES
    )(callback)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="newgame", description=text("en", "commands.newgame.description"), callback=callback
    )
    return app_commands.guild_only(command)
