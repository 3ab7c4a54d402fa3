"""The game service: every live game in memory, and every move of it: load, apply, persist, then tell the world.

Lobbies are opened, filled and started by the lobby service (lobby.py) on the games held here.

One asyncio lock per game serialises its changes, so two clicks never interleave. Every change bumps the game's
version; a component carries the version it was drawn for, and a click on an older one is refused as stale.

A move is one write to the database: its action, snapshot and version, what the listeners keep with it (the turn
timers) and what the channel was last seen to show (message ids, the version shown), in one transaction. What is
shown is written behind: with the game's next move, or within `FLUSH_DELAY` by itself, so a crash can lose the last
moment of it; the channel then shows those moves once more when the bot is back, and never misses one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.services.errors import ServiceError, ServiceReason
from bot.services.thinking import HintRefused, Thinker
from bot.shards import EVERY_SHARD, ShardSet
from bot.storage.database import Statement, StoreLock, now_iso
from bot.storage.games import GameRecord, GameStore, SeatRecord, StaleVersion
from rules.engine import Action, Event, GameEngine, Hint, IllegalAction, Level, Message, Seat

log = logging.getLogger(__name__)
T = TypeVar("T")

AnyEngine = GameEngine[Any, Any, Any]
OPEN = ("lobby", "active")
FLUSH_DELAY = 0.5
"""Seconds within which what the channels were seen to show is written, when no move of the game writes it first."""


@dataclass(frozen=True)
class Outcome:
    """An accepted move: the game after it, who moved, what they did and what happened."""

    record: GameRecord
    state: BaseModel
    seat: Seat
    action: Action
    events: list[Event]
    by_bot: bool = False

    @property
    def finished(self) -> bool:
        """Whether this move ended the game."""
        return self.record.status == "finished"


@dataclass(frozen=True)
class TakeBack:
    """A person's last move as it may be taken back: its number in the log, and the game's version then."""

    seq: int
    version: int


@dataclass(frozen=True)
class Advice:
    """A hint given: the game as it was thought about, whose seat asked, and what the hard player would do."""

    record: GameRecord
    state: BaseModel
    seat: Seat
    hint: Hint[Any]


@dataclass(frozen=True)
class MoveWrite:
    """What a listener stores with a move, in the move's own transaction, and what it then keeps in memory."""

    statements: Sequence[Statement]
    stored: Callable[[], None] = lambda: None
    """Called once the move is stored (never when the write failed)."""


class GameListener:
    """How the service tells the world: the games' controllers, the turn timers, the game threads listen."""

    async def with_move(self, outcome: Outcome) -> MoveWrite | None:
        """What to store with a move about to be written (`outcome` as it will be once stored); nothing by default."""
        return None

    async def on_started(self, record: GameRecord) -> None:
        """A lobby became a running game."""

    async def on_moved(self, outcome: Outcome) -> None:
        """A move was applied and shown (the game may have finished with it)."""

    async def on_closed(self, record: GameRecord) -> None:
        """A game was cancelled or ended early, and that was shown."""

    async def on_unclicked_move(self, outcome: Outcome) -> None:
        """A move nobody clicked for (a bot player's, or one played for an absent person) is to be shown: the
        controller of its game shows it (dealing with its own failures); nothing by default."""

    async def elsewhere(self, channel_id: int, user_id: int | None, game: str | None) -> Message | None:
        """Where a game asked for in a channel without it is played instead, as a pointer for the person; or None."""
        return None


@dataclass
class LiveTable:
    """A running game in memory: its record, engine and current state, with its lock."""

    record: GameRecord
    engine: AnyEngine
    state: BaseModel | None = None
    actions: int = 0
    """How many actions its log holds (the next one is number `actions + 1`)."""
    lock: asyncio.Lock = field(default_factory=StoreLock)
    """Held across its writes: waiting for it is waiting on the store."""
    bots: asyncio.Task[None] | None = None


def _settle(engine: AnyEngine, state: BaseModel, seat: Seat, action: Action) -> tuple[BaseModel, list[Event]]:
    """Apply a move (raising IllegalAction untouched); at the game's end also reckon its result, the costly part
    (the engines cache it), so showing the end does not compute it on the event loop."""
    after, events = engine.apply(state, seat, action)
    if engine.is_over(after):
        engine.result(after)
    return after, events


class GameService:
    """Owns every live game; the cogs call it and present what it returns."""

    def __init__(
        self,
        store: GameStore,
        engines: Mapping[str, AnyEngine],
        *,
        bot_move_delay: float = 1.5,
        shards: ShardSet = EVERY_SHARD,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.thinker = thinker or Thinker()
        self.shards = shards
        self.engines = dict(engines)
        self.bot_move_delay = bot_move_delay
        self._tables: dict[int, LiveTable] = {}
        self._closing = False
        self._drivers: set[asyncio.Task[None]] = set()
        self._thinking: set[asyncio.Task[Any]] = set()
        """Tasks waiting for a bot's thought: nothing is half done in them, so closing cancels them at once."""
        self._checks: set[asyncio.Task[None]] = set()
        """Background checks of loaded snapshots against their logs."""
        self._one_check = asyncio.Semaphore(1)
        """Checks replay one at a time, so a start with many games stored leaves the event loop room for clicks."""
        self._listeners: list[GameListener] = []
        self._shown: dict[int, int] = {}
        """Game id → the newest version its channel shows (running games; persisted in the store too)."""
        self._messages: dict[int, dict[str, tuple[int, int]]] = {}
        """Game id → kind → (channel id, message id) of its messages (open games, and closed ones until written)."""
        self._unwritten: dict[int, dict[tuple[str, str], Statement]] = {}
        """Game id → what its channel was seen to show and is not stored yet (the newest of each kind)."""
        self._flushing: asyncio.Task[None] | None = None
        self.flush_delay = FLUSH_DELAY
        self._paused: set[int] = set()
        self._taken_back: set[int] = set()
        """Games whose last move was taken back since the channel last caught up (it says so when it does)."""
        """Running games paused by a vote: no moves, no bot players (the consent service keeps them stored)."""

    # ---- lookup -------------------------------------------------------------------------------------------

    def engine(self, game: str) -> AnyEngine:
        """Return the engine of a game id."""
        return self.engines[game]

    def drives(self, record: GameRecord) -> bool:
        """Whether this process drives the game (it is on one of its shards)."""
        return self.shards.owns(record.guild_id)

    def running(self) -> list[GameRecord]:
        """The running games this process drives, oldest first."""
        return sorted((t.record for t in self._tables.values() if t.record.status == "active"), key=lambda r: r.id)

    async def get(self, game_id: int) -> GameRecord:
        """Return a live game's record, loading it if needed; refuse unknown or closed games."""
        return (await self.table(game_id)).record

    def state(self, game_id: int) -> BaseModel:
        """Return the current engine state of a running game already loaded."""
        state = self._tables[game_id].state
        if state is None:
            raise ServiceError(ServiceReason.NOT_STARTED)
        return state

    async def game_in_channel(
        self, channel_id: int, game: str | None = None, *, user_id: int | None = None
    ) -> GameRecord:
        """Return the newest open game of a channel (of one kind, if given), or refuse, pointing to where it is.

        Every open game is loaded (at start, or when opened), so memory answers without a database read: commands
        under load must not queue behind the database before they are acknowledged.
        """
        here = [
            t.record for t in self._tables.values() if t.record.channel_id == channel_id and t.record.status in OPEN
        ]
        for record in sorted(here, key=lambda r: -r.id):
            if game is None or record.game == game:
                return record
        for listener in self._listeners:
            pointer = await listener.elsewhere(channel_id, user_id, game)
            if pointer is not None:
                raise ServiceError(pointer)
        raise ServiceError(ServiceReason.NO_GAME_HERE)

    def view(self, game_id: int, seat: Seat | None) -> BaseModel:
        """Return the engine view of a running game for a seat, or the public view for None."""
        table = self._tables[game_id]
        return table.engine.view(self.state(game_id), seat)

    # ---- what the channel shows ---------------------------------------------------------------------------

    def shown(self, game_id: int) -> int:
        """The newest version of a game its channel shows (0 when nothing was shown yet)."""
        return self._shown.get(game_id, 0)

    def behind(self, game_id: int) -> bool:
        """Whether a running game loaded here has a stored move its channel does not show yet."""
        table = self._tables.get(game_id)
        return table is not None and table.record.status == "active" and self.shown(game_id) < table.record.version

    def behind_in(self, channel_id: int) -> list[int]:
        """The running games of a channel (or thread) with a stored move the channel does not show yet."""
        return [
            game_id for game_id, t in self._tables.items() if t.record.channel_id == channel_id and self.behind(game_id)
        ]

    def unplayed(self, game_id: int) -> bool:
        """Whether a running game is as it was dealt, nobody having moved yet: a channel catching up on it missed
        only its start, and is shown it as Start shows it."""
        table = self._tables.get(game_id)
        return table is not None and table.record.status == "active" and table.actions == 0

    def catch_up_reason(self, game_id: int) -> str:
        """The message key a channel catching up on this game says why with: a move taken back, or missed moves."""
        if game_id in self._taken_back:
            self._taken_back.discard(game_id)
            return "bot.catch_up.taken_back"
        return "bot.catch_up.shown"

    def mark_shown(self, game_id: int, version: int) -> None:
        """Record that the channel now shows this version of the game (never lowers it; written behind)."""
        if version <= self.shown(game_id):
            return
        self._write_behind(game_id, ("shown", ""), self.store.shown_statement(game_id, version))
        if game_id in self._tables:
            self._shown[game_id] = version
        else:  # the game is over and its end is shown: nothing left to track
            self._shown.pop(game_id, None)

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """(channel id, message id) of a game's message of a kind ('lobby', 'turn', …), or None."""
        known = self._messages.get(game_id, {}).get(kind)
        if known is not None:
            return known
        found = await self.store.get_message(game_id, kind)
        if found is not None and game_id in self._tables:
            self._messages.setdefault(game_id, {}).setdefault(kind, found)
        return found

    def remember_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Keep which message is a game's message of a kind (written behind, like what is shown)."""
        self._messages.setdefault(game_id, {})[kind] = (channel_id, message_id)
        self._write_behind(
            game_id, ("message", kind), self.store.message_statement(game_id, kind, channel_id, message_id)
        )

    def _write_behind(self, game_id: int, key: tuple[str, str], statement: Statement) -> None:
        """Keep a statement for the game's next move, or for the flush within `flush_delay`."""
        self._unwritten.setdefault(game_id, {})[key] = statement
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush_soon(), name="write-shown")

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.flush_delay)
        while not await self.flush() and not self._closing:
            await asyncio.sleep(self.flush_delay * 10)  # the database refused: try again, not in a tight loop

    async def flush(self) -> bool:
        """Write everything the channels were seen to show and is not stored yet, in one transaction; whether it
        was written (on failure it is kept for the next try)."""
        unwritten, self._unwritten = self._unwritten, {}
        statements = [statement for kinds in unwritten.values() for statement in kinds.values()]
        if not statements:
            return True
        try:
            await self.store.database.write(statements)
        except Exception:
            log.exception("could not store what the channels of %d games show; trying again", len(unwritten))
            for game_id, kinds in unwritten.items():  # the newer ones kept meanwhile win
                self._unwritten[game_id] = kinds | self._unwritten.get(game_id, {})
            return False
        for game_id in unwritten:
            self._tidy(game_id)
        return True

    async def pass_host(self, game_id: int, user_id: int, *, seat: int | None = None) -> GameRecord:
        """Pass the host role of a running game from `user_id` (who left their `seat`) to the next person in seat
        order after that seat; unchanged when they are not the host or no other person is seated."""
        table = await self.table(game_id)
        async with table.lock:
            record = table.record
            if record.status != "active":
                raise ServiceError(ServiceReason.NOT_RUNNING)
            if record.host_id != user_id:
                return record
            after = seat if seat is not None else record.seat_of(user_id)
            people = sorted(
                (s for s in record.seats if s.user_id is not None and s.user_id != user_id), key=lambda s: s.seat
            )
            if not people:
                return record
            heir = next((s for s in people if after is not None and s.seat > after), people[0])
            assert heir.user_id is not None
            try:
                table.record = await self._keeping_shown(table, self.store.set_host(record, heir.user_id))
            except StaleVersion:
                log.exception("game %s changed under its lock; reloading it", record.id)
                self._forget(record.id)
                raise ServiceError(ServiceReason.STALE) from None
            return table.record

    # ---- play ---------------------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: Action, version: int | None = None) -> Outcome:
        """Apply a person's move: refused if stale, not theirs or illegal; persisted (as its `encode()` text in the
        log) before it is returned."""
        table = await self.table(game_id)
        async with table.lock:
            record = table.record
            seat = _seat_in_play(table, user_id)
            if version is not None and version != record.version:
                raise ServiceError(ServiceReason.STALE)
            if game_id in self._paused:
                raise ServiceError(ServiceReason.GAME_PAUSED)
            outcome = await self._apply(table, seat, action, by_bot=False)
        self.wake_bots(game_id)
        return outcome

    async def take_back(self, game_id: int, user_id: int) -> TakeBack:
        """The move this person may ask to take back now: the game's last, theirs, nothing since, and one that
        revealed nothing (the engine's `undo_refusal`); else refused with the reason."""
        table = await self.table(game_id)
        async with table.lock:
            last, _ = await self._last_move(table, user_id)
            return last

    async def undo(self, game_id: int, user_id: int, seq: int, version: int) -> GameRecord:
        """Take back move `seq` by consent: refused unless it is still the game's last and the game has not changed
        since `version`; the state is the log replayed without it, stored with the move marked undone."""
        table = await self.table(game_id)
        async with table.lock:
            if table.record.version != version:
                raise ServiceError(ServiceReason.MOVED_ON)
            last, before = await self._last_move(table, user_id)
            if last.seq != seq:
                raise ServiceError(ServiceReason.MOVED_ON)
            try:
                table.record = await self.store.rewind(table.record, seq, before.model_dump_json())
            except StaleVersion:
                log.exception("game %s changed under its lock; reloading it", game_id)
                self._forget(game_id)
                raise ServiceError(ServiceReason.STALE) from None
            table.state = before
            self._taken_back.add(game_id)
            return table.record

    async def _last_move(self, table: LiveTable, user_id: int) -> tuple[TakeBack, BaseModel]:
        """The person's last move and the state before it, when that move may be taken back; else refused."""
        record = table.record
        seat = _seat_in_play(table, user_id)
        last = await self.store.last_action(record.id)
        if last is None or last[1] != seat:
            raise ServiceError(ServiceReason.NOT_YOUR_LAST)
        engine = table.engine
        options = engine.load_options(record.options)
        log_entries = await self.store.actions(record.id)
        before = await asyncio.to_thread(engine.replay, options, len(record.seats), record.seed, log_entries[:-1])
        action = engine.parse_action(last[2])
        refusal = await asyncio.to_thread(engine.undo_refusal, before, seat, action)
        if refusal is not None:
            raise ServiceError(refusal)
        return TakeBack(last[0], record.version), before

    def paused(self, game_id: int) -> bool:
        """Whether a running game is paused by a vote."""
        return game_id in self._paused

    def set_paused(self, game_id: int, paused: bool) -> None:
        """Pause a game (its moves refused, its bot players idle) or resume it (waking its bot players)."""
        if paused:
            self._paused.add(game_id)
        else:
            self._paused.discard(game_id)
            self.wake_bots(game_id)

    async def play_for(self, game_id: int, seat: Seat, level: str = Level.NORMAL) -> Outcome | None:
        """Play one move for an absent person with a bot player of `level` (not published; bots not woken);
        None when that seat is not to act."""
        table = await self.table(game_id)

        def absent() -> tuple[Seat, str] | None:
            if table.state is None or table.record.status != "active" or seat not in table.engine.to_act(table.state):
                return None
            return seat, level

        return await self._think_and_play(table, absent, "absent")

    async def hint(self, game_id: int, user_id: int) -> Advice:
        """What the hard player would do for this person now, thought about off the game's lock, and counted for
        their seat; refused to a non-player, out of turn, once the game is not running, or while the thinking
        workers have too much of such work waiting (this person's, this game's or everyone's)."""
        table = await self.table(game_id)
        while True:
            async with table.lock:
                record, state = table.record, table.state
                if record.status != "active" or state is None:
                    raise ServiceError(ServiceReason.NOT_RUNNING)
                seat = record.seat_of(user_id)
                if seat is None:
                    raise ServiceError(ServiceReason.NOT_A_PLAYER)
                if seat not in table.engine.to_act(state):
                    raise ServiceError(ServiceReason.NOT_YOUR_MOVE)
            seed = f"{record.seed}/hint/{record.version}/{seat}"
            thinking = self.thinker.hint(
                game_id, table.engine, state, seat, seed, version=record.version, person=user_id
            )
            try:
                hint = await self._thought(thinking)
            except HintRefused as refused:
                raise ServiceError(refused.reason) from None
            except Exception:
                log.warning("game %s: no hint could be worked out for seat %s", game_id, seat, exc_info=True)
                raise ServiceError(ServiceReason.HINT_FAILED) from None
            async with table.lock:
                if table.record.version == record.version:  # else the game moved on meanwhile: think again
                    table.record = await self.store.count_hint(table.record, seat)
                    return Advice(table.record, state, seat, hint)

    async def hand_to_bot(self, game_id: int, seat: Seat, level: str = Level.NORMAL) -> GameRecord:
        """Give a running game's seat to a bot player of `level` for the rest of the game (bots not woken)."""
        table = await self.table(game_id)
        async with table.lock:
            if table.record.status != "active":
                raise ServiceError(ServiceReason.NOT_RUNNING)
            current = next(s for s in table.record.seats if s.seat == seat)
            if not current.is_bot:
                replacement = SeatRecord(
                    seat=seat, name=current.name, bot_kind=str(level), hints=current.hints, left_user_id=current.user_id
                )
                table.record = await self._keeping_shown(table, self.store.replace_seat(table.record, replacement))
            return table.record

    async def _keeping_shown(self, table: LiveTable, write: Awaitable[GameRecord]) -> GameRecord:
        """Apply a change that is no move (a seat or the host handed on): a channel that showed the game before it
        still does, so the change is not mistaken for a move the channel missed."""
        current = self.shown(table.record.id) >= table.record.version
        record = await write
        if current:
            self.mark_shown(record.id, record.version)
        return record

    async def end(self, game_id: int) -> GameRecord:
        """End an open game early: a lobby is cancelled, a running game is recorded as abandoned."""
        table = await self.table(game_id)
        async with table.lock:
            status = "cancelled" if table.record.status == "lobby" else "abandoned"
            table.record = await self.store.set_status(table.record, status)
            if table.bots is not None and not table.bots.done():  # its driver looks the game up once more
                table.bots.add_done_callback(lambda _: self._forget(game_id))
            else:
                self._forget(game_id)
            return table.record

    def add_listener(self, listener: GameListener) -> None:
        """Have a listener told about games (started, moved, closed, moves to show) and asked where they are."""
        self._listeners.append(listener)

    def remove_listener(self, listener: GameListener) -> None:
        """Undo `add_listener` (cog unload)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def after_start(self, record: GameRecord) -> None:
        """Tell listeners that a lobby became a running game."""
        await self._tell(lambda listener: listener.on_started(record))

    async def after_move(self, outcome: Outcome) -> None:
        """Tell listeners about a move once it is shown (whoever showed it calls this)."""
        await self._tell(lambda listener: listener.on_moved(outcome))

    async def after_close(self, record: GameRecord) -> None:
        """Tell listeners that a game was cancelled or ended early, once that is shown."""
        await self._tell(lambda listener: listener.on_closed(record))

    async def publish(self, outcome: Outcome) -> None:
        """Have a move nobody clicked for shown (by the controller of its game), then tell listeners it moved."""
        await self._tell(lambda listener: listener.on_unclicked_move(outcome))
        await self.after_move(outcome)

    async def _tell(self, call: Callable[[GameListener], Awaitable[None]]) -> None:
        for listener in self._listeners:
            try:
                await call(listener)
            except Exception:
                log.exception("a game listener failed: %r", listener)

    def wake_bots(self, game_id: int) -> None:
        """Make sure the bot players of a game move if it is their turn (one driver task per game)."""
        table = self._tables.get(game_id)
        if self._closing or table is None or (table.bots is not None and not table.bots.done()):
            return
        if table.state is None or table.record.status != "active" or not self._bot_seats_to_act(table):
            return
        table.bots = asyncio.create_task(self._drive_bots(table), name=f"bots-{game_id}")
        self._drivers.add(table.bots)
        table.bots.add_done_callback(self._drivers.discard)

    async def play_bot_move(self, game_id: int) -> Outcome | None:
        """Apply one bot player's move if a bot is to act (None if none is); the outcome is not published."""
        table = await self.table(game_id)

        def next_bot() -> tuple[Seat, str] | None:
            seats = self._bot_seats_to_act(table)
            if table.state is None or table.record.status != "active" or not seats:
                return None
            seat = min(seats)
            return seat, next(s.bot_kind for s in table.record.seats if s.seat == seat) or Level.NORMAL

        return await self._think_and_play(table, next_bot, "bot")

    async def _think_and_play(
        self, table: LiveTable, who: Callable[[], tuple[Seat, str] | None], label: str
    ) -> Outcome | None:
        """Take the state and version under the game's lock, think without it (every click is answered meanwhile),
        then apply the move under it if the game is still at that version; else think again about the new one.

        `who` (called under the lock) names the seat to play and its bot kind, or None when there is nothing to do.
        """
        while True:
            async with table.lock:
                chosen = who()
                if chosen is None:
                    return None
                seat, kind = chosen
                record, state = table.record, table.state
                assert state is not None, "who() names a seat only in a running game"
            seed = f"{record.seed}/{label}/{record.version}"
            thinking = self.thinker.choose(record.id, table.engine, state, seat, seed, kind, version=record.version)
            action = await self._thought(thinking)
            async with table.lock:
                if table.record.version == record.version and table.record.status == "active":
                    return await self._apply(table, seat, action, by_bot=True)

    async def _thought(self, thinking: Awaitable[T]) -> T:
        """Await a thought, known meanwhile as a task that closing may cancel at once."""
        task = asyncio.current_task()
        if task is not None:
            self._thinking.add(task)
        try:
            return await thinking
        finally:
            self._thinking.discard(task)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop bot players after the move each is making, so nothing is half published; then cancel; then write
        what the channels show, and that this was a clean stop (unless some snapshot is still unchecked)."""
        self._closing = True
        all_checked = not self._checks
        for thinking in set(self._thinking):  # a bot still thinking has done nothing yet: the next start thinks again
            thinking.cancel()
        for check in set(self._checks):
            check.cancel()
        await asyncio.gather(*set(self._checks), return_exceptions=True)
        if self._drivers:
            _, pending = await asyncio.wait(set(self._drivers), timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        if self._flushing is not None:
            self._flushing.cancel()
            await asyncio.gather(self._flushing, return_exceptions=True)
        await self.flush()
        if all_checked:
            try:
                await self.store.stopped_cleanly(self.shards, now_iso())
            except Exception:
                log.warning(
                    "could not record the clean stop: the next start checks every game's snapshot", exc_info=True
                )

    async def _drive_bots(self, table: LiveTable) -> None:
        while self._bot_seats_to_act(table) and table.record.status == "active":
            await asyncio.sleep(self.bot_move_delay)
            if self._closing:
                return
            try:
                outcome = await self.play_bot_move(table.record.id)
            except Exception:
                log.exception("bot player failed in game %s", table.record.id)
                return
            if outcome is None:
                return
            await self.publish(outcome)

    def _bot_seats_to_act(self, table: LiveTable) -> set[Seat]:
        if table.state is None or table.record.id in self._paused:
            return set()
        bots = {s.seat for s in table.record.seats if s.is_bot}
        return set(table.engine.to_act(table.state)) & bots

    async def _apply(self, table: LiveTable, seat: Seat, action: Action, *, by_bot: bool) -> Outcome:
        assert table.state is not None
        # in a worker thread, so one game's costly move (the final scoring) never holds up another game's click
        state, events = await asyncio.to_thread(_settle, table.engine, table.state, seat, action)
        before, snapshot = table.record, state.model_dump_json()
        status = "finished" if table.engine.is_over(state) else before.status
        after = replace(before, status=status, version=before.version + 1, state=snapshot)
        outcome = Outcome(record=after, state=state, seat=seat, action=action, events=events, by_bot=by_bot)
        writes = [write for listener in self._listeners if (write := await listener.with_move(outcome))]
        shown = self._unwritten.pop(before.id, {})
        try:
            table.record = await self.store.record_action(
                before,
                seat,
                action.encode(),
                snapshot,
                finished=outcome.finished,
                seq=table.actions + 1,
                also=[*shown.values(), *(s for write in writes for s in write.statements)],
            )
        except BaseException as error:
            self._unwritten[before.id] = shown | self._unwritten.get(before.id, {})
            if not isinstance(error, StaleVersion):
                raise
            log.exception("game %s changed under its lock; reloading it", before.id)
            self._forget(before.id)
            raise ServiceError(ServiceReason.STALE) from None
        table.state = state
        table.actions += 1
        for write in writes:
            write.stored()
        if outcome.finished:  # what the channel shows is kept until the end is shown (mark_shown drops it then)
            self._tables.pop(before.id, None)
        return outcome

    # ---- loading ------------------------------------------------------------------------------------------

    async def resume_all(self) -> list[GameRecord]:
        """Load every open game this process drives from its stored snapshot (at start: no replay before the bot is
        ready); the snapshots a crash could have left half written (those of games written since the last clean
        stop) are then checked against a replay of their logs in the background (`snapshots_checked`)."""
        records = [record for record in await self.store.with_status() if self.drives(record)]
        counts = await self.store.action_counts()
        unsure = await self.store.written_since_clean_stop(self.shards)
        for record in records:
            self._adopt(record, counts.get(record.id, 0), check=unsure is None or record.id in unsure)
        return [self._tables[r.id].record for r in records if r.id in self._tables]

    async def snapshots_checked(self) -> None:
        """Wait until every loaded snapshot has been checked against its log."""
        while self._checks:
            await asyncio.gather(*set(self._checks), return_exceptions=True)

    async def table(self, game_id: int) -> LiveTable:
        """A live game in memory, loaded if needed; refused when unknown, closed or another process's."""
        table = self._tables.get(game_id)
        if table is not None:
            return table
        record = await self.store.get(game_id)
        if record is None or record.status not in ("lobby", "active") or not self.drives(record):
            raise ServiceError(ServiceReason.GAME_CLOSED)
        count = (await self.store.action_counts(game_id)).get(game_id, 0)
        return self._tables.get(game_id) or self._adopt(record, count)

    def keep_lobby(self, record: GameRecord) -> None:
        """Keep a lobby just opened in memory."""
        self._tables[record.id] = LiveTable(record=record, engine=self.engine(record.game))

    def unload(self, game_id: int) -> None:
        """Drop a cancelled lobby from memory (its messages stay known until written)."""
        del self._tables[game_id]

    def _adopt(self, record: GameRecord, actions: int, *, check: bool = True) -> LiveTable:
        """Keep a game loaded from the store, a running one at its snapshot (which the first `actions` of its log
        made), and check that snapshot in the background unless it is known to be whole."""
        engine = self.engine(record.game)
        table = LiveTable(record=record, engine=engine, actions=actions)
        if record.status == "active":
            assert record.state is not None
            table.state = engine.load_state(record.state)
        if record.status == "active" and check:
            task = asyncio.create_task(self._check_snapshot(table, actions), name=f"check-snapshot-{record.id}")
            self._checks.add(task)
            task.add_done_callback(self._checks.discard)
        self._tables[record.id] = table
        self._shown[record.id] = max(self._shown.get(record.id, 0), record.shown_version)
        return table

    def _forget(self, game_id: int) -> None:
        """Drop a game that closed from memory."""
        self._tables.pop(game_id, None)
        self._shown.pop(game_id, None)
        self._taken_back.discard(game_id)
        self._tidy(game_id)

    def _tidy(self, game_id: int) -> None:
        """Drop the message ids of a closed game once they are written (the store answers from then on)."""
        if game_id not in self._tables and game_id not in self._unwritten:
            self._messages.pop(game_id, None)

    async def _check_snapshot(self, table: LiveTable, actions: int) -> None:
        """Replay the log that made a loaded snapshot (off the event loop) and compare: the log is the truth, so a
        differing snapshot is reported loudly, and replaced while no move has been made from it."""
        record, snapshot, engine = table.record, table.state, table.engine
        options = engine.load_options(record.options)
        async with self._one_check:
            log_entries = await self.store.actions(record.id, upto=actions)
            try:
                replayed = await asyncio.to_thread(engine.replay, options, len(record.seats), record.seed, log_entries)
            except Exception:
                log.exception("game %s: its log does not replay; playing on from the snapshot", record.id)
                return
        if replayed == snapshot:
            return
        async with table.lock:
            if table.record.version == record.version and self._tables.get(record.id) is table:
                log.error("game %s: replay of the log differs from the snapshot; playing on from the log", record.id)
                table.state = replayed
            else:
                log.error("game %s: replay of the log differs from the snapshot it has moved on from", record.id)


def _seat_in_play(table: LiveTable, user_id: int) -> Seat:
    """The seat this person plays in a running game; refused when the game is not running or they do not play."""
    if table.record.status != "active" or table.state is None:
        raise ServiceError(ServiceReason.NOT_RUNNING)
    seat = table.record.seat_of(user_id)
    if seat is None:
        raise ServiceError(ServiceReason.NOT_A_PLAYER)
    return seat


__all__ = ["Advice", "GameListener", "GameService", "IllegalAction", "Outcome", "TakeBack"]
