"""The local Discord stand-in: REST + gateway on 127.0.0.1 for the real discord.py, and the test's hands.

Typical use::

    async with LocalDiscord() as discord_:
        bot = MyBot(guild_ready_timeout=0.1)
        async with discord_.connected(bot):
            outcome = await discord_.slash("alice", "newgame", {"game": "dice"})
            await discord_.click("boris", outcome.message, "dice:join")
"""

from __future__ import annotations

import asyncio
import http
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from functools import partial
from typing import Any, TypeVar

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from localdiscord import interaction_data, payloads, permissions
from localdiscord.errors import (
    ImpossibleInteraction,
    LocalDiscordError,
    MissedDeadline,
    NotConnected,
    RejectedResponse,
    StandInTimeout,
)
from localdiscord.faults import FailedRequests, Faults, HeldRequests
from localdiscord.gateway import Gateway
from localdiscord.ids import next_snowflake, next_snowflake_on_shard
from localdiscord.models import (
    Choice,
    InteractionType,
    Json,
    LocalChannel,
    LocalGuild,
    LocalRole,
    LocalUser,
    Overwrite,
    RecordedInteraction,
    RecordedMessage,
    SyncedCommand,
)
from localdiscord.outcome import InteractionOutcome
from localdiscord.rest import GATEWAY_PATH, RestApi
from localdiscord.state import ALL_PERMISSIONS, MessageAction, StandInState
from localdiscord.transcript import channel_transcript, format_message

T = TypeVar("T")

MAX_UPLOAD_BYTES = 64 * 1024 * 1024
HANDLER_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
ACK_MARGIN_SECONDS = 0.5
"""How long past the acknowledgement deadline a driving method still waits, to catch and name a late answer."""
MAX_CANCELLATIONS = 10
"""How many times shutting down cancels a handler that keeps getting requests held on its way out."""

UserRef = LocalUser | str | int
ChannelRef = LocalChannel | str | int
MessageRef = RecordedMessage | int


def default_users() -> list[LocalUser]:
    """Fresh default members: alice (en-US), boris (ru), carol (en-GB) and admin (en-US, Manage Server)."""
    return [
        LocalUser("alice", locale="en-US"),
        LocalUser("boris", locale="ru"),
        LocalUser("carol", locale="en-GB"),
        LocalUser("admin", locale="en-US", permissions=MANAGE_GUILD),
    ]


class LocalDiscord:
    """A Discord stand-in the real, unmodified discord.py connects to, and the methods tests drive it with.

    Guilds with text channels, human members and the bot: the one made from the constructor's arguments is the
    default, ``add_guild`` adds more (on a chosen shard). State (messages, commands, threads) outlives bot
    sessions, so a test can restart the bot against the same stand-in. Every wait has a timeout (``timeout``
    seconds unless a call says otherwise) and raises StandInTimeout explaining what the stand-in saw.

    The gateway honours IDENTIFY's ``[shard_id, shard_count]``: each guild's events and interactions go to the
    open sessions of its shard, from one bot or several (in this process or others); ``shards`` is the count
    ``GET /gateway/bot`` recommends.

    ``ack_deadline`` is Discord's time to acknowledge an interaction, in real seconds (``time.monotonic``, not
    ``clock``) from its dispatch: a later callback is refused (404 10062) and the driving method raises
    MissedDeadline. None turns the deadline off.
    """

    def __init__(
        self,
        *,
        users: Iterable[LocalUser] | None = None,
        channels: Iterable[str] = ("trains", "general"),
        roles: Iterable[LocalRole] = (),
        guild_name: str = "Conductor Sandbox",
        guild_locale: str = "en-US",
        bot_name: str = "Conductor",
        token: str = "local-discord-token",
        clock: Callable[[], float] = time.time,
        timeout: float = 5.0,
        ack_deadline: float | None = 3.0,
        shards: int = 1,
    ) -> None:
        self.token = token
        self.timeout = timeout
        self._state = StandInState(
            guild_name=guild_name,
            guild_locale=guild_locale,
            channel_names=channels,
            roles=roles,
            users=default_users() if users is None else users,
            bot_name=bot_name,
            clock=clock,
            ack_deadline=ack_deadline,
        )
        self._faults = Faults()
        self._gateway = Gateway(self._state, token=token, url=lambda: self.gateway_url, shards=shards)
        self._rest = RestApi(self._state, self._gateway, self._faults, token=token, base_url=lambda: self.base_url)
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._telling: set[asyncio.Task[None]] = set()

    # --- lifecycle ---------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on 127.0.0.1 on a free port."""
        app = web.Application(middlewares=[self._rest.middleware], client_max_size=MAX_UPLOAD_BYTES)
        app.add_routes(self._rest.routes())
        app.router.add_get(GATEWAY_PATH, self._gateway.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        address = self._runner.addresses[0]
        self._port = int(address[1])

    async def close(self) -> None:
        """Stop serving (close bots first, or they will try to reconnect); requests still held are dropped."""
        self._faults.drop_all()
        for task in set(self._telling):
            task.cancel()
        await self._gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> LocalDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if not self._port:
            raise LocalDiscordError("the stand-in is not started: use `async with LocalDiscord()` or start()")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_url(self) -> str:
        """The REST base that replaces ``https://discord.com/api/v10``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The websocket gateway URL."""
        return f"ws://{self.base_url.removeprefix('http://')}{GATEWAY_PATH}"

    @contextmanager
    def patch_discord_py(self) -> Iterator[None]:
        """Point discord.py's REST base and gateway at this stand-in, restoring the previous values after.

        They are process-wide class attributes: one stand-in serves the bots of a process at a time.
        """
        saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.api_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved

    @asynccontextmanager
    async def connected(
        self,
        bot: discord.Client,
        *,
        timeout: float | None = None,
        watch_loggers: Sequence[str] = ("discord",),
    ) -> AsyncIterator[discord.Client]:
        """Run ``bot`` against the stand-in for the duration of the block, ready when the block starts.

        Create the bot with ``guild_ready_timeout=0.1`` (else on_ready comes 2 s late). This patches
        discord.py (see patch_discord_py), enters ``async with bot``, starts it as a task with ``self.token``
        and waits for ready, raising at once if ``bot.start()`` fails. ERROR records of ``watch_loggers`` are
        collected in ``logged_errors``. On exit it stops the bot's views, lets running handlers finish (up to
        the timeout) and closes the bot.

        While a request is held (``hold_requests``) the exit does not wait: discord.py's running handlers
        are cancelled (again if they get another request held on their way out) and the bot is closed, as if
        its process stopped. A held request stays held: ``drop()`` it (it never reached Discord) or
        ``release()`` it (Discord did it, the bot never heard back); closing the stand-in drops it. A held
        call from one of the bot's own tasks is not cancelled: the bot's ``close()`` decides how long to wait
        for it, and the call then fails with aiohttp's connection errors as the bot's HTTP session closes.
        """
        wait = timeout or self.timeout
        collector = _ErrorCollector(self._state)
        loggers = [logging.getLogger(name) for name in watch_loggers]
        for logger in loggers:
            logger.addHandler(collector)
        try:
            with self.patch_discord_py():
                async with bot:
                    start = asyncio.create_task(bot.start(self.token), name="local-discord: bot.start")
                    start.add_done_callback(self._record_start_failure)
                    try:
                        await self._until_ready(bot, start, wait)
                        yield bot
                    finally:
                        await self._shut_down(bot, start, wait)
        finally:
            for logger in loggers:
                logger.removeHandler(collector)

    async def _until_ready(self, bot: discord.Client, start: asyncio.Task[None], wait: float) -> None:
        ready = asyncio.create_task(bot.wait_until_ready())
        try:
            done, _ = await asyncio.wait({start, ready}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ready.cancel()
            with suppress(asyncio.CancelledError):
                await ready
        if ready in done and not ready.cancelled():
            return
        if not done:
            self._state.timed_out(wait, "the bot to be ready")
        if start.done():
            error = None if start.cancelled() else start.exception()
            raise LocalDiscordError(self._state.explain("bot.start() ended before the bot was ready.")) from error
        raise StandInTimeout(
            self._state.explain(
                f"The bot was not ready after {wait:g} s. Was it created with guild_ready_timeout=0.1? "
                "Does its setup_hook wait on something?"
            )
        )

    async def _shut_down(self, bot: discord.Client, start: asyncio.Task[None], wait: float) -> None:
        _stop_views(bot)  # first, so handlers awaiting view.wait() can finish
        await self._finish_handlers(wait)
        _stop_views(bot)  # again, for views the finishing handlers stored
        session_ids = _session_ids(bot)
        await bot.close()
        for session_id in session_ids:
            self._gateway.end_session(session_id)
        done, _ = await asyncio.wait({start}, timeout=wait)
        if not done:
            self._state.timed_out(wait, "bot.start() to return after bot.close()")
            start.cancel()
            await asyncio.wait({start}, timeout=1.0)
        elif not start.cancelled():
            start.exception()  # already recorded by _record_start_failure; marks it retrieved

    async def _finish_handlers(self, timeout: float) -> None:
        """Let discord.py's running command, view and event handlers finish, then cancel what is left.

        A handler waiting on a held request would not finish: once a request is held they are cancelled, and
        cancelled again each time one gets another request held on its way out (a ``finally`` that posts), as
        if the bot's process stopped there.
        """
        current = asyncio.current_task()
        running = {
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASK_PREFIXES)
        }
        for task in running:
            task.add_done_callback(lambda _: self._state.notify())
        await self._until(lambda: all(task.done() for task in running) or self._faults.holding, timeout)
        for _ in range(MAX_CANCELLATIONS):
            if all(task.done() for task in running):
                return
            held = self._faults.held
            for task in running:
                task.cancel()  # no effect on a finished one
            if not await self._until(partial(self._finished_or_held, running, held), 1.0):
                return

    def _finished_or_held(self, tasks: set[asyncio.Task[Any]], held: int) -> bool:
        """Whether every task has finished, or another request has been held since ``held`` were."""
        return all(task.done() for task in tasks) or self._faults.held > held

    async def _until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``condition()`` holds (re-checked on every change of state); False if it timed out."""
        try:
            await self._state.wait_until(lambda: condition() or None, timeout=timeout, what="the bot's handlers")
        except StandInTimeout:
            return False
        return True

    def _record_start_failure(self, start: asyncio.Task[None]) -> None:
        if not start.cancelled() and start.exception() is not None:
            self._state.logged_errors.append(f"bot.start() failed: {start.exception()!r}")
            self._state.notify()

    async def caught_up(self, *, timeout: float | None = None, guild_id: int | None = None) -> None:
        """Wait until the bot has processed every gateway event sent so far (e.g. THREAD_CREATE), on every open
        session, or on those of ``guild_id``'s shard."""
        await self._until_told()
        await self._gateway.flush(timeout=timeout or self.timeout, guild_id=guild_id)

    async def wait_connected(self, *, timeout: float | None = None, guild_id: int | None = None) -> None:
        """Wait until the bot (started elsewhere, e.g. in processes of its own) is connected: a session is open and
        the shard of every guild it is in (or of ``guild_id`` only) has an open session."""
        guild_ids = [guild_id] if guild_id is not None else [g.id for g in self._state.guilds.values() if g.bot_present]
        what = "a bot to connect" + (f" for the shard of guild {guild_id}" if guild_id is not None else "")
        await self.wait_for(lambda: self._gateway.connected(guild_ids) or None, timeout=timeout, what=what)

    async def reconnect_gateway(self, *, timeout: float | None = None, guild_id: int | None = None) -> None:
        """Ask every open session (or those of ``guild_id``'s shard) to reconnect (gateway op 7), as Discord does
        during maintenance, and wait until each has resumed on a new socket."""
        sessions = self._gateway.open_sessions(guild_id)
        if not sessions:
            raise NotConnected("no bot is connected, so none can be asked to reconnect")
        old_sockets = {session.session_id: session.socket for session in sessions}
        for session in sessions:
            await session.send_op(7, None)

        def resumed() -> bool | None:
            back = all(s.open and s.socket is not old_sockets[s.session_id] for s in sessions)
            return True if back else None

        await self.wait_for(resumed, timeout=timeout, what="the bot to resume its gateway sessions")

    @property
    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every open gateway session, sorted (a shard twice if two sessions hold it)."""
        return sorted(session.shard for session in self._gateway.open_sessions())

    @property
    def shards(self) -> int:
        """The shard count ``GET /gateway/bot`` recommends (what AutoShardedClient uses without ``shard_count``)."""
        return self._gateway.recommended_shards

    @shards.setter
    def shards(self, count: int) -> None:
        self._gateway.recommended_shards = count

    @property
    def max_guilds_per_shard(self) -> int:
        """Guilds one session may hold: an IDENTIFY for a shard with more is closed with 4011 (Sharding required)."""
        return self._gateway.max_guilds_per_shard

    @max_guilds_per_shard.setter
    def max_guilds_per_shard(self, count: int) -> None:
        self._gateway.max_guilds_per_shard = count

    # --- guilds --------------------------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        """The default guild's id (pass it to the bot to sync guild commands)."""
        return self._state.default_guild.id

    @property
    def guild_ids(self) -> list[int]:
        """Every guild's id, the default one first, the bot's former guilds included."""
        return list(self._state.guilds)

    def guild(self, guild_id: int | None = None) -> LocalGuild:
        """A guild by id (the default guild if None): its name, locale, roles, member ids, ``bot_present``."""
        return self._state.guild(guild_id)

    def add_guild(
        self,
        name: str,
        locale: str = "en-US",
        *,
        channels: Iterable[str] = ("trains", "general"),
        roles: Iterable[LocalRole] = (),
        members: Iterable[UserRef] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> int:
        """Add a guild with the bot in it and return its id; ``shard=(shard_id, shard_count)`` picks an id that
        Discord routes to that shard.

        ``members`` are people (new ``LocalUser`` objects, or names and ids of known people); None makes every
        person known so far a member (their role names must be among ``roles``). A bot session holding the
        guild's shard gets GUILD_CREATE, as when the bot is invited; a later one finds it in READY.
        """
        guild_id = next_snowflake_on_shard(*shard) if shard is not None else None
        guild = self._state.add_guild(name, locale, channel_names=channels, roles=roles, guild_id=guild_id)
        people = list(self._state.users.values()) if members is None else members
        for person in people:
            self._state.add_user(person if isinstance(person, LocalUser) else self._state.user(person), guild)
        if self._gateway.open_sessions(guild.id):
            self._tell_bot(("GUILD_CREATE", payloads.guild_create(self._state, guild)), guild.id)
        return guild.id

    def add_channel(self, name: str, *, guild_id: int | None = None) -> LocalChannel:
        """Add a text channel to a guild (the default one if None); a connected bot gets CHANNEL_CREATE.

        Interactions wait until the bot has processed it; ``caught_up()`` waits for it too.
        """
        guild = self._state.guild(guild_id)
        place = self._state.add_channel(name, guild)
        if guild.bot_present and self._gateway.open_sessions(guild.id):
            self._tell_bot(("CHANNEL_CREATE", payloads.channel(self._state, place)), guild.id)
        return place

    # --- people, roles and channels ----------------------------------------------------------------------

    @property
    def application_id(self) -> int:
        """The bot's application id (also its user id)."""
        return self._state.application_id

    @property
    def bot_user(self) -> LocalUser:
        """The bot's own user."""
        return self._state.bot_user

    @property
    def users(self) -> list[LocalUser]:
        """The human members of every guild."""
        return list(self._state.users.values())

    def user(self, ref: UserRef) -> LocalUser:
        """Find a person by name or id."""
        return self._state.user(ref)

    def add_user(self, user: LocalUser, *, guild_id: int | None = None) -> LocalUser:
        """Make a person a member of a guild (the default one if None; call again for more guilds). Do it before
        the bot connects, or the bot learns of it only through interactions."""
        return self._state.add_user(user, self._state.guild(guild_id))

    def channel(self, ref: ChannelRef, *, guild_id: int | None = None) -> LocalChannel:
        """Find a channel or thread by id or name (``"trains"``, ``"#trains"``): in ``guild_id``'s guild when given,
        else in the default guild first, then the others."""
        return self._state.channel(ref, None if guild_id is None else self._state.guild(guild_id))

    def role(self, ref: LocalRole | str | int, *, guild_id: int | None = None) -> LocalRole:
        """Find a role by id, or by name in a guild (the default one if None)."""
        return self._state.role(ref, self._state.guild(guild_id))

    @property
    def threads(self) -> list[LocalChannel]:
        """Every thread the bot created, archived and deleted ones included, oldest first."""
        return [c for c in self._state.channels.values() if c.is_thread]

    @property
    def ack_deadline(self) -> float | None:
        """Seconds the bot has to acknowledge an interaction (None: no deadline); may be changed any time."""
        return self._state.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, seconds: float | None) -> None:
        self._state.ack_deadline = seconds

    # --- permissions and places that go away -------------------------------------------------------------

    def bot_permissions_in(self, channel: ChannelRef) -> int:
        """The bot's permissions in a channel or thread, computed as Discord (and discord.py) does.

        @everyone's and the bot role's guild permissions (all of them with Administrator), then the channel's
        overwrites: @everyone's, the roles', the bot's own. A thread uses its parent's (plus its own, if a test
        set some); there Send Messages in Threads takes the place of Send Messages.
        """
        return permissions.in_channel(self._state, self._state.bot_user, self._state.channel(channel))

    def set_bot_permissions(self, channel: ChannelRef, *, allow: int = 0, deny: int = 0) -> asyncio.Task[None]:
        """Give the bot's member a permission overwrite in a channel (``allow=deny=0`` removes it).

        It applies at once; a connected bot gets CHANNEL_UPDATE, and once the returned task is done (await it,
        or not: interactions wait for it) it has processed it, so ``channel.permissions_for(guild.me)`` agrees.
        On a thread the overwrite is the stand-in's own (Discord has none there): it is enforced and sent as
        ``app_permissions``, but discord.py cannot see it.
        """
        place = self._state.channel(channel)
        return self._overwrite(place, Overwrite(self._state.bot_user.id, permissions.MEMBER, allow, deny))

    def set_role_permissions(
        self, channel: ChannelRef, role: LocalRole | str | int, *, allow: int = 0, deny: int = 0
    ) -> asyncio.Task[None]:
        """Give a role (``"@everyone"``, the bot's role by the bot's name, or another) an overwrite in a channel.

        As ``set_bot_permissions``; ``allow=deny=0`` removes it.
        """
        place = self._state.channel(channel)
        guild = self._state.guild_of(place)
        target = guild.id if role == "@everyone" else self._state.role(role, guild).id
        return self._overwrite(place, Overwrite(target, permissions.ROLE, allow, deny))

    def delete_channel(self, channel: ChannelRef) -> asyncio.Task[None]:
        """Delete a text channel (with its threads) or a thread, as a server admin would.

        At once, REST calls on it answer 404 10003 Unknown Channel and interacting there raises
        ImpossibleInteraction. The bot gets CHANNEL_DELETE or THREAD_DELETE: processed once the returned task
        is done (see ``set_bot_permissions``).
        """
        place = self._state.channel(channel)
        self._state.delete_channel(place)
        present = self._state.guild_of(place).bot_present
        return self._tell_bot(payloads.deletion(self._state, place) if present else None, place.guild_id)

    def remove_bot_from_guild(self, guild_id: int | None = None) -> asyncio.Task[None]:
        """Kick the bot from a guild (the default one if None): from now on every REST call on it (channels,
        messages, threads, members, guild commands) answers 403 50001 Missing Access, a new session does not get
        it, and interacting there raises ImpossibleInteraction. The bot gets GUILD_DELETE on the guild's shard:
        processed once the returned task is done."""
        guild = self._state.guild(guild_id)
        guild.bot_present = False
        self._state.notify()
        return self._tell_bot(("GUILD_DELETE", {"id": str(guild.id)}), guild.id)

    def _overwrite(self, place: LocalChannel, entry: Overwrite) -> asyncio.Task[None]:
        """Set or remove an overwrite, and bring a connected bot's cache up to date."""
        if entry.allow or entry.deny:
            place.overwrites[entry.id] = entry
        else:
            place.overwrites.pop(entry.id, None)
        self._state.notify()
        visible = not place.is_thread and not place.deleted and self._state.guild_of(place).bot_present
        event = ("CHANNEL_UPDATE", payloads.channel(self._state, place)) if visible else None
        return self._tell_bot(event, place.guild_id)

    def _tell_bot(self, event: tuple[str, Json] | None, guild_id: int) -> asyncio.Task[None]:
        """Send a guild's event to the open sessions of its shard in the background; the task ends once they have
        processed it (at once if none is open)."""
        task = asyncio.create_task(self._send_and_flush(event, guild_id), name="local-discord: gateway event")
        self._telling.add(task)
        task.add_done_callback(self._told)
        return task

    async def _send_and_flush(self, event: tuple[str, Json] | None, guild_id: int) -> None:
        if event is not None:
            await self._gateway.notify_bot(*event, guild_id)
        await self._gateway.flush(timeout=self.timeout, guild_id=guild_id)

    def _told(self, task: asyncio.Task[None]) -> None:
        """Forget a finished event task, marking its error retrieved (a test awaiting it still gets it)."""
        self._telling.discard(task)
        if not task.cancelled():
            task.exception()

    async def _until_told(self) -> None:
        """Wait for the events still being sent, so an interaction never overtakes them."""
        if self._telling:
            await asyncio.wait(set(self._telling))

    # --- injected failures and held requests -------------------------------------------------------------

    def fail_requests(
        self,
        method: str,
        path_pattern: str,
        *,
        status: int,
        code: int = 0,
        message: str | None = None,
        times: int | None = 1,
        retry_after: float | None = None,
    ) -> FailedRequests:
        """Answer the next ``times`` (None: all, until ``cancel()``) matching bot requests with an error.

        ``path_pattern`` is a regex searched in the path without ``/api/v10``, e.g. ``r"/channels/\\d+/messages$"``.
        Each failure is recorded in ``rejected``; the handle counts them in ``hits``. ``message`` defaults to
        the HTTP reason. A 429 carries ``retry_after`` (default 0) and a ``Via`` header, like Discord's. A new
        rule for the same method and pattern replaces the one before (so ``times=0`` ends it).

        What discord.py 2.7 does with them: a 429 is slept off for ``retry_after`` and retried, and the fifth
        429 in a row raises ``HTTPException`` (status 429; ``RateLimited`` at once if ``retry_after`` exceeds
        the client's ``max_ratelimit_timeout``). On the bot's own calls (``discord.http``: channels, messages,
        threads, commands) 500, 502, 504 and 524 are retried after sleeping 1, 3, 5, 7 and 9 s (about 25 s,
        then ``DiscordServerError``) while other 5xx (503...) raise ``DiscordServerError`` at once. Interaction
        callbacks, follow-ups and webhook edits (``discord.webhook``) retry every 5xx that way, 503 included.
        4xx raise at once: 403 ``Forbidden``, 404 ``NotFound``, others ``HTTPException``. To fail fast, use a
        4xx, or 503 on the bot's own calls.
        """
        rule = FailedRequests(
            method=method.upper(),
            pattern=re.compile(path_pattern),
            status=status,
            code=code,
            message=message or http.HTTPStatus(status).phrase,
            times=times,
            retry_after=retry_after,
        )
        for earlier in self._faults.failures:
            if (earlier.method, earlier.pattern.pattern) == (rule.method, path_pattern):
                earlier.cancel()
        self._faults.failures.append(rule)
        return rule

    def hold_requests(self, method: str, path_pattern: str) -> HeldRequests:
        """Hold matching bot requests unanswered until ``release()`` (served) or ``drop()`` (connection aborted).

        ``await handle.arrived()`` waits until one is held. Use it to stop the bot between two steps, e.g.
        after its database commit and before its message is posted. ``path_pattern`` is as in
        ``fail_requests``. The handle is also an async context manager that releases on exit. Dropped, the
        bot's call raises ``aiohttp.ServerDisconnectedError`` (POST and PATCH; aiohttp itself retries a
        GET, PUT or DELETE once, and the retry is served). See ``connected`` for shutting a bot down meanwhile.
        """
        hold = HeldRequests(self._state, method.upper(), re.compile(path_pattern), timeout=self.timeout)
        self._faults.holds.append(hold)
        return hold

    # --- what was recorded -------------------------------------------------------------------------------

    @property
    def commands(self) -> list[SyncedCommand]:
        """Every synced command, guild and global."""
        return list(self._state.commands.values())

    @property
    def command_syncs(self) -> dict[int | None, int]:
        """How many times the bot synced (bulk overwrote) its commands, by scope: a guild's id, or None for global."""
        return dict(self._state.command_syncs)

    def command(self, name: str, *, guild_id: int | None = None, command_type: int = 1) -> SyncedCommand:
        """The synced command ``name`` (a slash command; ``command_type=2`` a user menu) as a guild (the default one
        if None) sees it: its own if both exist."""
        return self._state.command(name, self._state.guild(guild_id), command_type)

    @property
    def messages(self) -> list[RecordedMessage]:
        """Every message the bot created, in creation order, deleted and ephemeral ones included."""
        return list(self._state.messages.values())

    @property
    def log(self) -> list[MessageAction]:
        """Every create, edit and delete the bot made, in order."""
        return list(self._state.log)

    def message(self, message_id: int) -> RecordedMessage:
        """A recorded message by id."""
        return self._state.messages[message_id]

    def channel_messages(self, channel: ChannelRef = "trains") -> list[RecordedMessage]:
        """The messages everyone sees in a channel or thread, oldest first."""
        return self._state.channel_messages(self._state.channel(channel))

    def dms(self, user: UserRef) -> list[RecordedMessage]:
        """The direct messages the bot sent a person, oldest first (never part of a guild channel's transcript)."""
        return self._state.dms(self._state.user(user))

    def close_dms(self, user: UserRef, closed: bool = True) -> None:
        """Let a person refuse (or again accept) the bot's direct messages: sending one then fails with 403 / 50007."""
        self._state.user(user).dms_closed = closed

    def ephemerals(self, user: UserRef) -> list[RecordedMessage]:
        """The ephemeral messages a user received and still sees, oldest first."""
        return self._state.ephemerals(self._state.user(user))

    @property
    def interactions(self) -> list[RecordedInteraction]:
        """Every interaction dispatched, in order."""
        return list(self._state.interactions.values())

    @property
    def unhandled(self) -> list[str]:
        """Requests the stand-in does not implement (answered 404) or that crashed it: keep this empty."""
        return self._state.unhandled

    @property
    def rejected(self) -> list[str]:
        """Requests refused as Discord would refuse them (bad form, unknown message, expired token...)."""
        return self._state.rejected

    @property
    def requests(self) -> list[str]:
        """Every request received, as ``METHOD /path?query``."""
        return self._state.requests

    @property
    def logged_errors(self) -> list[str]:
        """ERROR log records from discord.py (and other watched loggers) while a bot was connected."""
        return self._state.logged_errors

    @property
    def timeouts(self) -> list[str]:
        """Every wait of the stand-in that ran out of time instead of ending on what it waited for (a driving method,
        a bot's start or shut down), as ``Timed out after N s waiting for ...``: tests check a step ended on its event
        without timing it."""
        return self._state.timeouts

    def transcript(self, channel: ChannelRef = "trains", *, include_ephemeral: bool = False) -> str:
        """A channel as readable text: authors, content, embeds, buttons, select menus and files."""
        return channel_transcript(self._state, self._state.channel(channel), include_ephemeral=include_ephemeral)

    def describe(self, message: MessageRef) -> str:
        """One message as readable text, as in the transcript."""
        return format_message(self._state, self._message(message))

    # --- waiting -----------------------------------------------------------------------------------------

    async def wait_for(
        self, condition: Callable[[], T | None], *, timeout: float | None = None, what: str = "a condition"
    ) -> T:
        """Wait until ``condition()`` returns something other than None or False, and return it.

        The condition is re-checked whenever the stand-in's state changes.
        """
        return await self._state.wait_until(condition, timeout=timeout or self.timeout, what=what)

    async def wait_for_message(
        self,
        predicate: Callable[[RecordedMessage], bool] = lambda message: True,
        *,
        channel: ChannelRef | None = None,
        after: MessageRef | None = None,
        timeout: float | None = None,
    ) -> RecordedMessage:
        """Wait for the first message (oldest first, not deleted) matching ``predicate`` and return it.

        ``channel`` limits the search to one channel; ``after`` to messages created after that message.
        """
        place = self._state.channel(channel) if channel is not None else None
        after_id = after.id if isinstance(after, RecordedMessage) else after

        def found() -> RecordedMessage | None:
            for message in self._state.messages.values():
                if message.deleted or (place is not None and message.channel_id != place.id):
                    continue
                if after_id is not None and message.id <= after_id:
                    continue
                if predicate(message):
                    return message
            return None

        return await self.wait_for(found, timeout=timeout, what="a matching message")

    # --- driving the bot ---------------------------------------------------------------------------------

    async def slash(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: ChannelRef = "trains",
        force: bool = False,
        timeout: float | None = None,
    ) -> InteractionOutcome:
        """Run a slash command as ``user`` and wait for the bot's answer.

        ``command`` may name a subcommand: ``"newgame dice"`` (sent nested, as Discord does). Options are checked
        against the command as the bot synced it (types, choices, bounds, required); a choice may be given by value
        or name; users, channels and roles by object, name or id; attachments as ``(filename, bytes)``. A member
        without the command's ``default_member_permissions`` cannot run it unless ``force``.
        """
        person = self._state.user(user)
        name, *path = command.removeprefix("/").split()
        place = self._state.channel(channel)
        guild = self._state.guild_of(place)
        synced = self._state.command(name, guild)
        self._check_can_use(person, synced, guild, force=force)
        given = dict(options or {})
        data = interaction_data.command_data(
            self._state, self.base_url, synced, path, given, person, guild, force=force
        )
        description = " ".join(["/" + name, *path, *(f"{k}:{_short(v)}" for k, v in given.items())])
        return await self._interact(InteractionType.APPLICATION_COMMAND, person, place, data, description, timeout)

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        channel: ChannelRef = "trains",
        timeout: float | None = None,
    ) -> list[Choice]:
        """Return the choices the bot offers for ``focused`` while ``user`` types ``options[focused]``."""
        person = self._state.user(user)
        name, *path = command.removeprefix("/").split()
        place = self._state.channel(channel)
        guild = self._state.guild_of(place)
        synced = self._state.command(name, guild)
        data = interaction_data.command_data(
            self._state, self.base_url, synced, path, dict(options), person, guild, focused=focused
        )
        description = f"autocomplete of {focused} in /{' '.join([name, *path])} (typed {options[focused]!r})"
        outcome = await self._interact(InteractionType.AUTOCOMPLETE, person, place, data, description, timeout)
        return outcome.choices

    async def user_command(
        self,
        user: UserRef,
        command: str,
        target: UserRef,
        *,
        channel: ChannelRef = "trains",
        force: bool = False,
        timeout: float | None = None,
    ) -> InteractionOutcome:
        """Run a user context menu command (right-click ``target`` → Apps → ``command``) as ``user`` in ``channel``
        and wait for the bot's answer; the interaction carries ``target_id`` and the target in ``resolved``."""
        person = self._state.user(user)
        aimed = self._state.user(target)
        place = self._state.channel(channel)
        guild = self._state.guild_of(place)
        synced = self._state.command(command, guild, interaction_data.USER_COMMAND)
        self._check_can_use(person, synced, guild, force=force)
        if not force and not self._state.is_member(aimed, guild):
            raise ImpossibleInteraction(f"{aimed.name} is not a member of guild {guild.name!r}: nobody can click them")
        data = interaction_data.user_command_data(self._state, synced, aimed, guild)
        description = f"user menu {command!r} on {aimed.name}"
        return await self._interact(InteractionType.APPLICATION_COMMAND, person, place, data, description, timeout)

    async def click(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        *,
        force: bool = False,
        timeout: float | None = None,
    ) -> InteractionOutcome:
        """Click a button on a message as ``user`` and wait for the bot's answer.

        The interaction carries the message as the bot last left it. Unknown or disabled buttons, deleted
        messages and other people's ephemeral messages raise ImpossibleInteraction unless ``force``.
        """
        person = self._state.user(user)
        target = self._clickable(person, message, force=force)
        data = interaction_data.component_data(self._state, target, custom_id, person, None, force=force)
        component = target.component(custom_id) or {}
        description = f"click [{component.get('label') or custom_id}]"
        return await self._component(person, target, data, description, timeout)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        values: Sequence[Any],
        *,
        force: bool = False,
        timeout: float | None = None,
    ) -> InteractionOutcome:
        """Choose ``values`` in a select menu as ``user`` and wait for the bot's answer.

        String selects take option values (or labels); user, role and channel selects take objects, names
        or ids. Counts outside min/max values and unknown options raise unless ``force``.
        """
        person = self._state.user(user)
        target = self._clickable(person, message, force=force)
        data = interaction_data.component_data(self._state, target, custom_id, person, values, force=force)
        component = target.component(custom_id) or {}
        description = f"select {[_short(v) for v in values]} in <{component.get('placeholder') or custom_id}>"
        return await self._component(person, target, data, description, timeout)

    async def submit_modal(
        self,
        user: UserRef,
        custom_id: str,
        fields: Mapping[str, str | Sequence[str]],
        *,
        force: bool = False,
        timeout: float | None = None,
    ) -> InteractionOutcome:
        """Submit the modal ``custom_id`` last shown to ``user``, with ``fields`` by input custom id.

        Missing required fields, unknown fields and a modal never shown raise unless ``force``.
        """
        person = self._state.user(user)
        shown = next(
            (
                i
                for i in reversed(self._state.interactions.values())
                if i.user.id == person.id
                and i.response_type == 9
                and (i.response_data or {}).get("custom_id") == custom_id
            ),
            None,
        )
        modal = shown.response_data if shown else None
        data = interaction_data.modal_data(modal, custom_id, fields, force=force)
        place = self._state.channels[shown.channel_id] if shown else self._state.channel("trains")
        source = self._state.messages.get(shown.source_message_id or 0) if shown else None
        title = (modal or {}).get("title", custom_id)
        return await self._interact(
            InteractionType.MODAL_SUBMIT,
            person,
            place,
            data,
            f"submit modal {title!r}",
            timeout,
            source=source,
        )

    def expire_interaction(self, target: InteractionOutcome | RecordedInteraction | RecordedMessage) -> None:
        """Make an interaction's token dead, as 15 minutes later: its callbacks and webhooks answer 404.

        A message stands for the interaction that created it (e.g. an old ephemeral reply).
        """
        if isinstance(target, InteractionOutcome):
            interaction: RecordedInteraction | None = target.interaction
        elif isinstance(target, RecordedMessage):
            interaction = self._state.interactions.get(target.interaction_id or 0)
        else:
            interaction = target
        if interaction is None:
            raise LocalDiscordError("this message was not created by an interaction, so it has no token")
        interaction.expired = True

    # --- internals ---------------------------------------------------------------------------------------

    def _message(self, ref: MessageRef) -> RecordedMessage:
        return self._state.messages[ref if isinstance(ref, int) else ref.id]

    def _clickable(self, person: LocalUser, ref: MessageRef, *, force: bool) -> RecordedMessage:
        message = self._message(ref)
        if force:
            return message
        if message.deleted:
            raise ImpossibleInteraction(f"message {message.id} was deleted")
        if message.ephemeral and message.recipient_id != person.id:
            raise ImpossibleInteraction(
                f"{person.name} cannot see message {message.id}: it is ephemeral for someone else"
            )
        return message

    def _check_can_use(self, person: LocalUser, command: SyncedCommand, guild: LocalGuild, *, force: bool) -> None:
        needed = command.default_member_permissions
        if force or needed is None:
            return
        have = self._state.permissions(person, guild)
        allowed = have == ALL_PERMISSIONS if needed == 0 else have & needed == needed
        if not allowed:
            raise ImpossibleInteraction(
                f"{person.name} cannot see /{command.name}: it needs permissions {needed:#x}, has {have:#x}"
            )

    async def _component(
        self, person: LocalUser, message: RecordedMessage, data: Json, description: str, timeout: float | None
    ) -> InteractionOutcome:
        place = self._state.channels[message.channel_id]
        return await self._interact(
            InteractionType.MESSAGE_COMPONENT, person, place, data, description, timeout, source=message
        )

    async def _interact(
        self,
        kind: InteractionType,
        person: LocalUser,
        place: LocalChannel,
        data: Json,
        description: str,
        timeout: float | None,
        *,
        source: RecordedMessage | None = None,
    ) -> InteractionOutcome:
        wait = timeout or self.timeout
        self._check_reachable(person, place)
        await self._wait_for_session(place.guild_id, wait)
        await self._until_told()
        interaction = RecordedInteraction(
            id=next_snowflake(),
            token=secrets.token_urlsafe(48),
            type=kind,
            user=person,
            channel_id=place.id,
            payload={},
            created_at=self._state.clock(),
            description=f"{description} by {person.name}",
            source_message_id=source.id if source else None,
        )
        interaction.payload = payloads.interaction(self._state, self.base_url, interaction, data, source)
        self._state.interactions[interaction.id] = interaction
        interaction.dispatched_at = time.monotonic()
        await self._gateway.dispatch("INTERACTION_CREATE", interaction.payload, place.guild_id)
        self._state.notify()
        await self._until_acknowledged(interaction, wait)
        if interaction.response_type == 5:
            await self._until_filled(interaction, wait)
        return InteractionOutcome(self._state, interaction, wait)

    def _check_reachable(self, person: LocalUser, place: LocalChannel) -> None:
        """Refuse to interact where no one could: a deleted channel, a guild the bot was removed from, or a guild
        the person is not in."""
        guild = self._state.guild_of(place)
        if not guild.bot_present:
            raise ImpossibleInteraction("the bot was removed from the guild: nobody can use it there any more")
        if not self._state.is_member(person, guild):
            raise ImpossibleInteraction(f"{person.name} is not a member of guild {guild.name!r}")
        if place.deleted:
            raise ImpossibleInteraction(f"#{place.name} was deleted: nobody can interact there any more")

    async def _until_acknowledged(self, interaction: RecordedInteraction, wait: float) -> None:
        """Wait for the bot's callback; with a deadline, no longer than the deadline and a margin.

        Raises MissedDeadline when the bot did not acknowledge in time, RejectedResponse when its answer was
        refused for another reason.
        """
        deadline = self._state.ack_deadline
        hint = ""
        if interaction.type is InteractionType.MESSAGE_COMPONENT:
            hint = " (no answer often means no View or DynamicItem matched the custom id)"
        try:
            await self._state.wait_until(
                lambda: True if interaction.answered or interaction.rejections else None,
                timeout=wait if deadline is None else min(wait, deadline + ACK_MARGIN_SECONDS),
                what=f"the bot to answer {interaction.description}{hint}",
            )
        except StandInTimeout:
            if deadline is None or time.monotonic() - interaction.dispatched_at <= deadline:
                raise
            headline = (
                f"The bot did not acknowledge {interaction.description} within Discord's {deadline:g}-second "
                "deadline: the person sees 'This interaction failed' and a later answer is refused (10062). "
                "Acknowledge (defer) first and do slow work after."
            )
            raise MissedDeadline(self._state.explain(headline)) from None
        if interaction.answered:
            return
        if interaction.ack_seconds is not None:
            headline = (
                f"The bot acknowledged {interaction.description} after {interaction.ack_seconds:.2f} s, past "
                f"Discord's {deadline:g}-second deadline: refused with 10062 Unknown interaction."
            )
            raise MissedDeadline(self._state.explain(headline))
        headline = f"The stand-in refused the bot's answer to {interaction.description}, as Discord would."
        raise RejectedResponse(self._state.explain(headline))

    async def _until_filled(self, interaction: RecordedInteraction, wait: float) -> None:
        """After a "thinking" answer, wait until its message is filled in (or deleted), as a person would."""
        refused_before = len(interaction.rejections)

        def settled() -> bool | None:
            message = self._state.messages.get(interaction.original_message_id or 0)
            finished = message is None or message.deleted or not message.loading
            return True if finished or len(interaction.rejections) > refused_before else None

        try:
            await self._state.wait_until(settled, timeout=wait, what="the bot to fill in its 'thinking' answer")
        except StandInTimeout:
            headline = (
                f"The bot answered {interaction.description} with 'thinking' (a deferred message) but did not "
                f"fill it in within {wait:g} s: Discord would show it thinking until the token dies. Send a "
                "follow-up or edit the original response."
            )
            raise StandInTimeout(self._state.explain(headline)) from None
        message = self._state.messages.get(interaction.original_message_id or 0)
        if message is not None and message.loading and not message.deleted:
            headline = (
                f"The stand-in refused the bot's answer filling in the 'thinking' message of {interaction.description}."
            )
            raise RejectedResponse(self._state.explain(headline))

    async def _wait_for_session(self, guild_id: int, wait: float) -> None:
        """Return once a session of the guild's shard is open: at once if one is, NotConnected at once if none was
        ever opened (or the last ended), else wait for the bot to resume or identify again."""
        if self._gateway.open_sessions(guild_id):
            return
        if not self._gateway.may_return(guild_id):
            raise NotConnected(
                f"no bot has connected for the shard of guild {guild_id}: run it inside "
                "`async with local_discord.connected(bot):` (with that guild's shard, if it is sharded)"
            )
        await self._state.wait_until(
            lambda: True if self._gateway.open_sessions(guild_id) else None,
            timeout=wait,
            what=f"the bot to reconnect to the gateway for the shard of guild {guild_id}",
        )


class _ErrorCollector(logging.Handler):
    """Keep ERROR records in the state so tests can assert none happened and timeouts can show them."""

    def __init__(self, state: StandInState) -> None:
        super().__init__(logging.ERROR)
        self._state = state

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" [{record.exc_info[1]!r}]"
        self._state.logged_errors.append(text)
        self._state.notify()


def _session_ids(bot: discord.Client) -> list[str]:
    """The gateway session ids of a bot: one per shard it runs (an AutoShardedClient has no ``ws`` of its own)."""
    if isinstance(bot, discord.AutoShardedClient):
        sockets = [info._parent.ws for info in bot.shards.values()]
    else:
        sockets = [bot.ws] if bot.ws is not None else []
    return [ws.session_id for ws in sockets if ws.session_id is not None]


def _stop_views(bot: discord.Client) -> None:
    """Stop every view the bot tracks, so no timeout task outlives the bot ("Task was destroyed")."""
    store = bot._connection._view_store
    views: set[Any] = {item.view for items in store._views.values() for item in items.values() if item.view}
    views |= set(store._modals.values()) | set(store._synced_message_views.values())
    for view in views:
        view.stop()


def _short(value: Any) -> str:
    """A compact rendering of an option value for descriptions."""
    if isinstance(value, LocalUser | LocalChannel | LocalRole):
        return value.name
    if isinstance(value, tuple) and len(value) == 2:
        return str(value[0])
    return str(value)
