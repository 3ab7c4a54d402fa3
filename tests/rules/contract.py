"""What a game's test package gives the engine contract test (tests/rules/test_engine_contract.py): a `ContractCase`
named `CASE` in its `contract.py` (tests/rules/<namespace>/contract.py), and the helpers its scramble deals with."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import Seat
from rules.rng import Rng


@dataclass(frozen=True)
class ContractCase:
    """A game's own part of the contract: an invariant of any state (fails with a message); a scramble of what
    `seat` (None: nobody) cannot see, shuffled, with every size it can see kept; and the player counts and options
    to play out (none: its fewest and most players, with the default options)."""

    invariant: Callable[[Any], None]
    scramble: Callable[[Any, Seat | None, random.Random], Any]
    configs: Sequence[tuple[int, Mapping[str, object]]] = ()


def deal(pool: list[int], sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Shuffle `pool` and cut it into parts of `sizes` (which add up to its length)."""
    rng.shuffle(pool)
    parts, start = [], 0
    for size in sizes:
        parts.append(pool[start : start + size])
        start += size
    return parts


def cards(counts: Sequence[int]) -> list[int]:
    """Counts per kind as a list of kinds."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def counts(found: Iterable[int], kinds: int) -> tuple[int, ...]:
    """A list of kinds as counts per kind."""
    tally = Counter(found)
    return tuple(tally[kind] for kind in range(kinds))


def new_rng(rng: random.Random) -> Rng:
    """A different future: the stored generator is hidden from everyone."""
    return Rng(seed=rng.randrange(1 << 30))


def only_the_future(state: Any, seat: Seat | None, rng: random.Random) -> Any:
    """The scramble of a game that hides nothing but its generator."""
    return state.model_copy(update={"rng": new_rng(rng)})
