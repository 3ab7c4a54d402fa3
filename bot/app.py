"""The composition root: `create_bot(settings)` builds the bot; `setup_hook` wires storage, service and cogs."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import language_of, text
from bot.i18n.commands import CommandTranslator
from bot.services.games import GameService
from bot.services.guild_config import GuildConfigService
from bot.services.timers import TimerService
from bot.settings import Settings
from bot.storage.database import open_database
from bot.storage.games import GameStore
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.places import PlaceStore
from bot.storage.timers import TimerStore
from bot.ui.components import GameComponent
from bot.ui.controller import GameController, reply_private
from bot.ui.custom_ids import ComponentId
from bot.ui.notices import ChannelAnnouncer
from bot.ui.places import GamePlaces

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.exts.lobby", "bot.exts.dice", "bot.exts.ttr", "bot.exts.cardgame", "bot.exts.admin")
"""Loaded in order; the card game comes after Ticket to Ride, whose /draw, /hand, … it extends to its own games."""


class ConductorTree(app_commands.CommandTree[Any]):
    """The slash command tree; a command that fails is logged once and the person told privately."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Log the failure with its traceback and answer privately; the bot carries on."""
        log.error("command %s failed", getattr(interaction.command, "name", "?"), exc_info=error)
        await reply_private(interaction, text(language_of(interaction.locale), "bot.reason.internal_error"))


class Conductor(commands.Bot):
    """The bot: discord.py's Bot plus the game service, the stores and each game's controller."""

    db: aiosqlite.Connection
    service: GameService
    guild_settings: GuildSettingsStore
    config: GuildConfigService
    timers: TimerService
    places: GamePlaces

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=ConductorTree,
            guild_ready_timeout=settings.guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **client_options,
        )
        self.settings = settings
        self.controllers: dict[str, GameController] = {}
        self._resumed = False
        self.clock: Callable[[], float] = time.time
        """The clock of turn timers; tests replace it before the bot starts."""

    async def setup_hook(self) -> None:
        """Open the database, resume open games, load the cogs, register persistent components, sync commands."""
        self.db = await open_database(self.settings.database_path)
        self.guild_settings = GuildSettingsStore(self.db)
        self.service = GameService(
            GameStore(self.db),
            {game: info.engine for game, info in GAMES.items()},
            bot_move_delay=self.settings.bot_move_delay,
        )
        self.config = GuildConfigService(self.guild_settings, GAMES)
        store = self.service.store
        self.timers = TimerService(
            TimerStore(self.db, store), self.service, clock=self.clock, announce=ChannelAnnouncer(self)
        )
        self.places = GamePlaces(self, PlaceStore(self.db, store))
        self.service.add_listener(self.timers)
        self.service.add_listener(self.places)
        self.service.locate_elsewhere = self.places.locate
        resumed = await self.service.resume_all()
        log.info("resumed %d open games", len(resumed))
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(GameComponent)
        await self.tree.set_translator(CommandTranslator())
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        """Once connected, let bot players whose turn it was before a restart move again, and run turn timers."""
        if self._resumed:
            return
        self._resumed = True
        for record in await self.service.store.with_status(("active",)):
            self.service.wake_bots(record.id)
        self.timers.start()

    async def close(self) -> None:
        """Let bot players finish the move they are making, close Discord, then the database."""
        if hasattr(self, "timers"):
            await self.timers.close()
        if hasattr(self, "service"):
            await self.service.close()
        await super().close()
        if hasattr(self, "db"):
            await self.db.close()

    async def route_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Send a click to the controller of its game; an unknown game is told privately, never crashes."""
        controller = self.controllers.get(cid.game)
        if controller is None:
            await reply_private(interaction, text(language_of(interaction.locale), "bot.reason.unknown_component"))
            return
        await controller.on_component(interaction, cid, values)

    async def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its setting, else the bot's default."""
        chosen = (await self.config.get(guild_id)).language
        return self.settings.language if chosen is None else chosen.value

    async def default_options(self, guild_id: int | None, game: str) -> dict[str, Any]:
        """The server's defaults for a game's variant options (empty: the printed rules)."""
        return dict((await self.config.get(guild_id)).options.get(game, {}))


def create_bot(settings: Settings, **client_options: Any) -> Conductor:
    """Build the bot from settings; tests and tools create every bot through here."""
    return Conductor(settings, **client_options)
