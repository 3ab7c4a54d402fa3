"""Static art drawn once per installed version and kept on disk, so no process draws what another already drew.

A map's art, layout and palette take seconds to draw and never change between games, so a function that draws such
art is decorated with `@stored`: its value is kept in memory (a bounded cache, as before) and in the art store, a
folder of pickles named by a hash of the function, its arguments and the drawing code's version (every file of the
`render` and `rules` packages and Pillow's version). A process that finds the file loads it (milliseconds); one that
does not draws it and writes it for everyone after it, under a lock per file, so two processes starting together
draw it once. Without a folder (`use(None)`, the default) the art is drawn in memory as before.

Nothing is drawn at start: art is drawn or loaded when a picture first needs it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import pickle
import shutil
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import PIL

try:
    import fcntl
except ImportError:  # Windows: no lock across processes; two starting together may both draw
    fcntl = None  # type: ignore[assignment]

P = ParamSpec("P")
R = TypeVar("R")
log = logging.getLogger(__name__)

_SOURCES = ("render", "rules")
"""The packages whose files draw the art (code, fonts, map data): any change to them is a new version."""
VERSION_CHARS = 16
"""Hex digits of the version that name its subfolder."""
STALE_SECONDS = 24 * 3600
"""Another version's art untouched this long is deleted by `prune` (a process of it may still run meanwhile)."""
COMPRESSION = 1
"""zlib level of the stored pickles: the art is mostly flat colour, so the fastest level already shrinks it tenfold."""


class _Store:
    """Where this process keeps and finds art, and what it drew or loaded (tests and benchmarks count them)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.drawn = 0
        """Pieces of art this process drew (not found in memory or in the folder)."""
        self.loaded = 0
        """Pieces of art this process loaded from the folder."""


STORE = _Store()


def use(folder: Path | str | None) -> None:
    """Keep and find art in `folder` from now on, in a subfolder for this version; None: draw in memory only."""
    STORE.folder = None if folder is None else Path(folder) / version()[:VERSION_CHARS]


def counts() -> tuple[int, int]:
    """Pieces of art this process drew and loaded so far (a worker answers this to tests and benchmarks)."""
    return STORE.drawn, STORE.loaded


def prune(folder: Path | str) -> None:
    """Delete the art of other versions that no process has added to for a day (an upgrade leaves the old)."""
    current = version()[:VERSION_CHARS]
    try:
        kept = list(Path(folder).iterdir())
    except OSError:
        return
    for path in kept:
        if path.is_dir() and path.name != current and time.time() - path.stat().st_mtime > STALE_SECONDS:
            shutil.rmtree(path, ignore_errors=True)


def stored(maxsize: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep the drawing's value in memory (the `maxsize` most recent) and in the art store."""

    def decorate(draw: Callable[P, R]) -> Callable[P, R]:
        @functools.lru_cache(maxsize=maxsize)
        @functools.wraps(draw)
        def kept(*args: Any) -> Any:
            return _fetch(draw, args)

        return kept  # type: ignore[return-value]

    return decorate


@functools.cache
def version() -> str:
    """A hash of everything that draws the art: the files of `render` and `rules`, and Pillow's version."""
    digest = hashlib.sha256(PIL.__version__.encode())
    root = Path(__file__).resolve().parent.parent
    for package in _SOURCES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _fetch(draw: Callable[..., R], args: tuple[Any, ...]) -> R:
    """The value of `draw(*args)`: loaded from the store when it is there, else drawn (and written there)."""
    folder = STORE.folder
    if folder is None:
        STORE.drawn += 1
        return draw(*args)
    name = f"{draw.__module__}.{draw.__qualname__}"
    key = hashlib.sha256(f"{version()}\n{name}\n{args!r}".encode()).hexdigest()[:40]
    path = folder / f"{draw.__qualname__.lstrip('_')}-{key}.pickle"
    value = _load(path)
    if value is not None:
        return value
    with _locked(folder, key):
        value = _load(path)  # another process may have drawn it while this one waited
        if value is not None:
            return value
        drawn = draw(*args)
        STORE.drawn += 1
        _write(path, drawn)
        return drawn


def _load(path: Path) -> Any:
    """What the file holds, or None when it is missing or unreadable (then it is drawn again and rewritten)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("art store: cannot read %s (%s); drawing it", path.name, error)
        return None
    try:
        value = pickle.loads(zlib.decompress(data))
    except Exception as error:  # a torn or foreign file: draw it again
        log.warning("art store: %s is unreadable (%s); drawing it again", path.name, error)
        return None
    STORE.loaded += 1
    return value


def _write(path: Path, value: object) -> None:
    """Write the value whole or not at all (a reader never sees half a file); a full disk only logs."""
    temporary = path.with_name(f".tmp-{os.getpid()}-{path.name}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), COMPRESSION))
        os.replace(temporary, path)
    except OSError as error:
        log.warning("art store: cannot write %s (%s); it will be drawn again next time", path.name, error)
        with contextlib.suppress(OSError):
            temporary.unlink()


@contextlib.contextmanager
def _locked(folder: Path, key: str) -> Iterator[None]:
    """Hold an exclusive lock on the piece `key` of the folder across processes (where the system has one)."""
    if fcntl is None:
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / f".{key}.lock", "a+b")  # noqa: SIM115 (held for the block below)
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
