"""Exact best use of stations at the end (R-EU-8).

Each station lets its owner borrow one route of another player touching its city, the same route for all their
tickets. With at most 3 stations and a handful of routes per city the search over every combination is small, so
it is exhaustive: the best ticket score, then the most completed tickets, then the first in a stable order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from rules.ttr.graph import components

TicketSpec = tuple[int, int, int]
"""(city a, city b, points)."""


@dataclass(frozen=True)
class StationChoice:
    """The best borrowed track per station (None: nothing to borrow) and what it yields."""

    borrowed: tuple[int | None, ...]
    ticket_points: int
    completed: tuple[bool, ...]


def ticket_outcome(labels: Sequence[int], tickets: Sequence[TicketSpec]) -> tuple[int, tuple[bool, ...]]:
    """Score tickets (+ points if both cities share a component, else −) and say which are complete."""
    done = tuple(labels[a] == labels[b] for a, b, _ in tickets)
    points = sum(p if ok else -p for ok, (_, _, p) in zip(done, tickets, strict=True))
    return points, done


def best_station_use(
    n_cities: int,
    own_edges: Sequence[tuple[int, int]],
    station_cities: Sequence[int],
    borrowable: Sequence[Sequence[tuple[int, int, int]]],
    tickets: Sequence[TicketSpec],
) -> StationChoice:
    """Choose, per station, one borrowable (city a, city b, track id) — or none — maximising the ticket score.

    `borrowable[k]` lists the other players' tracks touching `station_cities[k]`.
    """
    base = components(n_cities, own_edges)
    options: list[list[tuple[int, int, int] | None]] = []
    for k in range(len(station_cities)):
        seen: set[tuple[int, int]] = set()
        choices: list[tuple[int, int, int] | None] = [None]
        for a, b, track in borrowable[k]:
            pair = (base[a], base[b])
            if pair[0] != pair[1] and pair not in seen and pair[::-1] not in seen:
                seen.add(pair)
                choices.append((a, b, track))
        options.append(choices)
    best: StationChoice | None = None
    for combo in product(*options):
        extra = [(base[c[0]], base[c[1]]) for c in combo if c is not None]
        labels = components(n_cities, extra) if extra else list(range(n_cities))
        merged = [labels[base[i]] for i in range(n_cities)]
        points, done = ticket_outcome(merged, tickets)
        if best is None or (points, sum(done)) > (best.ticket_points, sum(best.completed)):
            best = StationChoice(tuple(None if c is None else c[2] for c in combo), points, done)
    assert best is not None
    return best
