"""Pictures drawn off the event loop in worker processes, each drawn once per game, version and reader.

Drawing is CPU work: in threads it shares the GIL with the event loop and with the other drawings, so pictures are
drawn in processes, one single-worker process per core for public pictures (the board every turn) and one for
private ones (hands, asked for at will), so forty people asking for their hands queue behind each other, not in
front of the next board. A game's public pictures always go to the same worker (game id modulo the worker count),
which keeps that game's board base (render/ttr/posted.py). Workers are spawned, never forked from the running bot,
and started after the bot is ready (see workers.py beside this); each finds the games' static art in the art store
(render/artstore.py), drawn once per installed version by whichever process needed it first. What a dying worker
was drawing fails at once (the caller answers privately). Recent pictures are kept in the bot's process, bounded in
bytes.

Whatever is drawn in a worker travels there pickled: a module-level function and its arguments, never a lambda.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from bot.metrics import PICTURE_SECONDS, PICTURES_WAITING
from bot.workers import WorkerPool, usable_cores
from render import artstore
from render.caches import cache_stats
from render.caches import forget as forget_drawn

T = TypeVar("T")

MAX_BYTES = 64 * 1024 * 1024
"""What the kept pictures may weigh in all (a board is about 250 KB, a hand about 100 KB)."""
PRIVATE_WORKERS = 1
"""Hands and ticket choices: 4–40 ms each, drawn apart from the boards (measured: bench/ttr_game_render.py)."""


PUBLIC = WorkerPool("public pictures", usable_cores())
"""Boards and other public pictures: one worker per core this process may run on."""
PRIVATE = WorkerPool("private pictures", PRIVATE_WORKERS)
SLOW = WorkerPool("slow pictures", 1)
"""Replays of finished games (seconds each), /stats and /leaderboard (asked for at will): apart, so no board or hand
waits behind one."""
_builders = ThreadPoolExecutor(1, thread_name_prefix="build-message")
"""For messages built together with their picture (the dice game's), which hold discord objects that cannot
travel to a process."""


def use_art(folder: Path) -> None:
    """Find and keep the static art in `folder`, here and in every picture worker (those started for another
    folder are stopped; the next picture starts them again)."""
    artstore.use(folder)
    pools = (PUBLIC, PRIVATE, SLOW)
    if any(isinstance(pool.first, functools.partial) and pool.first.args != (folder,) for pool in pools):
        stop_pictures()
    for pool in pools:
        pool.first = functools.partial(artstore.use, folder)


def start_pictures() -> None:
    """Start every picture worker now rather than on the first picture (after ready, in a thread)."""
    for pool in (PUBLIC, PRIVATE, SLOW):
        pool.start()


@atexit.register
def stop_pictures() -> None:
    """Stop every picture worker (at exit; a test wanting a cold start too): the next picture starts them again."""
    for pool in (PUBLIC, PRIVATE, SLOW):
        pool.shutdown()


class PictureCache:
    """Recent pictures by key, bounded in bytes; concurrent requests for one key share one drawing.

    Keys start with the game id, which is also the route: a game's pictures are drawn by one worker."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._drawing: dict[Hashable, Future[bytes]] = {}
        self._lock = threading.Lock()

    async def get(self, key: tuple[Any, ...], draw: Callable[..., bytes], *args: Any, private: bool = False) -> bytes:
        """The picture for `key`, drawn as `draw(*args)` in a worker unless kept or being drawn already."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self.hits += 1
                self._kept.move_to_end(key)
                return kept
            future = self._drawing.get(key)
            new = future is None
            if future is None:
                self.misses += 1
                future = self._drawing[key] = _asked(PRIVATE if private else PUBLIC, key[0], draw, *args)
            else:
                self.hits += 1
        if new:  # outside the lock: a drawing already done calls back at once
            future.add_done_callback(functools.partial(self._keep, key))
        return await asyncio.wrap_future(future)

    @property
    def size(self) -> int:
        """Bytes kept."""
        return self._size

    def forget(self, match: Callable[[Hashable], bool]) -> None:
        """Drop the kept pictures whose key matches (a game that ended)."""
        with self._lock:
            for key in [k for k in self._kept if match(k)]:
                self._size -= len(self._kept.pop(key))

    def _keep(self, key: Hashable, done: Future[bytes]) -> None:
        with self._lock:
            self._drawing.pop(key, None)
            if done.cancelled() or done.exception() is not None:
                return
            data = done.result()
            self._kept[key] = data
            self._size += len(data)
            while self._size > self.max_bytes and self._kept:
                _, dropped = self._kept.popitem(last=False)
                self._size -= len(dropped)


PICTURES = PictureCache()
"""The bot's pictures; keys start with the game id so a finished game's can be forgotten."""


async def draw_once(route: int, draw: Callable[..., T], *args: Any) -> T:
    """Draw something public nobody will ask for again (a score sheet) in the route's worker, without keeping it."""
    return await asyncio.wrap_future(_asked(PUBLIC, route, draw, *args))


async def draw_slow(draw: Callable[..., T], *args: Any) -> T:
    """Draw something slow or asked for at will (a replay, a stats card) in the slow pictures' worker, never in front of
    a board; nothing is kept."""
    return await asyncio.wrap_future(_asked(SLOW, 0, draw, *args))


async def build_once(build: Callable[..., T], *args: Any) -> T:
    """Build a message together with its picture off the event loop, in a thread (what it returns holds discord
    objects, which cannot come back from a process)."""
    return await asyncio.wrap_future(_builders.submit(build, *args))


def _asked(pool: WorkerPool, route: int, draw: Callable[..., T], *args: Any) -> Future[T]:
    """Have the route's worker of `pool` draw `draw(*args)`, counted while it waits and timed once drawn."""
    future = pool.submit(route, draw, *args)
    PICTURES_WAITING.labels(pool.name).inc()
    future.add_done_callback(functools.partial(_drawn, pool.name, time.monotonic()))
    return future


def _drawn(pool: str, asked: float, done: Future[Any]) -> None:
    PICTURES_WAITING.labels(pool).dec()
    if not done.cancelled() and done.exception() is None:
        PICTURE_SECONDS.labels(pool).observe(time.monotonic() - asked)


_heard: dict[tuple[str, int], dict[str, dict[str, int]]] = {}
"""(pool, worker) → its render caches' counts as it last told them."""
_asking: set[tuple[str, int]] = set()
"""The workers asked for their counts that have not answered yet (a busy worker is not asked twice)."""


async def hear_render_caches(wait: float) -> dict[str, tuple[int, int]]:
    """Each render cache's hits and misses (render/caches.py: what a worker keeps between pictures), summed over the
    picture workers that run; each is asked now, and one still drawing after `wait` seconds counts as last heard."""
    asked = []
    for pool in (PUBLIC, PRIVATE, SLOW):
        for index, pid in enumerate(pool.pids()):
            if pid is not None and (pool.name, index) not in _asking:
                _asking.add((pool.name, index))
                answer = pool.submit(index, cache_stats)
                answer.add_done_callback(functools.partial(_heard_from, (pool.name, index)))
                asked.append(asyncio.wrap_future(answer))
    if asked:
        await asyncio.wait(asked, timeout=wait)
    counts: dict[str, tuple[int, int]] = {}
    for caches in list(_heard.values()):
        for name, stats in caches.items():
            hits, misses = counts.get(name, (0, 0))
            counts[name] = (hits + stats["hits"], misses + stats["misses"])
    return counts


def _heard_from(worker: tuple[str, int], answer: Future[dict[str, dict[str, int]]]) -> None:
    _asking.discard(worker)
    if not answer.cancelled() and answer.exception() is None:
        _heard[worker] = answer.result()


def forget_game(game_id: int) -> None:
    """Drop a game's kept pictures here, and its board base in the worker that draws its boards (it ended)."""
    PICTURES.forget(lambda key: isinstance(key, tuple) and key[:1] == (game_id,))
    PUBLIC.submit(game_id, forget_drawn, game_id)
