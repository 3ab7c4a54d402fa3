"""The move core: a person's move, taking one back, pausing, handing a seat to a bot player, passing the host role,
ending a game: each checked and applied under the game's lock, stored in one write, then the bot players woken.

Every change bumps the game's version; a component carries the version it was drawn for, and a click on an older one
is refused as stale. A move is one write to the database: its action, snapshot and version, what the listeners keep
with it (the turn timers) and what the channel was last seen to show (shown.py), in one transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from pydantic import BaseModel

from bot.metrics import UNCOUNTED, Metrics
from bot.services.errors import ServiceError, ServiceReason
from bot.services.games import AnyEngine, GameService, LiveTable, Outcome
from bot.services.shown import ShownGames
from bot.storage.games import GameRecord, SeatRecord, StaleVersion
from rules.engine import Action, Event, Level, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TakeBack:
    """A person's last move as it may be taken back: its number in the log, and the game's version then."""

    seq: int
    version: int


class Moves:
    """Applies every change to a running game under its lock; the controllers, votes and timers call it."""

    def __init__(self, games: GameService, shown: ShownGames, *, metrics: Metrics = UNCOUNTED) -> None:
        self.games = games
        self.shown = shown
        self.metrics = metrics
        self.wake_bots: Callable[[int], None] = lambda game_id: None
        """Wakes a game's bot players after a change (the bot players built on this move core set it)."""

    async def act(self, game_id: int, user_id: int, action: Action, version: int | None = None) -> Outcome:
        """Apply a person's move: refused if stale, not theirs or illegal; persisted (as its `encode()` text in the
        log) before it is returned."""
        table = await self.games.table(game_id)
        async with table.lock:
            record = table.record
            seat = _seat_in_play(table, user_id)
            if version is not None and version != record.version:
                raise ServiceError(ServiceReason.STALE)
            if game_id in self.games.paused:
                raise ServiceError(ServiceReason.GAME_PAUSED)
            outcome = await self.apply(table, seat, action, by_bot=False)
        self.wake_bots(game_id)
        return outcome

    async def apply(self, table: LiveTable, seat: Seat, action: Action, *, by_bot: bool) -> Outcome:
        """Apply and store a move the caller checked, under the game's lock it holds; it wakes the bot players after."""
        assert table.state is not None
        # in a worker thread, so one game's costly move (the final scoring) never holds up another game's click
        state, events = await asyncio.to_thread(_settle, table.engine, table.state, seat, action)
        before, snapshot = table.record, state.model_dump_json()
        status = "finished" if table.engine.is_over(state) else before.status
        after = replace(before, status=status, version=before.version + 1, state=snapshot)
        outcome = Outcome(record=after, state=state, seat=seat, action=action, events=events, by_bot=by_bot)
        writes = await self.games.writes_with(outcome)
        shown = self.shown.take_unwritten(before.id)
        try:
            table.record = await self.games.store.record_action(
                before,
                seat,
                action.encode(),
                snapshot,
                finished=outcome.finished,
                seq=table.actions + 1,
                also=[*shown.values(), *(s for write in writes for s in write.statements)],
            )
        except BaseException as error:
            self.shown.put_back(before.id, shown)
            if not isinstance(error, StaleVersion):
                raise
            log.exception("game %s changed under its lock; reloading it", before.id)
            self.games.forget(before.id)
            raise ServiceError(ServiceReason.STALE) from None
        table.state = state
        table.actions += 1
        self.metrics.moved(before.game)
        for write in writes:
            write.stored()
        if outcome.finished:  # what the channel shows is kept until the end is shown (mark_shown drops it then)
            self.games.live.pop(before.id, None)
        return outcome

    async def take_back(self, game_id: int, user_id: int) -> TakeBack:
        """The move this person may ask to take back now: the game's last, theirs, nothing since, and one that
        revealed nothing (the engine's `undo_refusal`); else refused with the reason."""
        table = await self.games.table(game_id)
        async with table.lock:
            last, _ = await self._last_move(table, user_id)
            return last

    async def undo(self, game_id: int, user_id: int, seq: int, version: int) -> GameRecord:
        """Take back move `seq` by consent: refused unless it is still the game's last and the game has not changed
        since `version`; the state is the log replayed without it, stored with the move marked undone."""
        table = await self.games.table(game_id)
        async with table.lock:
            if table.record.version != version:
                raise ServiceError(ServiceReason.MOVED_ON)
            last, before = await self._last_move(table, user_id)
            if last.seq != seq:
                raise ServiceError(ServiceReason.MOVED_ON)
            try:
                table.record = await self.games.store.rewind(table.record, seq, before.model_dump_json())
            except StaleVersion:
                log.exception("game %s changed under its lock; reloading it", game_id)
                self.games.forget(game_id)
                raise ServiceError(ServiceReason.STALE) from None
            table.state = before
            self.games.taken_back.add(game_id)
            return table.record

    async def _last_move(self, table: LiveTable, user_id: int) -> tuple[TakeBack, BaseModel]:
        """The person's last move and the state before it, when that move may be taken back; else refused."""
        record = table.record
        seat = _seat_in_play(table, user_id)
        last = await self.games.store.last_action(record.id)
        if last is None or last[1] != seat:
            raise ServiceError(ServiceReason.NOT_YOUR_LAST)
        engine = table.engine
        options = engine.load_options(record.options)
        log_entries = await self.games.store.actions(record.id)
        before = await asyncio.to_thread(engine.replay, options, len(record.seats), record.seed, log_entries[:-1])
        action = engine.parse_action(last[2])
        refusal = await asyncio.to_thread(engine.undo_refusal, before, seat, action)
        if refusal is not None:
            raise ServiceError(refusal)
        return TakeBack(last[0], record.version), before

    def paused(self, game_id: int) -> bool:
        """Whether a running game is paused by a vote."""
        return game_id in self.games.paused

    def set_paused(self, game_id: int, paused: bool) -> None:
        """Pause a game (its moves refused, its bot players idle) or resume it (waking its bot players)."""
        if paused:
            self.games.paused.add(game_id)
        else:
            self.games.paused.discard(game_id)
            self.wake_bots(game_id)

    async def pass_host(self, game_id: int, user_id: int, *, seat: int | None = None) -> GameRecord:
        """Pass the host role of a running game from `user_id` (who left their `seat`) to the next person in seat
        order after that seat; unchanged when they are not the host or no other person is seated."""
        table = await self.games.table(game_id)
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
                table.record = await self._keeping_shown(table, self.games.store.set_host(record, heir.user_id))
            except StaleVersion:
                log.exception("game %s changed under its lock; reloading it", record.id)
                self.games.forget(record.id)
                raise ServiceError(ServiceReason.STALE) from None
            return table.record

    async def hand_to_bot(self, game_id: int, seat: Seat, level: str = Level.NORMAL) -> GameRecord:
        """Give a running game's seat to a bot player of `level` for the rest of the game (bots not woken)."""
        table = await self.games.table(game_id)
        async with table.lock:
            if table.record.status != "active":
                raise ServiceError(ServiceReason.NOT_RUNNING)
            current = next(s for s in table.record.seats if s.seat == seat)
            if not current.is_bot:
                replacement = SeatRecord(
                    seat=seat, name=current.name, bot_kind=str(level), hints=current.hints, left_user_id=current.user_id
                )
                table.record = await self._keeping_shown(
                    table, self.games.store.replace_seat(table.record, replacement)
                )
            return table.record

    async def _keeping_shown(self, table: LiveTable, write: Awaitable[GameRecord]) -> GameRecord:
        """Apply a change that is no move (a seat or the host handed on): a channel that showed the game before it
        still does, so the change is not mistaken for a move the channel missed."""
        current = self.shown.shown(table.record.id) >= table.record.version
        record = await write
        if current:
            self.shown.mark_shown(record.id, record.version)
        return record

    async def end(self, game_id: int) -> GameRecord:
        """End an open game early: a lobby is cancelled, a running game is recorded as abandoned."""
        table = await self.games.table(game_id)
        async with table.lock:
            status = "cancelled" if table.record.status == "lobby" else "abandoned"
            table.record = await self.games.store.set_status(table.record, status)
            if table.bots is not None and not table.bots.done():  # its driver looks the game up once more
                table.bots.add_done_callback(lambda _: self.games.forget(game_id))
            else:
                self.games.forget(game_id)
            return table.record


def _settle(engine: AnyEngine, state: BaseModel, seat: Seat, action: Action) -> tuple[BaseModel, list[Event]]:
    """Apply a move (raising IllegalAction untouched); at the game's end also reckon its result, the costly part
    (the engines cache it), so showing the end does not compute it on the event loop."""
    after, events = engine.apply(state, seat, action)
    if engine.is_over(after):
        engine.result(after)
    return after, events


def _seat_in_play(table: LiveTable, user_id: int) -> Seat:
    """The seat this person plays in a running game; refused when the game is not running or they do not play."""
    if table.record.status != "active" or table.state is None:
        raise ServiceError(ServiceReason.NOT_RUNNING)
    seat = table.record.seat_of(user_id)
    if seat is None:
        raise ServiceError(ServiceReason.NOT_A_PLAYER)
    return seat
