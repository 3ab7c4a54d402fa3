"""The composition root: `create_bot(settings)` builds the bot; `setup_hook` wires storage, service and cogs."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_sync import sync_commands
from bot.drawing import start_pictures, use_art
from bot.exts.notify import DirectMessenger
from bot.game_entry import GameInfo
from bot.games import GAMES
from bot.i18n import language_of, set_command_ids, text
from bot.i18n.commands import CommandTranslator
from bot.metrics import Metrics
from bot.services.backups import BackupSchedule
from bot.services.bot_players import BotPlayers
from bot.services.charts import FinalCharts
from bot.services.errors import ServiceError
from bot.services.games import GameService
from bot.services.guild_config import GuildConfigService
from bot.services.lobby import LobbyService
from bot.services.lobby_expiry import LobbyExpiry
from bot.services.moves import Moves
from bot.services.notifications import InvitationRecords, NotificationService
from bot.services.ratings import RatingRecords, RatingService
from bot.services.records import GameRecords
from bot.services.shown import ShownGames
from bot.services.thinking import Thinker, start_thinking
from bot.services.timers import TimerService
from bot.settings import Settings
from bot.storage.command_syncs import CommandSyncStore
from bot.storage.database import Database, StoreBusy
from bot.storage.games import GameStore
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.notifications import NotificationStore
from bot.storage.opening import open_database
from bot.storage.ratings import RatingStore
from bot.storage.timers import TimerStore
from bot.storage.votes import VoteStore
from bot.ui.answers import acknowledge, attend, reply_private
from bot.ui.charts import ChartPoster
from bot.ui.components import GameComponent
from bot.ui.cooldowns import Cooldowns
from bot.ui.custom_ids import ComponentId
from bot.ui.notices import ChannelAnnouncer
from bot.ui.parts import Controller
from bot.ui.places import GamePlaces
from bot.web.server import WebServer
from render.artstore import prune as prune_art
from rules.engine import Budget

log = logging.getLogger(__name__)

SHARED_EXTENSIONS = (
    "bot.exts.play",
    "bot.exts.admin",
    "bot.exts.stats",
    "bot.exts.vote",
    "bot.exts.games_list",
    "bot.exts.notify",
    "bot.exts.replay",
)
"""The commands several games share and the admins' commands."""


def extensions() -> tuple[str, ...]:
    """The lobby, each listed game's package (read when the bot starts), then the shared ones (any order works)."""
    return ("bot.exts.lobby", *(info.extension for info in GAMES.values()), *SHARED_EXTENSIONS)


SHUTDOWN_GRACE = 10.0
"""Seconds that interactions in flight get to finish when the bot stops."""
STOP_GRACE = 5.0
"""Seconds each part that drives games (turn timers, bot players …) gets to finish its round when the bot stops."""
IDENTIFY_INTERVAL = 5.0
"""Discord lets one IDENTIFY per rate-limit bucket start every 5 seconds."""


class ConductorTree(app_commands.CommandTree[Any]):
    """The slash command tree: every command is let in (or refused) by the bot first; a failure is answered."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Admit a command (not while stopping, not too often); autocomplete always answers."""
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        client: Conductor = interaction.client
        name = interaction.command.qualified_name if interaction.command is not None else ""
        return await client.admit(interaction, Cooldowns.kind_of_command(name))

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Log the failure with its traceback and answer privately that nothing changed (the store was busy, or
        something failed); the bot carries on."""
        name = getattr(interaction.command, "name", "?")
        client: Conductor = interaction.client
        if isinstance(getattr(error, "original", error), StoreBusy):
            client.metrics.interaction(interaction.type.name, "busy")
            log.warning("command %s found the store busy: %s", name, getattr(error, "original", error))
            await reply_private(interaction, text(language_of(interaction.locale), "bot.failure.store_busy"))
            return
        client.metrics.interaction(interaction.type.name, "failed")
        log.error("command %s failed", name, exc_info=error)
        await reply_private(interaction, text(language_of(interaction.locale), "bot.failure.nothing_changed"))


class Conductor(commands.AutoShardedBot):
    """The bot: discord.py's sharded Bot plus the game service, the stores and each game's controller.

    A process holds the shards its settings name (all of them by default, one in a small bot) and drives the
    games of their servers only; other processes on the same PostgreSQL store hold the others.
    """

    games: Mapping[str, GameInfo] = GAMES
    """The games it offers (`bot.games`): the layers below reach the list through the bot, never by importing it."""
    database: Database
    service: GameService
    lobby: LobbyService
    moves: Moves
    shown: ShownGames
    bot_players: BotPlayers
    guild_settings: GuildSettingsStore
    config: GuildConfigService
    timers: TimerService
    notifications: NotificationService
    invitations: InvitationRecords
    lobbies: LobbyExpiry
    places: GamePlaces
    records: GameRecords
    votes: VoteStore
    ratings: RatingService
    rating_records: RatingRecords
    charts: FinalCharts
    web: WebServer
    backups: BackupSchedule

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
            shard_count=settings.shard_count,
            shard_ids=sorted(settings.shards().ids),
            **client_options,
        )
        self.settings = settings
        self.controllers: dict[str, Controller] = {}
        self._resumed = False
        self.clock: Callable[[], float] = time.time
        """The clock of turn timers; tests replace it before the bot starts."""
        self.cooldowns = Cooldowns(enabled=settings.cooldowns)
        self.metrics = Metrics()
        """What this bot counts for its operator (`/metrics`)."""
        self.closing = False
        """Set when the bot stops or loses its lease: every interaction is then refused as "restarting"."""
        self._closed = False
        self.lease_lost = asyncio.Event()
        """Set once this process lost its lease on its shards and stopped driving their games (`serve` then exits)."""
        self._losing: asyncio.Task[None] | None = None
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._catching_up: asyncio.Task[None] | None = None
        self._starting_workers: asyncio.Task[None] | None = None
        self._identify_buckets = 1
        """Discord's `max_concurrency`: shards whose ids differ modulo it may IDENTIFY at the same time."""
        self._identified: dict[int, float] = {}
        """Rate-limit bucket → when a shard of it last identified (the event loop's clock)."""

    async def setup_hook(self) -> None:
        """Open the database, resume open games, load the cogs, register persistent components, sync commands
        (nothing is drawn and no worker started here: see `on_ready`)."""
        self.database = await open_database(self.settings)
        self.database.metrics = self.metrics
        await self.database.hold(self.settings.shards())
        self.database.watch_lease(self.lose_lease)
        self._identify_buckets = await self._max_concurrency()
        use_art(self.settings.art())
        self.guild_settings = GuildSettingsStore(self.database)
        games = GameStore(self.database)
        self.records = games
        self.votes = VoteStore(self.database)
        self.service = GameService(
            games, {game: info.engine for game, info in GAMES.items()}, shards=self.settings.shards()
        )
        self.shown = ShownGames(self.service)
        self.moves = Moves(self.service, self.shown, metrics=self.metrics)
        self.bot_players = BotPlayers(
            self.moves,
            bot_move_delay=self.settings.bot_move_delay,
            thinker=Thinker(Budget(self.settings.bot_think_seconds)),
        )
        self.config = GuildConfigService(self.guild_settings, GAMES)
        self.lobby = LobbyService(self.service)
        self.lobbies = LobbyExpiry(self.lobby, self.config, clock=self.clock)  # before the lobby cog plugs in
        self.timers = TimerService(
            TimerStore(self.database),
            self.service,
            self.moves,
            self.bot_players,
            clock=self.clock,
            announce=ChannelAnnouncer(self),
            afk_level=self.afk_level,
        )
        self.places = GamePlaces(self)
        self.service.add_listener(self.timers)
        notifications = NotificationStore(self.database)
        self.invitations = notifications
        self.notifications = NotificationService(
            notifications, self.service, self.shown, DirectMessenger(self), clock=self.clock
        )
        self.service.add_listener(self.notifications)
        self.service.add_listener(self.places)
        ratings = {game: info.ratings for game, info in GAMES.items()}
        self.rating_records = RatingStore(self.database)
        self.ratings = RatingService(self.rating_records, self.service, ratings)
        self.service.add_listener(self.ratings)
        self.charts = FinalCharts(self.service, self.shown, ChartPoster(self).post)
        self.service.add_listener(self.charts)
        resumed = await self.service.resume_all()
        log.info("resumed %d open games", len(resumed))
        for extension in extensions():
            await self.load_extension(extension)
        self.add_dynamic_items(GameComponent)
        await self.tree.set_translator(CommandTranslator())
        set_command_ids(await sync_commands(self, CommandSyncStore(self.database), self.settings))
        self.web = WebServer(self, self.settings)
        await self.web.start()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait only as long as Discord asks: one IDENTIFY per bucket (`shard_id % max_concurrency`) every 5 s
        (discord.py's own hook waits 5 s before every shard but the first, whatever `max_concurrency` allows)."""
        bucket = (shard_id or 0) % self._identify_buckets
        loop = asyncio.get_running_loop()
        last = self._identified.get(bucket)
        if last is not None:
            await asyncio.sleep(max(0.0, last + IDENTIFY_INTERVAL - loop.time()))
        self._identified[bucket] = loop.time()

    async def _max_concurrency(self) -> int:
        """Discord's `max_concurrency` for this bot (1 when it cannot be read: the slow, always-safe pace)."""
        if len(self.settings.shards().ids) == 1:
            return 1  # one shard here: nothing to pace
        try:
            _, _, limits = await self.http.get_bot_gateway()
        except discord.DiscordException:
            log.warning("could not read the gateway's session start limits; identifying one shard per 5 s")
            return 1
        return max(1, int(limits.get("max_concurrency", 1)))

    async def on_ready(self) -> None:
        """Once connected: start the picture and thinking workers in the background, bring every channel that missed
        a move up to date, let bot players whose turn it was before a restart move again, and run turn timers."""
        if self._resumed or self.closing:
            return
        self._resumed = True
        self._starting_workers = asyncio.create_task(asyncio.to_thread(start_workers, self.settings), name="workers")
        self._catching_up = asyncio.create_task(self._catch_up_all(), name="catch-up")
        for record in self.service.running():
            self.bot_players.wake_bots(record.id)
        self.timers.start()
        self.notifications.start()
        self.lobbies.start()
        self.ratings.start()  # also stores the games finished before ratings existed, oldest first
        if self.settings.database_url is None and self.settings.backup_every_hours > 0:
            self.backups = BackupSchedule(
                self.settings.database_path,
                self.settings.backups(),
                every=timedelta(hours=self.settings.backup_every_hours),
                keep=self.settings.backup_keep,
            )
            self.backups.start()

    async def _catch_up_all(self) -> None:
        """Show every game whose channel does not show its newest version (a crash or failed post before)."""
        for record in await self.records.unshown():
            controller = self.controllers.get(record.game)
            if not self.service.drives(record):
                continue  # another process's shard: it catches up its own games
            if controller is None:
                continue
            try:
                await controller.catch_up(record)
            except Exception as error:
                await controller.publish_failed(record, None, error)
        await self.charts.resume()  # after the final messages missed are shown

    async def close(self) -> None:
        """Refuse new interactions and let those in flight finish; let bot players finish the move they are making;
        close Discord, then the database. Closing twice (a signal, then `async with`) closes once."""
        if self._closed:
            await super().close()
            return
        self._closed = self.closing = True
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=SHUTDOWN_GRACE)
        if self._losing is not None:
            await self._losing  # a lost lease stopped them at once
        else:
            await self._stop_driving(STOP_GRACE)
        if self._starting_workers is not None:  # a thread: it cannot be cancelled, but is short
            await asyncio.gather(self._starting_workers, return_exceptions=True)
        if hasattr(self, "charts"):
            await self.charts.close()  # after the service: a bot player's last move tells it of the end first
        if hasattr(self, "backups"):
            await self.backups.close()
        if hasattr(self, "web"):
            await self.web.close()
        await super().close()
        set_command_ids({})  # the ids belong to this connection's application; the next may differ
        if hasattr(self, "database"):
            await self.database.close()

    def lose_lease(self, reason: str) -> None:
        """The database says this process's lease on its shards ended, so another process may take them: refuse every
        interaction ("restarting") and stop driving their games at once; `lease_lost` is set once they are stopped."""
        if self.closing:
            return  # stopping already; and the lease's fence refuses every game write from now on
        log.error("lost the lease on shards %s: %s; their games stop here", sorted(self.settings.shards().ids), reason)
        self.closing = True
        self._losing = asyncio.create_task(self._stop_driving(0.0), name="lease lost")
        self._losing.add_done_callback(lambda _: self.lease_lost.set())

    async def _stop_driving(self, grace: float) -> None:
        """Stop the catch-up, turn timers, notifications, ratings, lobby expiry and bot players, each given `grace`
        seconds to finish the round in hand."""
        if self._catching_up is not None:
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)
        if hasattr(self, "timers"):
            await self.timers.close(grace)
        if hasattr(self, "notifications"):
            await self.notifications.close(grace)
        if hasattr(self, "ratings"):
            await self.ratings.close(grace)
        if hasattr(self, "lobbies"):
            await self.lobbies.close(grace)
        if hasattr(self, "service"):  # the bot players' last moves first, then what they show, then the clean stop
            await self.bot_players.close(grace)
            await self.shown.close()
            await self.service.close()

    async def admit(self, interaction: discord.Interaction[Any], kind: str | None) -> bool:
        """Let an interaction in, or answer privately why not (stopping, too many too fast); one let in is waited
        for when the bot stops, so its answer is not cut off, and is acknowledged before a slow store would make it
        late (`attend`)."""
        language = language_of(interaction.locale)
        if self.closing:
            self.metrics.interaction(interaction.type.name, "refused")
            await reply_private(interaction, text(language, "bot.reason.restarting"))
            return False
        wait = self.cooldowns.retry_after(kind, interaction.user.id)
        if wait:
            self.metrics.interaction(interaction.type.name, "refused")
            await reply_private(interaction, text(language, "bot.reason.cooldown", seconds=math.ceil(wait)))
            return False
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
        if kind == "picture":  # before even looking the game up: the answer is a picture, never fast
            await acknowledge(interaction, private_answer=True)
        attend(interaction)
        return True

    async def route_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Send a click to the controller of its game; whatever fails, the person gets a true private answer, and
        a channel that missed a move of this game is brought up to date."""
        if not await self.admit(interaction, Cooldowns.kind_of_verb(cid.verb)):
            return
        controller = self.controllers.get(cid.game)
        kind = interaction.type.name
        try:
            if not await self._clicked_in_place(interaction, cid):
                self.metrics.interaction(kind, "refused")
                await reply_private(interaction, text(language_of(interaction.locale), "bot.reason.wrong_place"))
                return
            if controller is None:
                self.metrics.interaction(kind, "refused")
                await reply_private(interaction, text(language_of(interaction.locale), "bot.reason.unknown_component"))
                return
            await controller.on_component(interaction, cid, values)
            self.metrics.interaction(kind, "ok")
        except StoreBusy as busy:
            self.metrics.interaction(kind, "busy")
            log.warning("component %s found the store busy: %s", cid, busy)
            await reply_private(interaction, text(language_of(interaction.locale), "bot.failure.store_busy"))
        except Exception:
            self.metrics.interaction(kind, "failed")
            log.exception("component %s failed", cid)
            await reply_private(interaction, text(language_of(interaction.locale), "bot.failure.nothing_changed"))
        finally:
            await self.bring_up_to_date(cid.game_id)

    async def _clicked_in_place(self, interaction: discord.Interaction[Any], cid: ComponentId) -> bool:
        """Whether a click comes from the server and the channel or thread of the game its custom id names (or, for
        a game moved into its thread at Start, the lobby's channel), where all its components are posted: an id
        forged elsewhere is refused. An id naming no game (0: the inviter's pick of a game to open where they are)
        or an unknown one is left to its controller."""
        if cid.game_id == 0:
            return True
        try:
            record = await self.service.get(cid.game_id)  # an open game: from memory
        except ServiceError:  # over (a Rematch), or another process's: as stored
            stored = await self.records.get(cid.game_id)
            if stored is None:
                return True
            record = stored
        if record.guild_id != interaction.guild_id:
            return False
        here = interaction.channel_id
        return here == record.channel_id or here == await self.records.seen_from(record.id)

    async def on_app_command_completion(self, interaction: discord.Interaction[Any], command: object) -> None:
        """After a command, count it and bring its channel's game up to date if a stored move is not shown there yet."""
        self.metrics.interaction(interaction.type.name, "ok")
        for game_id in self.shown.behind_in(interaction.channel_id or 0):
            await self.bring_up_to_date(game_id)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Route a click on one of our components that its message no longer shows (clicked in a client that had
        not seen an edit yet): discord.py's persistent items only answer components still on the message."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        cid = ComponentId.parse(custom_id)
        if cid is None or custom_id in _custom_ids(interaction.message.components):
            return
        await self.route_component(interaction, cid, [str(v) for v in data.get("values", [])])

    async def bring_up_to_date(self, game_id: int) -> None:
        """Show a running game's table in its channel if a stored move is not shown there yet."""
        if not self.shown.behind(game_id):
            return
        try:
            record = await self.service.get(game_id)
        except ServiceError:
            return
        controller = self.controllers.get(record.game)
        if controller is not None:
            await controller.ensure_shown(game_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games (and those in its threads) are over."""
        await self.places.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: its game is over."""
        await self.places.channel_gone(payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its games there are over."""
        await self.places.guild_gone(guild.id)

    async def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its setting, else the bot's default."""
        chosen = (await self.config.get(guild_id)).language
        return self.settings.language if chosen is None else chosen.value

    async def afk_level(self, guild_id: int | None) -> str:
        """The level of the bot player that plays for absent people on a server (its setting)."""
        return (await self.config.get(guild_id)).afk_level.value

    async def default_options(self, guild_id: int | None, game: str) -> dict[str, Any]:
        """The server's defaults for a game's variant options (empty: the printed rules)."""
        return dict((await self.config.get(guild_id)).options.get(game, {}))

    def board_link(self, game_id: int) -> str | None:
        """The signed address of a game's live board page, fresh now; None while the board pages are off."""
        return self.web.board_link(game_id, self.clock()) if hasattr(self, "web") else None


def create_bot(settings: Settings, **client_options: Any) -> Conductor:
    """Build the bot from settings; tests and tools create every bot through here."""
    return Conductor(settings, **client_options)


def _custom_ids(components: Sequence[Any]) -> set[str]:
    """Every custom id among a message's components, however deeply nested."""
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= _custom_ids(getattr(component, "children", None) or getattr(component, "components", None) or [])
    return found


def start_workers(settings: Settings) -> None:
    """Start the picture and thinking workers (once ready, in a thread, so the first clicks need not; each finds
    the static art in the art store or draws it when first needed); delete the art of old versions."""
    prune_art(settings.art())
    start_pictures()
    start_thinking(settings.thinking_workers, [info.engine for info in GAMES.values()])
