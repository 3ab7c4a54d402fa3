"""Spawned single-worker processes for CPU-bound work: pictures routed by game, bot players' thinking from one queue.

CPU-bound Python in a thread holds the GIL the event loop needs, so such work runs in processes. Each worker is a
one-process pool, spawned (never forked from the running bot), started by its first request; it first runs the pool's
`first` (warming what it will use) and watches the bot that started it, ending once that is gone, even killed. A
worker that dies fails the request it held (BrokenProcessPool) and is replaced; the next requests go to the new one.

Two ways to hand out requests:
- `WorkerPool` (pictures): a request goes to the worker its route names (modulo their number), so one game's work
  always reaches the same process and whatever that process keeps for the game.
- `QueuedPool` (thinking): requests wait in one queue in this process, and any idle worker takes the most urgent one:
  urgent requests first, then by how many requests their owner already has waiting or running (round robin by
  owner), then first come first served. A worker runs one request at a time, so a worker that dies or hangs fails
  only that request. A request may carry a limit in CPU seconds of its worker: a loop that never ends is caught
  however busy the machine is, and a slow machine never trips it.

Whatever runs in a worker travels there pickled: a module-level function and its arguments, never a lambda.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

OWNER_CHECK = 1.0
"""Seconds between a worker's looks at whether the bot that started it still runs."""
CPU_CHECK = 0.1
"""Seconds between a worker's looks at how much CPU its request has used, when the request has a CPU limit."""
HUNG_EXIT = 70
"""The exit status of a worker that ended itself because a request ran past its limit."""
MIN_QUEUED_WORKERS = 2
"""A queued pool's fewest workers by default: one long request never holds every other."""


def usable_cores() -> int:
    """How many cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_workers() -> int:
    """A queued pool's size unless set: one worker per usable core, and at least `MIN_QUEUED_WORKERS`."""
    return max(MIN_QUEUED_WORKERS, usable_cores())


class WorkerPool:
    """Single-worker processes, a request routed to one by number; each new one first runs `first`, if given."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = workers
        self.replaced = 0
        self.first: Callable[[], None] | None = None
        self._slots: list[ProcessPoolExecutor | None] = [None] * workers
        self._lock = threading.Lock()

    def submit(self, route: int, work: Callable[..., T], *args: Any) -> Future[T]:
        """Run `work(*args)` in the route's worker."""
        index = route % self.workers
        executor = self._executor(index)
        try:
            future = executor.submit(work, *args)
        except BrokenProcessPool:  # it died since it was last used: nothing of this request ran yet
            future = self._replace(index, executor).submit(work, *args)
        future.add_done_callback(functools.partial(self._after, index, executor))
        return future

    def start(self) -> None:
        """Start every worker and wait until each has run its first job."""
        for future in [self.submit(index, os.getpid) for index in range(self.workers)]:
            future.result()

    def shutdown(self) -> None:
        """Stop the workers (at exit); the next request starts them again."""
        with self._lock:
            executors, self._slots = self._slots, [None] * self.workers
        for executor in executors:
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)

    def pids(self) -> list[int | None]:
        """Each worker's process id, None where none runs yet (for tests)."""
        with self._lock:
            slots = list(self._slots)
        return [_pid(executor) for executor in slots]

    def dead(self) -> list[int]:
        """The workers whose process ended (killed, crashed) and is not replaced yet: the next request replaces it."""
        with self._lock:
            return [index for index, executor in enumerate(self._slots) if _ended(executor)]

    def _executor(self, index: int) -> ProcessPoolExecutor:
        with self._lock:
            executor = self._slots[index]
            if executor is None:
                executor = self._slots[index] = _spawned(self.first)
            return executor

    def _replace(self, index: int, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        with self._lock:
            current = self._slots[index]
            if current is broken or current is None:
                log.warning("%s worker %d died; starting another", self.name, index)
                self.replaced += 1
                current = self._slots[index] = _spawned(self.first)
        broken.shutdown(wait=False, cancel_futures=True)
        return current

    def _after(self, index: int, executor: ProcessPoolExecutor, done: Future[Any]) -> None:
        if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
            self._replace(index, executor)


@dataclass(order=True)
class _Request:
    """A request of a queued pool: its place in the queue (urgency, its owner's turn, arrival) and what to run."""

    place: tuple[int, int, int]
    owner: Hashable | None = field(compare=False)
    call: tuple[Any, ...] = field(compare=False)
    future: Future[Any] = field(compare=False, default_factory=Future)

    @property
    def urgent(self) -> bool:
        return self.place[0] == 0


@dataclass(eq=False)
class _Worker:
    """One worker of a queued pool: its process (started by its first request) and the request it runs, if any."""

    executor: ProcessPoolExecutor | None = None
    request: _Request | None = None


class QueuedPool:
    """Single-worker processes that take requests from one queue in this process, the most urgent first."""

    def __init__(self, name: str, workers: int, *, first: Callable[[], None] | None = None) -> None:
        self.name = name
        self.first = first
        self.replaced = 0
        self._workers = [_Worker() for _ in range(workers)]
        self._queue: list[_Request] = []
        """A heap: the most urgent request first."""
        self._owners: Counter[Hashable] = Counter()
        """Each owner's requests waiting or running."""
        self._arrivals = itertools.count()
        self._lock = threading.Lock()

    @property
    def workers(self) -> int:
        """How many workers the pool runs (at most)."""
        return len(self._workers)

    def submit(
        self,
        work: Callable[..., T],
        *args: Any,
        urgent: bool = False,
        owner: Hashable | None = None,
        limit: float | None = None,
    ) -> Future[T]:
        """Queue `work(*args)` for the next idle worker; it ends its worker once it has used `limit` CPU seconds.

        Urgent requests go first; among the others, an owner's request goes after every other owner's with fewer of
        theirs waiting or running. Cancelling the future while the request waits drops it.
        """
        call = (work, *args) if limit is None else (_within_cpu, limit, work, *args)
        with self._lock:
            turn = 0 if urgent or owner is None else self._owners[owner]
            request = _Request((0 if urgent else 1, turn, next(self._arrivals)), owner, call)
            if owner is not None:
                self._owners[owner] += 1
            heapq.heappush(self._queue, request)
        self._dispatch()
        return request.future

    def waiting(self) -> int:
        """How many requests that are not urgent wait for a worker."""
        with self._lock:
            return sum(1 for r in self._queue if not r.urgent and not r.future.cancelled())

    def queued(self) -> int:
        """How many requests wait for a worker, urgent or not."""
        with self._lock:
            return sum(1 for r in self._queue if not r.future.cancelled())

    def start(self) -> list[Future[int]]:
        """Start every idle worker that has no process yet, in the background: each runs `first`, then takes
        requests; the futures give each one's process id once it has started."""
        with self._lock:
            starting = [(w, _Request((0, 0, next(self._arrivals)), None, (os.getpid,))) for w in self._idle_unstarted()]
            for worker, request in starting:
                request.future.set_running_or_notify_cancel()
                self._take(worker, request)
        for worker, request in starting:
            self._run(worker, request)
        return [request.future for _, request in starting]

    def resize(self, workers: int) -> None:
        """Use this many workers from now on: the first ones are kept, those past the number end after their
        current request."""
        with self._lock:
            kept, dropped = self._workers[:workers], self._workers[workers:]
            self._workers = kept + [_Worker() for _ in range(workers - len(kept))]
            idle = [w.executor for w in dropped if w.request is None and w.executor is not None]
        for executor in idle:
            executor.shutdown(wait=False)
        self._dispatch()

    def shutdown(self) -> None:
        """Stop the workers (at exit), dropping what waits; the next request starts them again."""
        with self._lock:
            workers, self._workers = self._workers, [_Worker() for _ in self._workers]
            waiting, self._queue = self._queue, []
            for request in waiting:
                self._release(request)
        for request in waiting:
            request.future.cancel()
        for worker in workers:
            if worker.executor is not None:
                worker.executor.shutdown(wait=True, cancel_futures=True)

    def pids(self) -> list[int | None]:
        """Each worker's process id, None where none runs (for tests)."""
        with self._lock:
            return [_pid(w.executor) for w in self._workers]

    def dead(self) -> list[int]:
        """The workers whose process ended (killed, crashed) and is not replaced yet: the next request replaces it."""
        with self._lock:
            return [index for index, worker in enumerate(self._workers) if _ended(worker.executor)]

    def _idle_unstarted(self) -> list[_Worker]:
        return [w for w in self._workers if w.request is None and _pid(w.executor) is None]

    def _dispatch(self) -> None:
        """Give the most urgent waiting requests to idle workers, one each."""
        while True:
            with self._lock:
                worker = next((w for w in self._workers if w.request is None), None)
                request = self._next() if worker is not None else None
                if worker is None or request is None:
                    return
                self._take(worker, request)
            self._run(worker, request)

    def _next(self) -> _Request | None:
        """The most urgent waiting request, now running (those cancelled meanwhile are dropped)."""
        while self._queue:
            request = heapq.heappop(self._queue)
            if request.future.set_running_or_notify_cancel():
                return request
            self._release(request)
        return None

    def _take(self, worker: _Worker, request: _Request) -> None:
        worker.request = request
        if worker.executor is None:
            worker.executor = _spawned(self.first)

    def _release(self, request: _Request) -> None:
        if request.owner is not None:
            self._owners[request.owner] -= 1
            if not self._owners[request.owner]:
                del self._owners[request.owner]

    def _run(self, worker: _Worker, request: _Request) -> None:
        """Hand a request to its worker's process (a fresh one if that process died while idle)."""
        executor = worker.executor
        assert executor is not None, "a worker given a request has a process"
        try:
            try:
                running = executor.submit(*request.call)
            except BrokenProcessPool:  # it died while idle: nothing of this request ran yet
                with self._lock:
                    dead, executor = executor, self._renew(worker, executor)
                dead.shutdown(wait=False, cancel_futures=True)
                running = executor.submit(*request.call)
        except Exception as error:  # shut down meanwhile (at exit)
            failed: Future[Any] = Future()
            failed.set_exception(error)
            self._finished(worker, executor, request, failed)
            return
        running.add_done_callback(functools.partial(self._finished, worker, executor, request))

    def _finished(self, worker: _Worker, executor: ProcessPoolExecutor, request: _Request, done: Future[Any]) -> None:
        """A worker's request ended: replace the worker if it died (before anyone hears of it, so a request asked
        again finds a fresh one), answer the request, give out the next one."""
        error = CancelledError() if done.cancelled() else done.exception()
        died = isinstance(error, BrokenProcessPool)
        with self._lock:
            retired = worker not in self._workers
            if died and not retired:
                self._renew(worker, executor)
            worker.request = None
            self._release(request)
        if died or retired:
            executor.shutdown(wait=False, cancel_futures=True)
        if error is None:
            request.future.set_result(done.result())
        else:
            request.future.set_exception(error)
        self._dispatch()

    def _renew(self, worker: _Worker, dead: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """Give a worker whose process died a fresh one, started by its next request (under the lock)."""
        current = worker.executor
        if current is dead or current is None:
            log.warning("a %s worker died; starting another", self.name)
            self.replaced += 1
            current = worker.executor = _spawned(self.first)
        return current


def _spawned(first: Callable[[], None] | None) -> ProcessPoolExecutor:
    """A one-process pool, its process spawned by its first request; that process runs `_begin` first."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(1, context, initializer=_begin, initargs=(os.getpid(), first))


def _pid(executor: ProcessPoolExecutor | None) -> int | None:
    """The process id of a one-process pool's process, None while it has none."""
    processes = None if executor is None else executor._processes
    return next(iter(processes), None) if processes else None


def _ended(executor: ProcessPoolExecutor | None) -> bool:
    """Whether a one-process pool's process ended: the pool is broken and must be replaced."""
    return executor is not None and bool(executor._broken)


def _begin(owner: int, first: Callable[[], None] | None) -> None:
    """A new worker's first job: watch the bot that started it, so a killed bot leaves no worker behind; then
    `first`."""
    threading.Thread(target=_end_with, args=(owner,), name="watch-owner", daemon=True).start()
    if first is not None:
        first()


def _within_cpu(limit: float, work: Callable[..., T], *args: Any) -> T:
    """In a worker: run `work(*args)`, ending this worker once this request has used `limit` seconds of its CPU (the
    worker runs nothing else meanwhile)."""
    done = threading.Event()
    watch = (limit, time.process_time(), done, _name(work))
    threading.Thread(target=_watch_cpu, args=watch, name="watch-cpu", daemon=True).start()
    try:
        return work(*args)
    finally:
        done.set()


def _watch_cpu(limit: float, start: float, done: threading.Event, name: str) -> None:
    """End this worker once it has used `limit` CPU seconds since `start`, unless `done` is set first."""
    while not done.wait(CPU_CHECK):
        if time.process_time() - start > limit:
            _end_hung(name, f"{limit:.1f} s of CPU")


def _name(work: Callable[..., Any]) -> str:
    return getattr(work, "__name__", repr(work))


def _end_hung(name: str, limit: str) -> None:
    """End this worker: a request ran past its limit (the parent sees the worker die and replaces it)."""
    log.error("a worker request (%s) still ran after %s: ending the worker", name, limit)
    os._exit(HUNG_EXIT)


def _end_with(owner: int) -> None:
    """End this worker once the process that started it is gone (checked every OWNER_CHECK seconds)."""
    while True:
        time.sleep(OWNER_CHECK)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
