"""The pictures a message attaches (with their alt text), and the words and names pictures are drawn with; they are
drawn in the worker pools and kept in the picture cache of bot/drawing.py."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import discord

from bot import drawing
from bot.game_entry import GameInfo
from bot.i18n import LANGUAGES, fit, labels
from bot.storage.games import GameRecord
from bot.ui.names import shown_names
from render.labels import Labels


def warm_workers(games: Iterable[GameInfo], folder: Path | None = None) -> None:
    """Start the board and hand workers with every game's static art in memory in every language (for benchmarks
    that measure warm workers; the bot loads or draws each piece on first use)."""
    if folder is not None:
        drawing.use_art(folder)
    warms = [info.pictures.warm for info in games if info.pictures.warm is not None]
    for pool in (drawing.PUBLIC, drawing.PRIVATE):
        for index in range(pool.workers):
            pool.submit(index, _warm, warms).result()


def _warm(warms: Iterable[Callable[[Labels], None]]) -> None:
    """In a worker: the listed games' static art in every language, drawn or loaded."""
    for warm in warms:
        for language in LANGUAGES:
            warm(labels(language))


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


def plain_names(record: GameRecord) -> list[str]:
    """The players' names by seat as pictures show them (normalised, look-alikes told apart by seat): no emoji (the
    font has none), no markdown escaping."""
    names = shown_names(record, marked=False)
    return [names[seat] for seat in sorted(names)]


def bot_seats(record: GameRecord) -> frozenset[int]:
    """The seats bot players play, which pictures mark with a robot (their names come without one: `plain_names`)."""
    return frozenset(seat.seat for seat in record.seats if seat.is_bot)
