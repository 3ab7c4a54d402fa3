"""How each route bends: a search for the bend that fits the route's cars, clears other cities and other routes.

Every route (one track, or the two of a double route) runs on a gentle curve between its two cities. For each
route in turn the bend with the lowest cost is kept, given the others; three sweeps settle it. The cost adds
room missing for the cars, cities the route would run over, other routes it would touch, and a little for the
bend itself, so straight lines win whenever nothing is in the way.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from render.ttr.geometry import Point, bend_curve, cumulative, distance_to_polyline

BENDS: tuple[float, ...] = (0, 5, -5, 10, -10, 16, -16, 24, -24, 34, -34, 46, -46, 60, -60, 78, -78, 100, -100)
SWEEPS = 3
CELL = 24.0
STEP = 7.0


@dataclass(frozen=True, slots=True)
class Route:
    """What the bend search needs of a route: its ends, its cars' room, and how wide it is."""

    key: str
    a: str
    b: str
    need: float
    """Arc length the cars need between the two trimmed ends."""
    half_width: float


@dataclass(frozen=True, slots=True)
class Clearances:
    """Distances the search keeps: trimmed ends, around city dots, between routes."""

    trim: float
    city: float
    between: float
    frame: tuple[float, float, float, float]
    """The map area (x0, y0, x1, y1): cars must stay inside it."""


def choose_bends(
    cities: Mapping[str, Point], routes: Sequence[Route], clear: Clearances, fixed: Mapping[str, float]
) -> dict[str, float]:
    """Return each route's bend (pixels left of the straight line), keeping `fixed` ones as given."""
    bends = {r.key: fixed.get(r.key, 0.0) for r in routes}
    samples = {r.key: _samples(cities, r, bends[r.key], clear.trim) for r in routes}
    grid: dict[tuple[int, int], list[tuple[float, float, str, float]]] = defaultdict(list)
    for r in routes:
        _add(grid, samples[r.key], r)
    order = sorted(routes, key=lambda r: (-r.need, r.key))
    for _ in range(SWEEPS):
        for r in order:
            if r.key in fixed:
                continue
            _remove(grid, samples[r.key], r)
            best = min(BENDS, key=lambda h: (_cost(cities, r, h, clear, grid), abs(h), -h))
            bends[r.key] = best
            samples[r.key] = _samples(cities, r, best, clear.trim)
            _add(grid, samples[r.key], r)
    return bends


def _samples(cities: Mapping[str, Point], r: Route, bend: float, trim: float) -> list[Point]:
    """Points every few pixels along the car-bearing part of the route's curve."""
    curve = bend_curve(cities[r.a], cities[r.b], bend)
    lengths = cumulative(curve)
    total = lengths[-1]
    out = []
    s = trim
    j = 0
    while s <= total - trim:
        while j < len(lengths) - 2 and lengths[j + 1] < s:
            j += 1
        seg = lengths[j + 1] - lengths[j] or 1.0
        f = (s - lengths[j]) / seg
        (x0, y0), (x1, y1) = curve[j], curve[j + 1]
        out.append((x0 + (x1 - x0) * f, y0 + (y1 - y0) * f))
        s += STEP
    return out


def _cell(x: float, y: float) -> tuple[int, int]:
    return int(x // CELL), int(y // CELL)


def _add(grid: dict[tuple[int, int], list[tuple[float, float, str, float]]], pts: list[Point], r: Route) -> None:
    for x, y in pts:
        grid[_cell(x, y)].append((x, y, r.key, r.half_width))


def _remove(grid: dict[tuple[int, int], list[tuple[float, float, str, float]]], pts: list[Point], r: Route) -> None:
    for x, y in pts:
        grid[_cell(x, y)].remove((x, y, r.key, r.half_width))


def _cost(
    cities: Mapping[str, Point],
    r: Route,
    bend: float,
    clear: Clearances,
    grid: Mapping[tuple[int, int], list[tuple[float, float, str, float]]],
) -> float:
    """What is wrong with this route on this bend: missing room, cities run over, routes touched, the bend."""
    curve = bend_curve(cities[r.a], cities[r.b], bend)
    usable = cumulative(curve)[-1] - 2 * clear.trim
    cost = 8.0 * max(0.0, r.need - usable) ** 2 + 0.02 * bend * bend
    pts = _samples(cities, r, bend, clear.trim)
    if not pts:
        return cost + 1e6
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    fx0, fy0, fx1, fy1 = clear.frame
    edge = r.half_width + 4
    outside = max(fx0 + edge - min(xs), fy0 + edge - min(ys), max(xs) - fx1 + edge, max(ys) - fy1 + edge, 0.0)
    cost += 400.0 * outside + 40.0 * outside**2
    reach = clear.city + r.half_width
    for c, (cx, cy) in cities.items():
        if c in (r.a, r.b) or not (min(xs) - reach < cx < max(xs) + reach and min(ys) - reach < cy < max(ys) + reach):
            continue
        d = distance_to_polyline((cx, cy), pts)
        if d < reach:
            cost += 400.0 + 40.0 * (reach - d) ** 2
    for x, y in pts:
        cx, cy = _cell(x, y)
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                for ox, oy, _, other_half in grid.get((gx, gy), ()):
                    want = r.half_width + other_half + clear.between
                    d = math.hypot(x - ox, y - oy)
                    if d < want:
                        cost += 6.0 * (want - d) ** 2
    return cost
