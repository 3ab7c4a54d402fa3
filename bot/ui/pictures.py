"""Pictures drawn off the event loop in bounded worker pools, each drawn once per game, version and reader.

Public pictures (the board every turn) and private ones (hands, asked for at will) have pools of their own, so forty
people asking for their hands at once queue behind each other, not in front of the next turn's board. Recent
pictures are kept, bounded in bytes: a second look at the same hand or board costs nothing.
"""

from __future__ import annotations

import asyncio
import functools
import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import discord

from bot.i18n import fit, text
from bot.storage.games import GameRecord

T = TypeVar("T")

PUBLIC_WORKERS = 2
PRIVATE_WORKERS = 1
MAX_BYTES = 64 * 1024 * 1024
"""What the kept pictures may weigh in all (a board is about 250 KB, a hand about 100 KB)."""

_public_pool = ThreadPoolExecutor(PUBLIC_WORKERS, thread_name_prefix="render-public")
_private_pool = ThreadPoolExecutor(PRIVATE_WORKERS, thread_name_prefix="render-private")


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
    """Recent pictures by key, bounded in bytes; concurrent requests for one key share one drawing."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._drawing: dict[Hashable, Future[bytes]] = {}
        self._lock = threading.Lock()

    async def get(self, key: Hashable, draw: Callable[[], bytes], *, private: bool = False) -> bytes:
        """The picture for `key`, drawn by `draw` in a worker thread unless kept or being drawn already."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
            future = self._drawing.get(key)
            if future is None:
                pool = _private_pool if private else _public_pool
                future = pool.submit(draw)
                self._drawing[key] = future
                future.add_done_callback(lambda done: self._keep(key, done))
        return await asyncio.wrap_future(future)

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


async def draw_once(draw: Callable[[], T]) -> T:
    """Draw something public nobody will ask for again (a score sheet) in the worker pool, without keeping it."""
    return await asyncio.wrap_future(_public_pool.submit(draw))


def labels(language: str) -> Callable[..., str]:
    """The pictures' words in a language (render/ asks for them by key, with the counts that pick plural forms)."""
    return functools.partial(text, language)


def plain_names(record: GameRecord) -> list[str]:
    """The players' names by seat as pictures show them: no emoji (the font has none), no markdown escaping."""
    return [s.name for s in sorted(record.seats, key=lambda s: s.seat)]
