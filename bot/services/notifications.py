"""Turn notifications: a DM when a person's turn starts (at once or after a delay), the channel ping they chose, and
spectators told when a game ends; and whose invitations to games each person refuses on a server (never posted).

Each person the game waits for who wants DMs has a wait, kept in the store: when their DM is due, or none once it
was sent (or while they act on in their own turn, when none is due). A wait starts when the game starts waiting for
them and ends when it stops, so a DM goes once per turn, never per step; a delayed one not yet sent is cancelled
when they move first. DMs are sent by the background loop, never on a move's path, and due times survive a restart.
A person whose DMs Discord refuses (50007) is not tried again until they change /notify, and is told so once.
The clock is injected, as for the turn timers: tests move it and poke the loop.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Protocol

from bot.i18n import text
from bot.links import jump_link
from bot.services.background import BackgroundLoop
from bot.services.errors import ServiceError
from bot.services.games import GameListener, GameService, Outcome
from bot.services.shown import ShownGames
from bot.storage.games import GameRecord
from bot.storage.notifications import DmWait, Invitation, NotificationStore, NotifyPrefs, Refusals, Watcher

log = logging.getLogger(__name__)

RETRY_SECONDS = 300.0
"""When sending a DM failed otherwise than by closed DMs (Discord down, say), try again this much later."""
PREFS_REFRESH = 60.0
"""Seconds between reads of everyone's choices from the store: with several processes on one database (shards), a
choice made through another process is heeded within this long."""
MAX_REFUSED = 25
"""The most inviters one person refuses one by one on a server: what /notify's people menu can show and change."""
UNSHOWN_RETRY = 1.0
"""Seconds (real time) before looking again at a DM due in a game whose channel does not show its turn yet (a game
just started: its first message is being posted), so the DM links to that message."""


class Messenger(Protocol):
    """What the service needs from Discord: send a DM, post a line in a channel, a server's and a game's name."""

    async def dm(self, user_id: int, content: str) -> bool:
        """DM a person; False when Discord refuses because their DMs are closed (other failures raise)."""
        ...

    async def post(self, channel_id: int, content: str, ping: list[int]) -> None:
        """Post a public line in a channel, pinging these people only."""
        ...

    def server_name(self, guild_id: int | None) -> str:
        """The name of a server, as the bot knows it."""
        ...

    def game_name(self, language: str, game: str) -> str:
        """The name of a game (by its id) in a language."""
        ...


class NotificationService(BackgroundLoop, GameListener):
    """Keeps each person's /notify choices and the DM each waited-for person is due; sends them in the background."""

    task_name = "turn-dms"

    def __init__(
        self,
        store: NotificationStore,
        games: GameService,
        shown: ShownGames,
        messenger: Messenger,
        *,
        clock: Callable[[], float] = time.time,
        max_sleep: float = 60.0,
    ) -> None:
        super().__init__()
        self.store = store
        self.games = games
        self.shown = shown
        self.messenger = messenger
        self.clock = clock
        self.max_sleep = max_sleep
        self._prefs: dict[int, NotifyPrefs] = {}
        self._prefs_read_at = -math.inf
        self._waits: dict[int, dict[int, DmWait]] = {}
        """Game id → user id → its wait: what the store holds, kept here so a move reads nothing."""
        self._loaded: asyncio.Task[None] | None = None
        self._sending = asyncio.Lock()
        """One round of sending at a time (the loop's, or a test's call)."""
        self._telling: set[asyncio.Task[None]] = set()
        """Watchers being told of a game's end (off the path of the move that ended it)."""

    # ---- each person's choices ----------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> NotifyPrefs:
        """A person's choices (the defaults when they never chose: no DMs, a channel ping)."""
        await self._load()
        return self._prefs.get(user_id) or NotifyPrefs(user_id)

    async def choose(self, user_id: int, language: str, **changes: Any) -> NotifyPrefs:
        """Change a person's choices; any change means DMs are tried again, even if Discord refused one before."""
        before = await self.prefs(user_id)
        after = replace(before, language=language, dms_closed=False, closed_told=False, **changes)
        await self.store.put_prefs(after)
        self._prefs[user_id] = after
        return after

    async def pinged(self, record: GameRecord) -> list[int]:
        """The people of a game a new turn message may ping: those who did not switch the channel ping off."""
        await self._load()
        people = [s.user_id for s in record.seats if s.user_id is not None]
        return [user_id for user_id in people if user_id not in self._prefs or self._prefs[user_id].ping]

    async def closed_untold(self, user_id: int) -> NotifyPrefs | None:
        """A person's choices if Discord refused their DMs and they were not told yet; then they count as told."""
        prefs = await self.prefs(user_id)
        if not prefs.dms_closed or prefs.closed_told:
            return None
        told = replace(prefs, closed_told=True)
        await self.store.put_prefs(told)
        self._prefs[user_id] = told
        return prefs

    # ---- whose invitations each person refuses ------------------------------------------------------------

    async def refusals(self, guild_id: int, user_id: int) -> Refusals:
        """Whose invitations to games a person refuses on a server (read from the store each time: they are rare)."""
        return await self.store.refusals(guild_id, user_id)

    async def refuse_everyone(self, guild_id: int, user_id: int, refused: bool) -> Refusals:
        """Refuse (or take again) everyone's invitations on a server; the inviters refused one by one stay so."""
        after = replace(await self.refusals(guild_id, user_id), everyone=refused)
        await self.store.put_refusals(guild_id, user_id, after)
        return after

    async def refuse_inviters(self, guild_id: int, user_id: int, inviters: Iterable[int]) -> Refusals:
        """Refuse exactly these inviters' invitations on a server (at most `MAX_REFUSED`; the rest are dropped)."""
        chosen = frozenset(sorted(set(inviters) - {user_id})[:MAX_REFUSED])
        after = replace(await self.refusals(guild_id, user_id), inviters=chosen)
        await self.store.put_refusals(guild_id, user_id, after)
        return after

    async def refuse_inviter(self, guild_id: int, user_id: int, inviter_id: int) -> Refusals:
        """Add one inviter to those whose invitations a person refuses on a server (none past `MAX_REFUSED`)."""
        before = await self.refusals(guild_id, user_id)
        if inviter_id in before.inviters or len(before.inviters) >= MAX_REFUSED:
            return before
        return await self.refuse_inviters(guild_id, user_id, before.inviters | {inviter_id})

    # ---- what the game service tells us -------------------------------------------------------------------

    async def on_started(self, record: GameRecord) -> None:
        """Start the waits of whoever must act first."""
        await self._sync(record, self.games.state(record.id), actor=None)

    async def on_moved(self, outcome: Outcome) -> None:
        """A move ends the waits of those no longer waited for and starts those of the newly waited for; the mover,
        if they act on, is due no DM this turn; a finished game tells its watchers."""
        if outcome.finished:
            await self._ended(outcome.record)
            return
        if outcome.record.status != "active":
            return
        actor = None if outcome.by_bot else next(s.user_id for s in outcome.record.seats if s.seat == outcome.seat)
        await self._sync(outcome.record, outcome.state, actor=actor)

    async def on_closed(self, record: GameRecord) -> None:
        """A game ended early waits for nobody; its watchers are told."""
        await self._ended(record)

    async def _sync(self, record: GameRecord, state: Any, *, actor: int | None) -> None:
        await self._load()
        game_id = record.id
        to_act = set(self.games.engine(record.game).to_act(state))
        waiting = {s.user_id for s in record.seats if s.seat in to_act and s.user_id is not None}
        existing = self._waits.get(game_id, {})
        drop = [user_id for user_id in existing if user_id not in waiting]
        now, put = self.clock(), []
        for user_id in sorted(waiting):
            prefs = self._prefs.get(user_id)
            if prefs is None or not prefs.wants_dm:
                continue
            if user_id == actor:  # acting on in their own turn: nothing is due until a new turn of theirs starts
                if existing.get(user_id, DmWait(game_id, user_id, 0.0)).due_at is not None:
                    put.append(DmWait(game_id, user_id, None))
            elif user_id not in existing:
                put.append(DmWait(game_id, user_id, now + prefs.delay_minutes * 60))
        await self._change(game_id, drop=drop, put=put)

    async def _ended(self, record: GameRecord) -> None:
        self._waits.pop(record.id, None)
        watchers = await self.store.end_game(record.id)
        if watchers and record.status != "cancelled":
            task = asyncio.create_task(self._tell_watchers(record, watchers), name=f"watchers-{record.id}")
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

    # ---- /watch and /mygames ------------------------------------------------------------------------------

    async def toggle_watch(self, record: GameRecord, user_id: int, language: str) -> bool:
        """Start watching a running game, or stop; whether the person watches it now."""
        if await self.store.watching(record.id, user_id):
            await self.store.unwatch(record.id, user_id)
            return False
        await self.store.watch(Watcher(record.id, user_id, language))
        return True

    async def waiting_on(self, guild_id: int | None, user_id: int) -> list[tuple[GameRecord, str]]:
        """Every running game of a server waiting on a person (their turn or their choice), with a link to it."""
        found = []
        for record in self.games.running():
            seat = record.seat_of(user_id)
            if record.guild_id != guild_id or seat is None:
                continue
            if seat in self.games.engine(record.game).to_act(self.games.state(record.id)):
                found.append((record, await self.link(record)))
        return found

    async def link(self, record: GameRecord, kinds: Iterable[str] = ("turn", "opening")) -> str:
        """A link to a game's newest message of the first of `kinds` it has, else to its channel."""
        for kind in kinds:
            where = await self.shown.message(record.id, kind)
            if where is not None:
                return jump_link(record.guild_id, *where)
        return jump_link(record.guild_id, record.channel_id)

    # ---- sending ------------------------------------------------------------------------------------------

    async def run_due(self) -> int:
        """Send every DM due by the clock now (first reading everyone's choices again, when due); return how many
        were sent."""
        await self._load()
        if self.clock() - self._prefs_read_at >= PREFS_REFRESH:
            self._prefs_read_at = self.clock()
            self._prefs = await self.store.all_prefs()
        sent = 0
        async with self._sending:
            for wait in self._due(self.clock()):
                if self.shown.behind(wait.game_id):
                    continue  # its turn message is not posted yet: next round
                if self._closing:
                    break
                try:
                    sent += await self._send_turn(wait)
                except Exception:  # one person's trouble must not stop everyone's DMs
                    log.exception("the turn DM of game %s to %s failed; trying again later", wait.game_id, wait.user_id)
                    await self._change(wait.game_id, put=[replace(wait, due_at=self.clock() + RETRY_SECONDS)])
        return sent

    async def _send_turn(self, wait: DmWait) -> bool:
        if self._waits.get(wait.game_id, {}).get(wait.user_id) != wait:
            return False  # the person moved, or the game ended, since it was read
        try:
            record = await self.games.get(wait.game_id)
        except ServiceError:
            await self._change(wait.game_id, drop=[wait.user_id])
            return False
        prefs = self._prefs.get(wait.user_id)
        await self._change(wait.game_id, put=[replace(wait, due_at=None)])  # at most once, whatever happens next
        if prefs is None or not prefs.wants_dm:
            return False
        key = "notify.dm.turn_late" if prefs.delay_minutes else "notify.dm.turn"
        content = self._about(prefs.language, key, record, await self.link(record), minutes=prefs.delay_minutes)
        if await self.messenger.dm(wait.user_id, content):
            return True
        log.info("user %s does not accept DMs; none are tried until they change /notify", wait.user_id)
        closed = replace(prefs, dms_closed=True, closed_told=False)
        await self.store.put_prefs(closed)
        self._prefs[wait.user_id] = closed
        return False

    async def _tell_watchers(self, record: GameRecord, watchers: list[Watcher]) -> None:
        """DM each watcher that the game ended, with a link to its final message; those whose DMs are closed are
        pinged in one line where the game was played."""
        link = await self.link(record, ("final",))
        key = "notify.watch.ended" if record.status == "finished" else "notify.watch.abandoned"
        unreachable = []
        for watcher in watchers:
            content = self._about(watcher.language, key, record, link)
            try:
                if not await self.messenger.dm(watcher.user_id, content):
                    unreachable.append(watcher.user_id)
            except Exception:
                log.exception("could not tell watcher %s that game %s ended", watcher.user_id, record.id)
        if unreachable:
            language = watchers[0].language
            mentions = " ".join(f"<@{user_id}>" for user_id in unreachable)
            line = text(language, "notify.watch.in_channel", watchers=mentions, id=record.id, link=link)
            try:
                await self.messenger.post(record.channel_id, line, unreachable)
            except Exception:
                log.exception("could not tell the watchers of game %s in its channel", record.id)

    def _about(self, language: str, key: str, record: GameRecord, link: str, **params: Any) -> str:
        """A DM about a game: the text of `key`, told which game, where, and the link."""
        return text(
            language,
            key,
            game=self.messenger.game_name(language, record.game),
            id=record.id,
            server=self.messenger.server_name(record.guild_id),
            channel=f"<#{record.channel_id}>",
            link=link,
            **params,
        )

    # ---- the background loop ------------------------------------------------------------------------------

    async def seconds_to_next(self) -> float:
        """Until the next DM falls due (at most `max_sleep`, so a clock moved by hand is noticed)."""
        await self._load()
        now = self.clock()
        if any(self.shown.behind(wait.game_id) for wait in self._due(now)):
            return UNSHOWN_RETRY
        due = [w.due_at for waits in self._waits.values() for w in waits.values() if w.due_at is not None]
        return min(max(min(due, default=math.inf) - now, 0.0), self.max_sleep)

    async def before_first_round(self) -> None:
        """At start, start the waits of running games that lack them (a crash between a move and this listener)."""
        for record in self.games.running():
            try:
                await self._sync(record, self.games.state(record.id), actor=None)
            except Exception:
                log.exception("could not start the DM waits of game %s", record.id)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop the loop after the round in hand, and let watchers being told be told."""
        await super().close(timeout)
        if self._telling:
            await asyncio.wait(set(self._telling), timeout=timeout)

    # ---- what is kept in memory ---------------------------------------------------------------------------

    async def _load(self) -> None:
        """Read every choice and wait from the store, once (concurrent callers wait for the same read)."""
        if self._loaded is None:
            self._loaded = asyncio.ensure_future(self._read_all())
        await asyncio.shield(self._loaded)

    async def _read_all(self) -> None:
        """Keep everyone's choices, and the waits of the games this process drives (other processes send the rest)."""
        self._prefs_read_at = self.clock()
        self._prefs = await self.store.all_prefs()
        mine = {record.id for record in self.games.running()}
        for wait in await self.store.all_waits():
            if wait.game_id in mine:
                self._waits.setdefault(wait.game_id, {})[wait.user_id] = wait

    def _due(self, now: float) -> list[DmWait]:
        """Every wait whose DM is due at `now`, the earliest first."""
        due = [w for waits in self._waits.values() for w in waits.values() if w.due_at is not None and w.due_at <= now]
        return sorted(due, key=lambda w: (w.due_at or 0.0, w.game_id, w.user_id))

    async def _change(self, game_id: int, *, drop: Iterable[int] = (), put: Iterable[DmWait] = ()) -> None:
        """Store a change of a game's waits, then keep it, and wake the loop for a DM due now."""
        drop, put = list(drop), list(put)
        if not drop and not put:
            return
        await self.store.change_waits(game_id, drop=drop, put=put)
        waits = self._waits.setdefault(game_id, {})
        for user_id in drop:
            waits.pop(user_id, None)
        for wait in put:
            waits[wait.user_id] = wait
        if not waits:
            del self._waits[game_id]
        if any(wait.due_at is not None for wait in put):
            self.poke()


class InvitationRecords(Protocol):
    """The invitations into lobbies as the lobby's commands keep them; the notifications' store fulfils it."""

    async def invitations(self, game_id: int) -> list[Invitation]:
        """Everyone invited into a lobby, by user id."""

    async def invite(self, invitation: Invitation, *, again: bool = False) -> bool:
        """Record an invitation; False when the person was invited into that lobby already (nothing changed),
        unless `again`: then the new inviter is kept and a decline forgotten."""

    async def decline(self, game_id: int, user_id: int) -> Invitation | None:
        """Mark a person's invitation into a lobby declined; it, or None when they were not invited."""
