"""Spawned single-worker processes for CPU-bound work (pictures, bot players' thinking), routed by game.

CPU-bound Python in a thread holds the GIL the event loop needs, so such work runs in processes: each slot is a
one-process pool, a request goes to the slot its route names (modulo their number), so one game's work always
reaches the same process and whatever that process keeps for the game. Workers are spawned, never forked from the
running bot; each watches the bot that started it and ends once it is gone, even killed. A worker that dies fails
the request it held (BrokenProcessPool) and is replaced; the next requests go to the new one. A request may carry a
time limit: a worker still on it that long after it began (hung: a loop that never ends) ends itself, which fails
the request the same way; time waiting in the queue behind other requests does not count.

Whatever runs in a worker travels there pickled: a module-level function and its arguments, never a lambda.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

OWNER_CHECK = 1.0
"""Seconds between a worker's looks at whether the bot that started it still runs."""
HUNG_EXIT = 70
"""The exit status of a worker that ended itself because a request ran past its limit."""


class WorkerPool:
    """Single-worker processes; each new one first runs `first` (warming what it will use), if given."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = workers
        self.replaced = 0
        self.first: Callable[[], None] | None = None
        self._slots: list[ProcessPoolExecutor | None] = [None] * workers
        self._lock = threading.Lock()

    def resize(self, workers: int) -> None:
        """Use this many workers from now on (those running end after their current request)."""
        with self._lock:
            if workers == self.workers:
                return
            old, self._slots, self.workers = self._slots, [None] * workers, workers
        for executor in old:
            if executor is not None:
                executor.shutdown(wait=False)

    def submit(self, route: int, work: Callable[..., T], *args: Any, limit: float | None = None) -> Future[T]:
        """Run `work(*args)` in the route's worker; past `limit` seconds of running, the worker ends itself."""
        index = route % self.workers
        executor = self._executor(index)
        call: tuple[Any, ...] = (work, *args) if limit is None else (_within, limit, work, *args)
        try:
            future = executor.submit(*call)
        except BrokenProcessPool:  # it died since it was last used: nothing of this request ran yet
            future = self._replace(index, executor).submit(*call)
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
        return [next(iter(e._processes), None) if e is not None else None for e in slots]

    def _executor(self, index: int) -> ProcessPoolExecutor:
        with self._lock:
            executor = self._slots[index]
            if executor is None:
                executor = self._slots[index] = self._new()
            return executor

    def _new(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(1, context, initializer=_begin, initargs=(os.getpid(), self.first))

    def _replace(self, index: int, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        with self._lock:
            current = self._slots[index]
            if current is broken or current is None:
                log.warning("%s worker %d died; starting another", self.name, index)
                self.replaced += 1
                current = self._slots[index] = self._new()
        broken.shutdown(wait=False, cancel_futures=True)
        return current

    def _after(self, index: int, executor: ProcessPoolExecutor, done: Future[Any]) -> None:
        if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
            self._replace(index, executor)


def _begin(owner: int, first: Callable[[], None] | None) -> None:
    """A new worker's first job: watch the bot that started it, so a killed bot leaves no worker behind; then
    `first`."""
    threading.Thread(target=_end_with, args=(owner,), name="watch-owner", daemon=True).start()
    if first is not None:
        first()


def _within(limit: float, work: Callable[..., T], *args: Any) -> T:
    """In a worker: run `work(*args)`, ending this worker if it is still running after `limit` seconds."""
    watchdog = threading.Timer(limit, _end_hung, args=(limit, getattr(work, "__name__", repr(work))))
    watchdog.daemon = True
    watchdog.start()
    try:
        return work(*args)
    finally:
        watchdog.cancel()


def _end_hung(limit: float, name: str) -> None:
    """End this worker: a request ran past its limit (the parent sees the worker die and replaces it)."""
    log.error("a worker request (%s) still ran after %.1f s: ending the worker", name, limit)
    os._exit(HUNG_EXIT)


def _end_with(owner: int) -> None:
    """End this worker once the process that started it is gone (checked every OWNER_CHECK seconds)."""
    while True:
        time.sleep(OWNER_CHECK)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
