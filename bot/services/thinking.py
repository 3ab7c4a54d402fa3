"""Bot players' moves and /hint's advice worked out in worker processes, fairly and within bounds.

A bot's thinking is CPU-bound Python (a search up to the per-move budget): in a thread it would hold the GIL the
event loop needs, so it runs in the thinking workers (`POOL`, a queued pool: bot/workers.py), one per core and at
least two, started by their first request or, once the bot is ready, by `start_thinking`. Requests wait in one queue
in this process, and an idle worker takes bot moves (of any game) before hints, so a bot waits at most for the
thoughts already running, never behind another game's hints; among hints, each person's in turn. Hints are bounded:
one in flight per person, `GAME_HINTS` per game, and `HINTS_WAITING` per worker waiting in all; past a bound a hint is
refused at once (`HintRefused`, naming the words that say why). Bot moves are never refused: their seats bound them.

A question (the game, its version, the seat, and the bot's level or "hint") is thought about once: asked again while
in flight, it shares that thought, and a hint's answer is kept (the last `KEPT_HINTS`), so the same hint asked again
is answered without a search.

A worker that dies fails only the request it held: that is asked once more (a fresh worker replaces the dead one),
and after a second death (or when the engine cannot play that level) the `normal` level plays the move in a thread,
and that is logged; a hint fails. A thought that has used `hung_after` CPU seconds ends its worker, which counts as
that worker dying; load on the machine cannot trip it. Whatever runs in a worker travels there pickled: the engine,
the state and plain values, to a module-level function.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.metrics import THINKING_SECONDS
from bot.services.errors import ServiceReason
from bot.workers import QueuedPool, default_workers
from rules.engine import DEFAULT_BUDGET, Action, Budget, GameEngine, Hint, Level, Seat

T = TypeVar("T")
log = logging.getLogger(__name__)

AnyEngine = GameEngine[Any, Any, Any]
TRIES = 2
"""A request whose worker died is asked of a fresh worker once more."""
HINT = "hint"
"""The kind of a hint's question (a bot move's is the bot's level)."""
GAME_HINTS = 3
"""Hints of one game thought about at once, at most (a person has one at a time)."""
HINTS_WAITING = 4
"""Hints that may wait for a thinking worker, per worker, before more are refused."""
KEPT_HINTS = 256
"""Hints whose answers are kept, the most recently asked."""


def hung_after(budget: Budget) -> float:
    """CPU seconds of a worker on one thought after which it is taken to be hung: the budget is CPU time too, so a
    thought within it never comes near this, however busy the machine."""
    return 4 * budget.seconds + 5


class WorkerDied(Exception):
    """Every worker asked to think about a request died while doing so."""


class HintRefused(Exception):
    """A hint not thought about, as a bound on waiting thoughts was reached; `reason` says which."""

    def __init__(self, reason: ServiceReason) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Question:
    """What one thought answers; the same question asked again shares it."""

    game_id: int
    version: int
    seat: Seat
    kind: str
    """The bot's level for a move, HINT for a hint."""


@dataclass
class _Thought:
    """A question being thought about: the task asking the workers, the person a hint is for, how many await it."""

    task: asyncio.Task[Any]
    person: int | None
    awaiting: int = 0


def choose_move(engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, kind: str, seconds: float) -> Action:
    """In a worker: the move a bot player of `kind` makes in `seat` (deterministic for the seed text)."""
    return engine.bot_action(state, seat, random.Random(seed), kind, Budget(seconds))


def give_hint(engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, seconds: float) -> Hint[Any]:
    """In a worker: what the hard player would do in `seat`, and why."""
    return engine.hint(state, seat, random.Random(seed), Budget(seconds))


def warm(engines: Sequence[AnyEngine]) -> None:
    """A thinking worker's first job: what the games' bot players build once (the dice game's race tables)."""
    for engine in engines:
        engine.warm()


POOL = QueuedPool("thinking", default_workers())
"""The process's thinking workers, shared by every bot it runs (like the picture workers)."""


def start_thinking(workers: int, engines: Sequence[AnyEngine]) -> list[Future[int]]:
    """Have `workers` thinking workers and start them in the background, each warming the games' `engines` first
    (call once the bot is ready); the futures end as each has started, for whoever wants to wait."""
    POOL.first = functools.partial(warm, tuple(engines))
    POOL.resize(workers)
    return POOL.start()


@atexit.register
def stop_thinking() -> None:
    """Stop the thinking workers (at exit)."""
    POOL.shutdown()


class Thinker:
    """Bot moves and hints for the game service, each within the per-move budget, in the thinking workers.

    `move` and `advice` are the module-level functions the workers run; a test may put others there (a thought
    it holds until it lets go), still run by the real workers.
    """

    def __init__(self, budget: Budget = DEFAULT_BUDGET, pool: QueuedPool = POOL) -> None:
        self.budget = budget
        self.pool = pool
        self.hung_after = hung_after(budget)
        self.move: Callable[..., Action] = choose_move
        self.advice: Callable[..., Hint[Any]] = give_hint
        self._thoughts: dict[Question, _Thought] = {}
        self._kept: OrderedDict[Question, Hint[Any]] = OrderedDict()

    async def choose(
        self, route: int, engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, kind: str, *, version: int
    ) -> Action:
        """A bot player's move in game `route` at `version`; the `normal` level's, worked out in a thread, when
        thinking failed."""
        question = Question(route, version, seat, kind)
        try:
            return await self._share(question, None, self.move, engine, state, seat, seed, kind, self.budget.seconds)
        except WorkerDied:
            log.warning("game %s: thinking workers died twice; the normal level plays seat %s", route, seat)
        except Exception:
            log.warning(
                "game %s: the %s level failed; the normal level plays seat %s", route, kind, seat, exc_info=True
            )
        return await asyncio.to_thread(engine.bot_action, state, seat, random.Random(seed), Level.NORMAL, self.budget)

    async def hint(
        self, route: int, engine: AnyEngine, state: BaseModel, seat: Seat, seed: str, *, version: int, person: int
    ) -> Hint[Any]:
        """What the hard player would do for `person` in game `route` at `version`, at once when just given; raises
        HintRefused past a bound, WorkerDied (or what the engine raised) when thinking failed."""
        question = Question(route, version, seat, HINT)
        if question in self._kept:
            self._kept.move_to_end(question)
            return self._kept[question]
        if question not in self._thoughts:
            self._check_bounds(question, person)
        return await self._share(question, person, self.advice, engine, state, seat, seed, self.budget.seconds)

    def _check_bounds(self, question: Question, person: int) -> None:
        """Refuse a new hint past a bound: the person's, the game's, or the workers' waiting ones."""
        hints = [(asked, thought) for asked, thought in self._thoughts.items() if asked.kind == HINT]
        if any(thought.person == person for _, thought in hints):
            raise HintRefused(ServiceReason.HINT_PENDING)
        if sum(asked.game_id == question.game_id for asked, _ in hints) >= GAME_HINTS:
            raise HintRefused(ServiceReason.GAME_HINTS_BUSY)
        if self.pool.waiting() >= HINTS_WAITING * self.pool.workers:
            raise HintRefused(ServiceReason.THINKING_BUSY)

    async def _share(self, question: Question, person: int | None, think: Callable[..., T], *args: Any) -> T:
        """The answer to a question, thought about once however many await it; the thought is dropped when the last
        of them stops waiting (a request still queued never runs)."""
        thought = self._thoughts.get(question) or self._ask(question, person, (think, *args))
        thought.awaiting += 1
        try:
            answer: T = await asyncio.shield(thought.task)
        except asyncio.CancelledError:
            if thought.awaiting == 1:  # nobody else awaits it: whoever asks next thinks afresh
                self._forget(question, thought)
                thought.task.cancel()
            raise
        finally:
            thought.awaiting -= 1
        return answer

    def _ask(self, question: Question, person: int | None, call: tuple[Any, ...]) -> _Thought:
        """Queue a question for the workers now (so questions queue in the order asked) and await it in a task."""
        asked = self._submit(question, person, call)
        task = asyncio.create_task(self._answer(question, person, call, asked), name=f"thinking-{question}")
        thought = self._thoughts[question] = _Thought(task, person)
        task.add_done_callback(functools.partial(self._done, question, thought))
        return thought

    def _submit(self, question: Question, person: int | None, call: tuple[Any, ...]) -> Future[Any]:
        urgent = question.kind != HINT
        return self.pool.submit(*call, urgent=urgent, owner=person, limit=self.hung_after)

    async def _answer(self, question: Question, person: int | None, call: tuple[Any, ...], asked: Future[Any]) -> Any:
        """The workers' answer, asked once more of them when the worker thinking died; timed from asked to answered."""
        since = time.monotonic()
        for attempt in range(1, TRIES + 1):
            try:
                answer = await asyncio.wrap_future(asked)
                THINKING_SECONDS.labels(HINT if question.kind == HINT else "move").observe(time.monotonic() - since)
                return answer
            except BrokenProcessPool:
                log.warning("game %s: a thinking worker died (try %d of %d)", question.game_id, attempt, TRIES)
            if attempt < TRIES:
                asked = self._submit(question, person, call)
        raise WorkerDied(question.game_id)

    def _done(self, question: Question, thought: _Thought, task: asyncio.Task[Any]) -> None:
        """Forget a finished thought; keep a hint's answer."""
        self._forget(question, thought)
        if question.kind == HINT and not task.cancelled() and task.exception() is None:
            self._kept[question] = task.result()
            if len(self._kept) > KEPT_HINTS:
                self._kept.popitem(last=False)

    def _forget(self, question: Question, thought: _Thought) -> None:
        if self._thoughts.get(question) is thought:
            del self._thoughts[question]
