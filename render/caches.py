"""Every cache of drawn art in render/ (fonts, map layouts, static layers, sprites, per-game bases), to empty them at
once, and the bounded least-recently-used cache the drawing keeps per game.

A process starts with none of them; tests and benchmarks that measure a cold start empty them first.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

_NAMED: dict[str, Lru[object]] = {}


class Lru(Generic[V]):
    """At most `max_entries` values by key, the least recently used dropped first, counting hits and misses."""

    def __init__(self, name: str, max_entries: int) -> None:
        self.name = name
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0
        self.replaced = 0
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        _NAMED[name] = self  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key` (now the most recently used), or None; counted as a hit or a miss."""
        value = self._kept.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value` for `key`, dropping the least recently used past the bound."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.max_entries:
            self._kept.popitem(last=False)

    def replaced_value(self, key: Hashable) -> None:
        """Count the last hit for `key` as a miss: what was kept could not be used (and is dropped)."""
        self.hits -= 1
        self.misses += 1
        self.replaced += 1
        self._kept.pop(key, None)

    def values(self) -> list[V]:
        """Everything kept, least recently used first (benchmarks weigh it)."""
        return list(self._kept.values())

    def pop(self, key: Hashable) -> None:
        """Forget `key` (a game that ended)."""
        self._kept.pop(key, None)

    def cache_clear(self) -> None:
        """Forget everything and reset the counters."""
        self._kept.clear()
        self.hits = self.misses = self.replaced = 0


def clear_counters() -> None:
    """Count every bounded cache's hits and misses from zero again (benchmarks)."""
    for cache in _NAMED.values():
        cache.hits = cache.misses = cache.replaced = 0


def forget(key: Hashable) -> None:
    """Drop what any bounded cache keeps under `key` (a game that ended)."""
    for cache in _NAMED.values():
        cache.pop(key)


def cache_stats() -> dict[str, dict[str, int]]:
    """Each bounded cache's entries, bound, hits, misses and values replaced, by name."""
    return {
        name: {
            "entries": len(cache),
            "max": cache.max_entries,
            "hits": cache.hits,
            "misses": cache.misses,
            "replaced": cache.replaced,
        }
        for name, cache in _NAMED.items()
    }


def clear_caches() -> None:
    """Empty the functools caches and bounded caches of every loaded render module."""
    for cache in _NAMED.values():
        cache.cache_clear()
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                clear = None if isinstance(value, type) else getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
