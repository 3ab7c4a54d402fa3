"""Bot players' moves and /hint's advice worked out in worker processes, never on the event loop.

A bot's thinking is CPU-bound Python (a search up to the per-move budget): in a thread it would hold the GIL the
event loop needs, so it runs in the thinking workers (bot/workers.py), a game always routed to the same one. A worker
that dies fails the request it held: it is asked once more of a fresh worker, and after a second death (or when the
engine cannot play that level) the `normal` level plays the move in a thread, and that is logged. A thought still
running long past its budget (`hung_after`) ends its worker, which counts as that worker dying. Whatever runs in a
worker travels there pickled: the engine, the state and plain values, to a module-level function.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import random
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.workers import WorkerPool
from rules.engine import DEFAULT_BUDGET, Action, Budget, GameEngine, Hint, Level, Seat

T = TypeVar("T")
log = logging.getLogger(__name__)

AnyEngine = GameEngine[Any, Any, Any]
TRIES = 2
"""A request whose worker died is asked of a fresh worker once more."""


def hung_after(budget: Budget) -> float:
    """Seconds of running after which a thought is taken to be hung: its budget is CPU time, and a busy machine
    stretches CPU time into more wall time, so this is generous."""
    return 10 * budget.seconds + 20


class WorkerDied(Exception):
    """Every worker asked to think about a request died while doing so."""


def choose_move(engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, kind: str, seconds: float) -> Action:
    """In a worker: the move a bot player of `kind` makes in `seat` (deterministic for the seed text)."""
    return engine.bot_action(state, seat, random.Random(seed), kind, Budget(seconds))


def give_hint(engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, seconds: float) -> Hint[Any]:
    """In a worker: what the hard player would do in `seat`, and why."""
    return engine.hint(state, seat, random.Random(seed), Budget(seconds))


POOL = WorkerPool("thinking", 1)
"""The process's thinking workers, shared by every bot it runs (like the picture workers)."""


@atexit.register
def stop_thinking() -> None:
    """Stop the thinking workers (at exit)."""
    POOL.shutdown()


class Thinker:
    """Bot moves and hints for the game service, each within the per-move budget, in the thinking workers.

    `move` and `advice` are the module-level functions the workers run; a test may put others there (a thought
    it holds until it lets go), still run by the real workers.
    """

    def __init__(self, budget: Budget = DEFAULT_BUDGET, pool: WorkerPool = POOL) -> None:
        self.budget = budget
        self.pool = pool
        self.hung_after = hung_after(budget)
        self.move: Callable[..., Action] = choose_move
        self.advice: Callable[..., Hint[Any]] = give_hint

    async def choose(self, route: int, engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, kind: str) -> Action:
        """A bot player's move; the `normal` level's, worked out in a thread, when thinking failed."""
        try:
            return await self._think(route, self.move, engine, state, seat, seed, kind, self.budget.seconds)
        except WorkerDied:
            log.warning("game %s: thinking workers died twice; the normal level plays seat %s", route, seat)
        except Exception:
            log.warning(
                "game %s: the %s level failed; the normal level plays seat %s", route, kind, seat, exc_info=True
            )
        return await asyncio.to_thread(engine.bot_action, state, seat, random.Random(seed), Level.NORMAL, self.budget)

    async def hint(self, route: int, engine: AnyEngine, state: BaseModel, seat: Seat, seed: str) -> Hint[Any]:
        """What the hard player would do; raises WorkerDied (or what the engine raised) when that failed."""
        return await self._think(route, self.advice, engine, state, seat, seed, self.budget.seconds)

    async def _think(self, route: int, think: Callable[..., T], *args: Any) -> T:
        for attempt in range(1, TRIES + 1):
            try:
                return await asyncio.wrap_future(self.pool.submit(route, think, *args, limit=self.hung_after))
            except BrokenProcessPool:
                log.warning("game %s: a thinking worker died (try %d of %d)", route, attempt, TRIES)
        raise WorkerDied(route)


def warm() -> None:
    """A thinking worker's first job: what every game's bot players build once (the dice game's race tables)."""
    from bot.games import GAMES

    for info in GAMES.values():
        info.engine.warm()


def start_thinking(workers: int) -> None:
    """Start the process's thinking workers (`workers` of them), each warmed, and wait until they run."""
    POOL.first = warm
    POOL.resize(workers)
    POOL.start()
