"""Pictures drawn off the event loop in worker processes, each drawn once per game, version and reader.

Drawing is CPU work: in threads it shares the GIL with the event loop and with the other drawings, so pictures are
drawn in processes, one single-worker process per core for public pictures (the board every turn) and one for
private ones (hands, asked for at will), so forty people asking for their hands queue behind each other, not in
front of the next board. A game's public pictures always go to the same worker (game id modulo the worker count),
which keeps that game's board base (render/ttr/posted.py). Workers are spawned, never forked from the running bot,
and started after the bot is ready (see bot/workers.py); each finds the games' static art in the art store
(render/artstore.py), drawn once per installed version by whichever process needed it first. What a dying worker
was drawing fails at once (the caller answers privately). Recent pictures are kept in the bot's process, bounded in
bytes.

Whatever is drawn in a worker travels there pickled: a module-level function and its arguments, never a lambda.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import discord

from bot.games import GAMES
from bot.i18n import LANGUAGES, fit, text_in, word_packages
from bot.storage.games import GameRecord
from bot.ui.names import shown_names
from bot.workers import WorkerPool, usable_cores
from render import artstore
from render.caches import forget as forget_drawn
from render.labels import Labels

T = TypeVar("T")
log = logging.getLogger(__name__)

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


def warm_workers(folder: Path | None = None) -> None:
    """Start the board and hand workers with every game's static art in memory in every language (for benchmarks
    that measure warm workers; the bot loads or draws each piece on first use)."""
    if folder is not None:
        use_art(folder)
    warms = [info.pictures.warm for info in GAMES.values() if info.pictures.warm is not None]
    for pool in (PUBLIC, PRIVATE):
        for index in range(pool.workers):
            pool.submit(index, _warm, warms).result()


def _warm(warms: Iterable[Callable[[Labels], None]]) -> None:
    """In a worker: the listed games' static art in every language, drawn or loaded."""
    for warm in warms:
        for language in LANGUAGES:
            warm(labels(language))


@atexit.register
def stop_pictures() -> None:
    """Stop every picture worker (at exit; a test wanting a cold start too): the next picture starts them again."""
    for pool in (PUBLIC, PRIVATE, SLOW):
        pool.shutdown()


MAX_ALT_TEXT = 1024
"""Discord's limit on an attachment's description (its alt text)."""
MAX_GALLERY_ALT_TEXT = 256
"""Discord's limit on a media gallery item's description."""


@dataclass(frozen=True)
class Picture:
    """A picture to attach: its file name (which says only what it is), its PNG bytes and its alt text."""

    name: str
    data: bytes
    alt: str

    def file(self) -> discord.File:
        """A fresh discord.File (a File can be sent only once), described for screen readers."""
        return discord.File(io.BytesIO(self.data), filename=self.name, description=fit(self.alt, MAX_ALT_TEXT))

    def gallery_item(self) -> discord.MediaGalleryItem:
        """The picture as an item of a Components V2 media gallery, with the same alt text."""
        return discord.MediaGalleryItem(f"attachment://{self.name}", description=fit(self.alt, MAX_GALLERY_ALT_TEXT))


def files_of(pictures: Iterable[Picture]) -> list[discord.File]:
    """Fresh discord.File objects for pictures."""
    return [picture.file() for picture in pictures]


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
                future = self._drawing[key] = (PRIVATE if private else PUBLIC).submit(key[0], draw, *args)
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
    return await asyncio.wrap_future(PUBLIC.submit(route, draw, *args))


async def draw_slow(draw: Callable[..., T], *args: Any) -> T:
    """Draw something slow or asked for at will (a replay, a stats card) in the slow pictures' worker, never in front of
    a board; nothing is kept."""
    return await asyncio.wrap_future(SLOW.submit(0, draw, *args))


async def build_once(build: Callable[..., T], *args: Any) -> T:
    """Build a message together with its picture off the event loop, in a thread (what it returns holds discord
    objects, which cannot come back from a process)."""
    return await asyncio.wrap_future(_builders.submit(build, *args))


def forget_game(game_id: int) -> None:
    """Drop a game's kept pictures here, and its board base in the worker that draws its boards (it ended)."""
    PICTURES.forget(lambda key: isinstance(key, tuple) and key[:1] == (game_id,))
    PUBLIC.submit(game_id, forget_drawn, game_id)


def labels(language: str) -> Callable[..., str]:
    """The pictures' words in a language (render/ asks for them by key, with the counts that pick plural forms)."""
    return functools.partial(text_in, word_packages(), language)


def plain_names(record: GameRecord) -> list[str]:
    """The players' names by seat as pictures show them (normalised, look-alikes told apart by seat): no emoji (the
    font has none), no markdown escaping."""
    names = shown_names(record, marked=False)
    return [names[seat] for seat in sorted(names)]
