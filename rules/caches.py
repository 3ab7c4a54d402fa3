"""The memo caches of the rules, bounded, counted, and listed in one place so a benchmark can print them.

`BoundedCache` keeps recent results in two generations: new entries go into the young dict; when its weight reaches
half the budget, the old dict is dropped whole and the young one becomes old; an old entry that is used again moves
back into the young dict. So the cache never weighs more than its budget, what is used often stays, and eviction is
one dict dropped now and then: no per-entry bookkeeping (an lru_cache's linked nodes cost the garbage collector far
more than a dict of immutable tuples), and never the whole memory emptied at once.

Engines run in worker threads too: a race between two of them can lose an entry or a count, nothing worse.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_BOUNDED: weakref.WeakValueDictionary[str, BoundedCache[Any, Any]] = weakref.WeakValueDictionary()
"""Every bounded cache by name (a cache made and dropped by a test leaves no trace here)."""


@dataclass(frozen=True)
class CacheStats:
    """One cache's figures: entries kept, their weight against the budget (None: a functools cache over a key space
    that is fixed and small, so unbounded by design), and how often it answered."""

    name: str
    size: int
    weight: int
    budget: int | None
    unit: str
    """What weight and budget count: "bytes" (estimated) or "entries"."""
    hits: int
    misses: int

    @property
    def hit_rate(self) -> float:
        """Share of lookups answered from the cache (0 before the first)."""
        lookups = self.hits + self.misses
        return self.hits / lookups if lookups else 0.0


class BoundedCache(Generic[K, V]):
    """A memo of recent results, at most `budget` in weight: entries, unless the caller weighs each one it puts."""

    def __init__(self, name: str, budget: int, *, unit: str = "entries") -> None:
        self.name = name
        self.budget = budget
        self.unit = unit
        self._young: dict[K, V] = {}
        self._old: dict[K, V] = {}
        self._young_weight = 0
        self._old_weight = 0
        self.hits = 0
        self.misses = 0
        _BOUNDED[name] = self

    def get(self, key: K) -> V | None:
        """The value kept for `key`, or None (counted as a miss: the caller computes it and `put`s it)."""
        found = self._young.get(key)
        if found is not None:
            self.hits += 1
            return found
        old = self._old
        found = old.get(key)
        if found is not None:
            self.hits += 1
            # its own weight is not kept: it is charged its generation's average (exact when counting entries)
            self._keep(key, found, self._old_weight // (len(old) or 1))
            return found
        self.misses += 1
        return None

    def put(self, key: K, value: V, *, weight: int = 1) -> V:
        """Keep `value` for `key` (it must not be None), weighing `weight` in the cache's unit, and return it."""
        self._keep(key, value, weight)
        return value

    def _keep(self, key: K, value: V, weight: int) -> None:
        if self._young_weight + weight > self.budget // 2 and self._young:
            self._old, self._old_weight = self._young, self._young_weight
            self._young, self._young_weight = {}, 0
        self._young[key] = value
        self._young_weight += weight

    @property
    def size(self) -> int:
        """Entries kept (an entry used again since the last turnover is kept once in each generation)."""
        return len(self._young) + len(self._old)

    @property
    def weight(self) -> int:
        """What the kept entries weigh, in the cache's unit: at most the budget (an entry heavier than half of it
        is kept alone in its generation)."""
        return self._young_weight + self._old_weight

    def stats(self) -> CacheStats:
        """This cache's figures now."""
        return CacheStats(self.name, self.size, self.weight, self.budget, self.unit, self.hits, self.misses)


def all_caches() -> list[CacheStats]:
    """Every cache of the rules: the bounded ones, then the functools caches of the rules modules loaded so far."""
    found = [cache.stats() for _, cache in sorted(_BOUNDED.items(), key=lambda item: item[0])]
    seen: set[int] = set()
    for module_name, module in sorted(sys.modules.items()):
        if module_name != "rules" and not module_name.startswith("rules."):
            continue
        for value in vars(module).values():
            info = getattr(value, "cache_info", None)
            if not callable(info) or id(value) in seen or getattr(value, "__module__", None) != module_name:
                continue
            seen.add(id(value))
            hits, misses, budget, size = info()
            found.append(CacheStats(f"{module_name}.{value.__qualname__}", size, size, budget, "entries", hits, misses))
    return found
