"""Exact best use of stations at the end (R-EU-8).

Each station lets its owner borrow one route of another player touching its city, the same route for all their
tickets. With at most 3 stations and a handful of routes per city the search over every combination is small, so
it is exhaustive: the best ticket score, then the most completed tickets, then the first in a stable order. Each
combination costs a few lookups (the tickets a join completes, per pair of components), not a scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


COUNT_WEIGHT = 1 << 10
"""A ticket's gain weighs `2 × points × COUNT_WEIGHT + 1`: more points first, then more tickets (always fewer)."""


def best_station_use(
    n_cities: int,
    own_edges: Sequence[tuple[int, int]],
    station_cities: Sequence[int],
    borrowable: Sequence[Sequence[tuple[int, int, int]]],
    tickets: Sequence[TicketSpec],
) -> StationChoice:
    """Choose, per station, one borrowable (city a, city b, track id) — or none — maximising the ticket score.

    `borrowable[k]` lists the other players' tracks touching `station_cities[k]`. Every combination is tried in a
    stable order (the first best wins), but only on what can change: a borrowed track joins two of the player's
    components, and the score grows by the tickets between the components it joins, looked up per pair.
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
    gains: dict[tuple[int, int], int] = {}
    for a, b, points in tickets:
        x, y = base[a], base[b]
        if x != y:
            gain = 2 * points * COUNT_WEIGHT + 1
            gains[x, y] = gains.get((x, y), 0) + gain
            gains[y, x] = gains.get((y, x), 0) + gain
    pairs = [[None if c is None else (base[c[0]], base[c[1]]) for c in choices] for choices in options]
    best_gain = -1
    best_combo: tuple[int, ...] = ()
    last = len(pairs) - 1

    def search(level: int, group_of: dict[int, tuple[int, ...]], gain: int, combo: tuple[int, ...]) -> None:
        nonlocal best_gain, best_combo
        for index, pair in enumerate(pairs[level]):
            joined, new_groups = gain, group_of
            if pair is not None:
                x, y = pair
                gx = group_of.get(x) or (x,)
                if y not in gx:
                    gy = group_of.get(y) or (y,)
                    joined += sum(gains.get((u, v), 0) for u in gx for v in gy)
                    if level < last:
                        merged = gx + gy
                        new_groups = {**group_of, **dict.fromkeys(merged, merged)}
            if level < last:
                search(level + 1, new_groups, joined, (*combo, index))
            elif joined > best_gain:
                best_gain, best_combo = joined, (*combo, index)

    if pairs:
        search(0, {}, 0, ())
    combo = [options[k][i] for k, i in enumerate(best_combo)]
    extra = [(base[c[0]], base[c[1]]) for c in combo if c is not None]
    labels = components(n_cities, extra) if extra else list(range(n_cities))
    points, done = ticket_outcome([labels[base[i]] for i in range(n_cities)], tickets)
    return StationChoice(tuple(None if c is None else c[2] for c in combo), points, done)
