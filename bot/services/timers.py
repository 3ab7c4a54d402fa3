"""Turn timers and absent players, for every game through the engine contract.

Each person the game waits for gets a timer: a reminder after a delay, then, after a longer one, the game's policy:
a bot player plays that turn for them (at the server's AFK level), or the game waits for them. After several
timed-out turns in a row their seat is handed to a bot player for good. Timers live in SQLite, so one that fell due
while the bot was down fires after the restart; a move by the person cancels theirs. The clock is injected: tests
move it and call `run_due()`, and nothing waits on the real clock but the background loop.

The timers and missed turns of every open game are kept in memory too (read from the store once): a move's timers
are worked out without reading the database and stored in the move's own transaction (`with_move`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot.i18n import escaped
from bot.services.background import BackgroundLoop
from bot.services.bot_players import BotPlayers
from bot.services.errors import ServiceError
from bot.services.games import GameListener, GameService, MoveWrite, Outcome
from bot.services.guild_config import AfkPolicy, TimerPolicy
from bot.services.moves import Moves
from bot.storage.games import GameRecord
from bot.storage.timers import TimerStore, TurnTimer
from rules.engine import Level, Message, Seat

log = logging.getLogger(__name__)

Announcer = Callable[[GameRecord, Message, int | None], Awaitable[None]]
"""Post a public notice where a game is played, pinging the given user id (or nobody)."""
AfkLevel = Callable[[int | None], Awaitable[str]]
"""A server's (guild id's) level of the bot player that plays for absent people (the server setting)."""

RETRY_SECONDS = 300.0
"""When firing a timer failed (Discord refused a message, say), try again this much later."""
MAX_STILL_WAITING = 3
"""With the pause policy, how many times "still waiting for …" is said in one wait. After that the game waits
silently until the player acts or an admin ends it (or, when missed turns hand the seat over, until then): a
player who is away for a week is not pinged every few minutes of it."""
WAIT_SILENTLY = math.inf
"""The due time of a paused wait that has said all it may: it never fires, and a move by the player replaces it."""
MAX_MOVES_FOR_ABSENT = 200
"""A bound on the moves played for one absent person in one go (a turn is a handful; this only stops a runaway)."""


class TimerService(BackgroundLoop, GameListener):
    """Arms, cancels and fires turn timers; listens to the game service for starts, moves and closes."""

    task_name = "turn-timers"

    def __init__(
        self,
        store: TimerStore,
        games: GameService,
        moves: Moves,
        bots: BotPlayers,
        *,
        clock: Callable[[], float] = time.time,
        announce: Announcer | None = None,
        max_sleep: float = 60.0,
        afk_level: AfkLevel | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.games = games
        self.moves = moves
        self.bots = bots
        self.clock = clock
        self.announce: Announcer = announce or _say_nothing
        self.afk_level: AfkLevel = afk_level or _normal
        self.max_sleep = max_sleep
        self._policies: dict[int, TimerPolicy] = {}
        self._playing_for: dict[int, set[Seat]] = {}
        self._firing = asyncio.Lock()
        self._timers: dict[int, dict[Seat, TurnTimer]] = {}
        """Game id → seat → its running timer: what the store holds, kept here so a move reads nothing."""
        self._missed: dict[int, dict[Seat, int]] = {}
        """Game id → seat → turns in a row that timed out (only non-zero counts)."""
        self._loaded: asyncio.Task[None] | None = None
        self._wake_at = math.inf
        """When the background loop means to look next: a timer due earlier pokes it."""

    # ---- policies -----------------------------------------------------------------------------------------

    async def adopt(self, game_id: int, policy: TimerPolicy) -> None:
        """Fix a new game's timer policy (the server's, or the host's override), so later changes leave it be."""
        await self.store.set_policy(game_id, policy.model_dump(mode="json"))
        self._policies[game_id] = policy

    async def policy(self, game_id: int) -> TimerPolicy:
        """The timer policy of a game (the defaults for a game opened before policies were kept)."""
        if game_id not in self._policies:
            stored = await self.store.policy(game_id)
            self._policies[game_id] = TimerPolicy() if stored is None else TimerPolicy.model_validate(stored)
        return self._policies[game_id]

    # ---- what the game service tells us -------------------------------------------------------------------

    async def on_started(self, record: GameRecord) -> None:
        """Arm the timers of whoever must act first."""
        await self.sync(record.id)

    async def with_move(self, outcome: Outcome) -> MoveWrite:
        """A person's move cancels their timer and clears their missed turns; everyone now waited for gets one:
        worked out from memory and stored with the move."""
        await self._load()
        game_id = outcome.record.id
        if outcome.finished:
            return MoveWrite(self.store.clear_statements(game_id), lambda: self._drop_game(game_id))
        acted = None if outcome.by_bot else outcome.seat
        statements = []
        if acted is not None and self._missed.get(game_id, {}).get(acted):
            statements += self.store.missed_statements(game_id, acted, 0)
        drop, arm = await self._plan(outcome.record, outcome.state, acted)
        statements += self.store.change_statements(game_id, drop=drop, put=arm)

        def stored() -> None:
            if acted is not None:
                self._set_missed(game_id, acted, 0)
            self._keep(game_id, drop, arm)

        return MoveWrite(statements, stored)

    async def on_closed(self, record: GameRecord) -> None:
        """A game that ended early waits for nobody."""
        await self._forget(record.id)

    async def sync(self, game_id: int, *, acted: Seat | None = None) -> None:
        """Match the timers to who is to act: drop the others' (and the actor's), arm the missing ones."""
        try:
            record = await self.games.get(game_id)
        except ServiceError:
            await self._forget(game_id)
            return
        if record.status != "active":
            await self._forget(game_id)
            return
        drop, arm = await self._plan(record, self.games.state(game_id), acted)
        await self._change(game_id, drop=drop, put=arm)

    async def _plan(self, record: GameRecord, state: Any, acted: Seat | None) -> tuple[set[Seat], list[TurnTimer]]:
        """The timers to drop and to arm so that exactly the people the game now waits for have one."""
        await self._load()
        game_id = record.id
        waiting = self._waiting_for(record, state) - self._playing_for.get(game_id, set())
        existing = self._timers.get(game_id, {})
        drop = {seat for seat in existing if seat not in waiting or seat == acted}
        policy = await self.policy(game_id)
        now = self.clock()
        arm = [
            timer
            for seat in sorted(waiting)
            if seat not in existing or seat in drop
            if (timer := _first_stage(game_id, seat, policy, now)) is not None
        ]
        return drop, arm

    # ---- firing -------------------------------------------------------------------------------------------

    async def run_due(self) -> int:
        """Fire every timer due by the clock now (one at a time); return how many fired."""
        fired = 0
        async with self._firing:
            for _ in range(10):  # a reminder and the timeout both due after a long downtime: a second pass
                due = self._due(self.clock())
                if not due or self._closing:
                    break
                for timer in due:
                    if self._closing:
                        break
                    try:
                        if await self._fire(timer):
                            fired += 1
                    except Exception:  # one game's trouble (say, a channel gone) must not stop everyone's timers
                        if await self._closed(timer.game_id):  # e.g. its place is gone and the game was closed
                            log.info("turn timer of game %s stopped: the game is closed", timer.game_id)
                            await self._forget(timer.game_id)
                            continue
                        log.exception("turn timer of game %s seat %s failed; retrying later", timer.game_id, timer.seat)
                        retry = _stage(timer, timer.stage, self.clock() + RETRY_SECONDS)
                        await self._change(timer.game_id, put=[retry])
        return fired

    async def _fire(self, timer: TurnTimer) -> bool:
        if self._timers.get(timer.game_id, {}).get(timer.seat) != timer:
            return False  # cancelled or moved on since it was read
        try:
            record = await self.games.get(timer.game_id)
        except ServiceError:
            await self._forget(timer.game_id)
            return False
        if record.status != "active" or timer.seat not in self._waiting_for(record, self.games.state(record.id)):
            await self._change(timer.game_id, drop=[timer.seat])
            return False
        policy = await self.policy(timer.game_id)
        if timer.stage == "reminder":
            await self._remind(record, timer, policy)
        elif timer.stage == "timeout":
            await self._time_out(record, timer, policy)
        else:
            await self._still_absent(record, timer, policy)
        return True

    async def _remind(self, record: GameRecord, timer: TurnTimer, policy: TimerPolicy) -> None:
        user_id = _user_of(record, timer.seat)
        if policy.timeout_minutes:
            then = timer.started_at + policy.timeout_minutes * 60
            await self._change(record.id, put=[_stage(timer, "timeout", then)])
        else:
            await self._change(record.id, drop=[timer.seat])
        notice = Message(
            key="admin.notice.reminder",
            params={"seat": timer.seat, "player": f"<@{user_id}>", "id": record.id, "minutes": policy.reminder_minutes},
        )
        await self.announce(record, notice, user_id)

    async def _time_out(self, record: GameRecord, timer: TurnTimer, policy: TimerPolicy) -> None:
        missed = await self._count_miss(record.id, timer.seat)
        if policy.missed_limit and missed >= policy.missed_limit:
            await self._change(record.id, drop=[timer.seat])
            notice = Message(key="admin.notice.handed_over", params={"seat": timer.seat, "missed": missed})
            await self.hand_over(record.id, timer.seat, notice)
            return
        params = {"seat": timer.seat, "minutes": policy.timeout_minutes, "missed": missed, "limit": policy.missed_limit}
        if policy.on_timeout is AfkPolicy.PAUSE:
            await self._change(record.id, put=[_stage(timer, "paused", self.clock() + policy.timeout_minutes * 60)])
            await self.announce(record, _counted("admin.notice.paused", params), None)
            return
        await self._change(record.id, drop=[timer.seat])
        await self.announce(record, _counted("admin.notice.played_for", params), None)
        await self._play_turn_for(record.id, timer.seat)

    async def _still_absent(self, record: GameRecord, timer: TurnTimer, policy: TimerPolicy) -> None:
        missed = await self._count_miss(record.id, timer.seat)
        if policy.missed_limit and missed >= policy.missed_limit:
            await self._change(record.id, drop=[timer.seat])
            notice = Message(key="admin.notice.handed_over", params={"seat": timer.seat, "missed": missed})
            await self.hand_over(record.id, timer.seat, notice)
            return
        ping = missed - 1  # the pause itself was said at the first miss; this is "still waiting" number `ping`
        due = self.clock() + policy.timeout_minutes * 60
        if not policy.missed_limit and ping >= MAX_STILL_WAITING:
            due = WAIT_SILENTLY  # said for the last time: nothing more will happen until the player acts
        await self._change(record.id, put=[_stage(timer, "paused", due)])
        if ping > MAX_STILL_WAITING:
            return  # counting on towards the hand-over, silently
        user_id = _user_of(record, timer.seat)
        params = {"seat": timer.seat, "player": f"<@{user_id}>", "missed": missed, "limit": policy.missed_limit}
        await self.announce(record, _counted("admin.notice.still_waiting", params), user_id)

    async def _count_miss(self, game_id: int, seat: Seat) -> int:
        missed = self._missed.get(game_id, {}).get(seat, 0) + 1
        await self.store.set_missed(game_id, seat, missed)
        self._set_missed(game_id, seat, missed)
        return missed

    async def _play_turn_for(self, game_id: int, seat: Seat) -> None:
        """Play the absent person's moves with a bot player of the server's AFK level until the game stops waiting
        for them."""
        self._playing_for.setdefault(game_id, set()).add(seat)
        try:
            level = await self.afk_level((await self.games.get(game_id)).guild_id)
            for _ in range(MAX_MOVES_FOR_ABSENT):
                outcome = await self.bots.play_for(game_id, seat, level)
                if outcome is None:
                    break
                await self.games.publish(outcome)
                if outcome.finished:
                    return
                if seat not in self.games.engine(outcome.record.game).to_act(outcome.state):
                    break
        finally:
            self._playing_for.get(game_id, set()).discard(seat)
        self.bots.wake_bots(game_id)
        await self.sync(game_id)

    # ---- seats handed to bots -----------------------------------------------------------------------------

    async def hand_over(self, game_id: int, seat: Seat, notice: Message) -> GameRecord:
        """Give a person's seat to a bot player (of the server's AFK level) for good, saying why; with no person left
        the game is abandoned."""
        level = await self.afk_level((await self.games.get(game_id)).guild_id)
        record = await self.moves.hand_to_bot(game_id, seat, level)
        await self.store.set_missed(game_id, seat, 0)
        self._set_missed(game_id, seat, 0)
        name = escaped(next(s.name for s in record.seats if s.seat == seat))  # the person's, not the bot's 🤖 one
        await self.announce(record, Message(key=notice.key, params={**notice.params, "player": name}), None)
        if not any(s.user_id is not None for s in record.seats):
            ended = await self.moves.end(game_id)
            await self.announce(ended, Message(key="admin.notice.nobody_left", params={"id": game_id}), None)
            await self.games.after_close(ended)
            return ended
        self.bots.wake_bots(game_id)
        await self.sync(game_id)
        return record

    # ---- the background loop ------------------------------------------------------------------------------

    async def seconds_to_next(self) -> float:
        """Until the next timer falls due (at most `max_sleep`, so a clock moved by hand is noticed)."""
        await self._load()
        next_due = min((t.due_at for timers in self._timers.values() for t in timers.values()), default=math.inf)
        now = self.clock()
        wait = min(max(next_due - now, 0.0), self.max_sleep)
        self._wake_at = now + wait
        return wait

    async def before_first_round(self) -> None:
        """At start, arm timers for running games that lack them (a crash between a move and its listeners)."""
        for record in self.games.running():
            try:
                await self.sync(record.id)
            except Exception:
                log.exception("could not arm the timers of game %s", record.id)

    def _waiting_for(self, record: GameRecord, state: Any) -> set[Seat]:
        """The seats of people (not bot players) the game waits for in this state: none while a vote paused it."""
        if self.moves.paused(record.id):
            return set()
        people = {s.seat for s in record.seats if s.user_id is not None}
        return set(self.games.engine(record.game).to_act(state)) & people

    async def _closed(self, game_id: int) -> bool:
        """Whether a game is no longer open (ended, or closed because its channel or thread is gone)."""
        try:
            record = await self.games.store.get(game_id)
        except Exception:
            log.exception("could not look up game %s", game_id)
            return False
        return record is None or record.status not in ("lobby", "active")

    # ---- what is kept in memory ---------------------------------------------------------------------------

    async def _load(self) -> None:
        """Read every timer and missed turn from the store, once (concurrent callers wait for the same read)."""
        if self._loaded is None:
            self._loaded = asyncio.ensure_future(self._read_all())
        await asyncio.shield(self._loaded)

    async def _read_all(self) -> None:
        """Keep the timers and missed turns of the games this process drives (other processes fire the rest)."""
        mine = {record.id for record in self.games.running()}
        for timer in await self.store.all_timers():
            if timer.game_id in mine:
                self._timers.setdefault(timer.game_id, {})[timer.seat] = timer
        for (game_id, seat), missed in (await self.store.all_missed()).items():
            if game_id in mine:
                self._missed.setdefault(game_id, {})[seat] = missed

    def _due(self, now: float) -> list[TurnTimer]:
        """Every timer due at `now`, the earliest first."""
        due = [t for timers in self._timers.values() for t in timers.values() if t.due_at <= now]
        return sorted(due, key=lambda t: (t.due_at, t.game_id, t.seat))

    async def _change(self, game_id: int, *, drop: Iterable[Seat] = (), put: Iterable[TurnTimer] = ()) -> None:
        """Store a change of a game's timers, then keep it."""
        drop, put = set(drop), list(put)
        if not drop and not put:
            return
        await self._load()
        await self.store.change(game_id, drop=drop, put=put)
        self._keep(game_id, drop, put)

    def _keep(self, game_id: int, drop: set[Seat], put: list[TurnTimer]) -> None:
        """Keep a stored change of a game's timers, and wake the loop if one is due before it means to look."""
        timers = self._timers.setdefault(game_id, {})
        for seat in drop:
            timers.pop(seat, None)
        for timer in put:
            timers[timer.seat] = timer
        if not timers:
            del self._timers[game_id]
        if any(timer.due_at < self._wake_at for timer in put):
            self.poke()

    def _set_missed(self, game_id: int, seat: Seat, missed: int) -> None:
        counts = self._missed.setdefault(game_id, {})
        if missed:
            counts[seat] = missed
        else:
            counts.pop(seat, None)
        if not counts:
            del self._missed[game_id]

    async def _forget(self, game_id: int) -> None:
        await self.store.clear(game_id)
        self._drop_game(game_id)

    def _drop_game(self, game_id: int) -> None:
        """Keep nothing of a game that ended."""
        self._policies.pop(game_id, None)
        self._playing_for.pop(game_id, None)
        self._timers.pop(game_id, None)
        self._missed.pop(game_id, None)


def _first_stage(game_id: int, seat: Seat, policy: TimerPolicy, now: float) -> TurnTimer | None:
    """A fresh wait: the reminder if there is one, else the timeout, else nothing."""
    if policy.reminder_minutes:
        return TurnTimer(game_id, seat, "reminder", now, now + policy.reminder_minutes * 60)
    if policy.timeout_minutes:
        return TurnTimer(game_id, seat, "timeout", now, now + policy.timeout_minutes * 60)
    return None


def _stage(timer: TurnTimer, stage: str, due_at: float) -> TurnTimer:
    return TurnTimer(timer.game_id, timer.seat, stage, timer.started_at, due_at)  # type: ignore[arg-type]


def _counted(key: str, params: dict[str, Any]) -> Message:
    """A timeout notice, with "missed n of limit" when turns missed hand the seat over, without when they never do."""
    suffix = "" if params.get("limit") else "_uncounted"
    return Message(key=key + suffix, params=dict(params))


def _user_of(record: GameRecord, seat: Seat) -> int | None:
    return next((s.user_id for s in record.seats if s.seat == seat), None)


async def _normal(guild_id: int | None) -> str:
    """The AFK level of a service told of no server settings (unit tests): normal."""
    return Level.NORMAL.value


async def _say_nothing(record: GameRecord, message: Message, ping: int | None) -> None:
    """The announcer of a service nobody listens to (unit tests that only count timers)."""
