"""The bot players: a driver task per game plays its bot seats' moves, and an absent person's, and hints are
worked out, each thought about off the game's lock (every click is answered meanwhile) and applied by the move core.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.services.errors import ServiceError, ServiceReason
from bot.services.games import LiveTable, Outcome
from bot.services.moves import Moves
from bot.services.thinking import HintRefused, Thinker
from bot.storage.games import GameRecord
from rules.engine import Hint, Level, Seat

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Advice:
    """A hint given: the game as it was thought about, whose seat asked, and what the hard player would do."""

    record: GameRecord
    state: BaseModel
    seat: Seat
    hint: Hint[Any]


class BotPlayers:
    """Plays the bot seats of every running game, moves for absent people, and gives hints."""

    def __init__(self, moves: Moves, *, bot_move_delay: float = 1.5, thinker: Thinker | None = None) -> None:
        self.moves = moves
        self.games = moves.games
        self.thinker = thinker or Thinker()
        self.bot_move_delay = bot_move_delay
        self._closing = False
        self._drivers: set[asyncio.Task[None]] = set()
        self._thinking: set[asyncio.Task[Any]] = set()
        """Tasks waiting for a bot's thought: nothing is half done in them, so closing cancels them at once."""
        moves.wake_bots = self.wake_bots

    def wake_bots(self, game_id: int) -> None:
        """Make sure the bot players of a game move if it is their turn (one driver task per game)."""
        table = self.games.live.get(game_id)
        if self._closing or table is None or (table.bots is not None and not table.bots.done()):
            return
        if table.state is None or table.record.status != "active" or not self._bot_seats_to_act(table):
            return
        table.bots = asyncio.create_task(self._drive_bots(table), name=f"bots-{game_id}")
        self._drivers.add(table.bots)
        table.bots.add_done_callback(self._drivers.discard)

    async def play_bot_move(self, game_id: int) -> Outcome | None:
        """Apply one bot player's move if a bot is to act (None if none is); the outcome is not published."""
        table = await self.games.table(game_id)

        def next_bot() -> tuple[Seat, str] | None:
            seats = self._bot_seats_to_act(table)
            if table.state is None or table.record.status != "active" or not seats:
                return None
            seat = min(seats)
            return seat, next(s.bot_kind for s in table.record.seats if s.seat == seat) or Level.NORMAL

        return await self._think_and_play(table, next_bot, "bot")

    async def play_for(self, game_id: int, seat: Seat, level: str = Level.NORMAL) -> Outcome | None:
        """Play one move for an absent person with a bot player of `level` (not published; bots not woken);
        None when that seat is not to act."""
        table = await self.games.table(game_id)

        def absent() -> tuple[Seat, str] | None:
            if table.state is None or table.record.status != "active" or seat not in table.engine.to_act(table.state):
                return None
            return seat, level

        return await self._think_and_play(table, absent, "absent")

    async def hint(self, game_id: int, user_id: int) -> Advice:
        """What the hard player would do for this person now, thought about off the game's lock, and counted for
        their seat; refused to a non-player, out of turn, once the game is not running, or while the thinking
        workers have too much of such work waiting (this person's, this game's or everyone's)."""
        table = await self.games.table(game_id)
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
                    table.record = await self.games.store.count_hint(table.record, seat)
                    return Advice(table.record, state, seat, hint)

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
                    return await self.moves.apply(table, seat, action, by_bot=True)

    async def _thought(self, thinking: Awaitable[T]) -> T:
        """Await a thought, known meanwhile as a task that closing may cancel at once."""
        task = asyncio.current_task()
        if task is not None:
            self._thinking.add(task)
        try:
            return await thinking
        finally:
            self._thinking.discard(task)

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
            await self.games.publish(outcome)

    def _bot_seats_to_act(self, table: LiveTable) -> set[Seat]:
        if table.state is None or table.record.id in self.games.paused:
            return set()
        bots = {s.seat for s in table.record.seats if s.is_bot}
        return set(table.engine.to_act(table.state)) & bots

    async def close(self, timeout: float = 5.0) -> None:
        """Stop bot players after the move each is making, so nothing is half published; then cancel."""
        self._closing = True
        for thinking in set(self._thinking):  # a bot still thinking has done nothing yet: the next start thinks again
            thinking.cancel()
        if self._drivers:
            _, pending = await asyncio.wait(set(self._drivers), timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
