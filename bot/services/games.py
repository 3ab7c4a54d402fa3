"""The loaded games: every open game in memory with what is kept of it, loaded, resumed and checked, and the
listeners the other game services tell the world through.

The lobby service (lobby.py), the move core (moves.py), what the channels show (shown.py) and the bot players
(bot_players.py) all work on the tables held here. One asyncio lock per game (`LiveTable.lock`) serialises its
changes, so two clicks never interleave.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.services.errors import ServiceError, ServiceReason
from bot.shards import EVERY_SHARD, ShardSet
from bot.storage.database import Statement, StoreLock, now_iso
from bot.storage.games import GameRecord, GameStore
from rules.engine import Action, Event, GameEngine, Message, Seat

log = logging.getLogger(__name__)

AnyEngine = GameEngine[Any, Any, Any]
OPEN = ("lobby", "active")


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


class GameService:
    """Owns every loaded game and what is kept of it, and tells the listeners about them."""

    def __init__(self, store: GameStore, engines: Mapping[str, AnyEngine], *, shards: ShardSet = EVERY_SHARD) -> None:
        self.store = store
        self.shards = shards
        self.engines = dict(engines)
        self.live: dict[int, LiveTable] = {}
        """Game id → the open game loaded in memory."""
        self._checks: set[asyncio.Task[None]] = set()
        """Background checks of loaded snapshots against their logs."""
        self._one_check = asyncio.Semaphore(1)
        """Checks replay one at a time, so a start with many games stored leaves the event loop room for clicks."""
        self._listeners: list[GameListener] = []
        self.shown_versions: dict[int, int] = {}
        """Game id → the newest version its channel shows (running games; persisted in the store too)."""
        self.messages: dict[int, dict[str, tuple[int, int]]] = {}
        """Game id → kind → (channel id, message id) of its messages (open games, and closed ones until written)."""
        self.unwritten: dict[int, dict[tuple[str, str], Statement]] = {}
        """Game id → what its channel was seen to show and is not stored yet (the newest of each kind)."""
        self.paused: set[int] = set()
        """Running games paused by a vote: no moves, no bot players (the consent service keeps them stored)."""
        self.taken_back: set[int] = set()
        """Games whose last move was taken back since the channel last caught up (it says so when it does)."""

    # ---- lookup -------------------------------------------------------------------------------------------

    def engine(self, game: str) -> AnyEngine:
        """Return the engine of a game id."""
        return self.engines[game]

    def drives(self, record: GameRecord) -> bool:
        """Whether this process drives the game (it is on one of its shards)."""
        return self.shards.owns(record.guild_id)

    def running(self) -> list[GameRecord]:
        """The running games this process drives, oldest first."""
        return sorted((t.record for t in self.live.values() if t.record.status == "active"), key=lambda r: r.id)

    async def get(self, game_id: int) -> GameRecord:
        """Return a live game's record, loading it if needed; refuse unknown or closed games."""
        return (await self.table(game_id)).record

    def state(self, game_id: int) -> BaseModel:
        """Return the current engine state of a running game already loaded."""
        state = self.live[game_id].state
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
        here = [t.record for t in self.live.values() if t.record.channel_id == channel_id and t.record.status in OPEN]
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
        table = self.live[game_id]
        return table.engine.view(self.state(game_id), seat)

    def add_listener(self, listener: GameListener) -> None:
        """Have a listener told about games (started, moved, closed, moves to show) and asked where they are."""
        self._listeners.append(listener)

    def remove_listener(self, listener: GameListener) -> None:
        """Undo `add_listener` (cog unload)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def writes_with(self, outcome: Outcome) -> list[MoveWrite]:
        """What the listeners store with a move about to be written."""
        return [write for listener in self._listeners if (write := await listener.with_move(outcome))]

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
        return [self.live[r.id].record for r in records if r.id in self.live]

    async def snapshots_checked(self) -> None:
        """Wait until every loaded snapshot has been checked against its log."""
        while self._checks:
            await asyncio.gather(*set(self._checks), return_exceptions=True)

    async def table(self, game_id: int) -> LiveTable:
        """A live game in memory, loaded if needed; refused when unknown, closed or another process's."""
        table = self.live.get(game_id)
        if table is not None:
            return table
        record = await self.store.get(game_id)
        if record is None or record.status not in ("lobby", "active") or not self.drives(record):
            raise ServiceError(ServiceReason.GAME_CLOSED)
        count = (await self.store.action_counts(game_id)).get(game_id, 0)
        return self.live.get(game_id) or self._adopt(record, count)

    def keep_lobby(self, record: GameRecord) -> None:
        """Keep a lobby just opened in memory."""
        self.live[record.id] = LiveTable(record=record, engine=self.engine(record.game))

    def unload(self, game_id: int) -> None:
        """Drop a cancelled lobby from memory (its messages stay known until written)."""
        del self.live[game_id]

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
        self.live[record.id] = table
        self.shown_versions[record.id] = max(self.shown_versions.get(record.id, 0), record.shown_version)
        return table

    def forget(self, game_id: int) -> None:
        """Drop a game that closed from memory."""
        self.live.pop(game_id, None)
        self.shown_versions.pop(game_id, None)
        self.taken_back.discard(game_id)
        self.tidy(game_id)

    def tidy(self, game_id: int) -> None:
        """Drop the message ids of a closed game once they are written (the store answers from then on)."""
        if game_id not in self.live and game_id not in self.unwritten:
            self.messages.pop(game_id, None)

    async def close(self) -> None:
        """Stop checking snapshots, then record that this was a clean stop (unless some snapshot is still unchecked);
        called once the bot players are stopped and what the channels show is written."""
        all_checked = not self._checks
        for check in set(self._checks):
            check.cancel()
        await asyncio.gather(*set(self._checks), return_exceptions=True)
        if all_checked:
            try:
                await self.store.stopped_cleanly(self.shards, now_iso())
            except Exception:
                log.warning(
                    "could not record the clean stop: the next start checks every game's snapshot", exc_info=True
                )

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
            if table.record.version == record.version and self.live.get(record.id) is table:
                log.error("game %s: replay of the log differs from the snapshot; playing on from the log", record.id)
                table.state = replayed
            else:
                log.error("game %s: replay of the log differs from the snapshot it has moved on from", record.id)


__all__ = ["GameListener", "GameService", "LiveTable", "MoveWrite", "Outcome"]
