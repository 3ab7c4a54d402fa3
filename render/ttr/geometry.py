"""Plane geometry the layout needs: curves between cities, positions along them, car rectangles."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]


def bend_curve(a: Point, b: Point, bend: float, samples: int = 32) -> list[Point]:
    """Sample the quadratic curve from `a` to `b` whose middle lies `bend` pixels left of the straight line."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    # A quadratic Bezier's midpoint lies halfway to its control point, so the control sits at twice the bend.
    cx, cy = (ax + bx) / 2 + nx * 2 * bend, (ay + by) / 2 + ny * 2 * bend
    points = []
    for i in range(samples + 1):
        t = i / samples
        u = 1 - t
        points.append((u * u * ax + 2 * u * t * cx + t * t * bx, u * u * ay + 2 * u * t * cy + t * t * by))
    return points


def cumulative(points: Sequence[Point]) -> list[float]:
    """Arc length from the start to each point of a polyline."""
    total = [0.0]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        total.append(total[-1] + math.hypot(x1 - x0, y1 - y0))
    return total


def at_length(points: Sequence[Point], lengths: Sequence[float], s: float) -> tuple[Point, float]:
    """The point at arc length `s` of a polyline and the direction (radians) of the line there."""
    s = min(max(s, 0.0), lengths[-1])
    lo, hi = 0, len(lengths) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if lengths[mid] <= s:
            lo = mid
        else:
            hi = mid
    (x0, y0), (x1, y1) = points[lo], points[hi]
    seg = lengths[hi] - lengths[lo] or 1.0
    f = (s - lengths[lo]) / seg
    return (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f), math.atan2(y1 - y0, x1 - x0)


@dataclass(frozen=True, slots=True)
class Car:
    """One car space of a track: a rectangle centred at `center`, turned by `angle` radians."""

    center: Point
    angle: float
    length: float
    width: float

    def corners(self, grow: float = 0.0, scale: float = 1.0) -> list[Point]:
        """The rectangle's corners, optionally grown on every side and scaled (for supersampled drawing)."""
        cx, cy = self.center
        ux, uy = math.cos(self.angle), math.sin(self.angle)
        hl, hw = self.length / 2 + grow, self.width / 2 + grow
        return [
            ((cx + sx * hl * ux - sy * hw * uy) * scale, (cy + sx * hl * uy + sy * hw * ux) * scale)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]


def place_cars(
    path: Sequence[Point],
    count: int,
    trims: tuple[float, float],
    car: tuple[float, float, float],
    offset: float = 0.0,
) -> list[Car]:
    """Lay `count` cars (length, gap, width) along `path`, leaving `trims` clear at each end, shifted sideways.

    Spare room first lengthens the cars a little, then spreads them evenly; too little room shortens them,
    so every track shows exactly its number of spaces.
    """
    length, gap, width = car
    lengths = cumulative(path)
    start, usable = trims[0], lengths[-1] - trims[0] - trims[1]
    need = count * length + (count - 1) * gap
    if usable >= need:
        car_len = min(length * 1.25, (usable - (count - 1) * gap) / count)
        spare = usable - count * car_len - (count - 1) * gap
        step_gap = gap + spare / (count + 1)
        first = start + spare / (count + 1)
        if count == 1:
            first = start + spare / 2
    else:
        squeeze = max(usable, count * 6.0) / need
        car_len, step_gap = length * squeeze, gap * squeeze
        first = start + (usable - count * car_len - (count - 1) * step_gap) / 2
    cars = []
    for i in range(count):
        mid = first + i * (car_len + step_gap) + car_len / 2
        (x, y), angle = at_length(path, lengths, mid)
        nx, ny = -math.sin(angle), math.cos(angle)
        cars.append(Car(center=(x + nx * offset, y + ny * offset), angle=angle, length=car_len, width=width))
    return cars


def distance_to_polyline(p: Point, points: Sequence[Point]) -> float:
    """Shortest distance from a point to a polyline."""
    px, py = p
    best = math.inf
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        dx, dy = x1 - x0, y1 - y0
        seg = dx * dx + dy * dy
        t = 0.0 if seg == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / seg))
        best = min(best, math.hypot(px - x0 - t * dx, py - y0 - t * dy))
    return best


def offset_polyline(points: Sequence[Point], offset: float) -> list[Point]:
    """Shift every point of a polyline sideways by `offset` (left of the direction of travel)."""
    out = []
    for i, (x, y) in enumerate(points):
        (x0, y0), (x1, y1) = points[max(i - 1, 0)], points[min(i + 1, len(points) - 1)]
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        out.append((x - (y1 - y0) / d * offset, y + (x1 - x0) / d * offset))
    return out


def cars_overlap(a: Car, b: Car, margin: float = 0.0) -> bool:
    """Whether two car rectangles (each grown by `margin`) overlap (separating-axis test)."""
    if math.dist(a.center, b.center) > (a.length + b.length) / 2 + 2 * margin + max(a.width, b.width):
        return False
    pa, pb = a.corners(grow=margin), b.corners(grow=margin)
    for car in (a, b):
        for ux, uy in ((math.cos(car.angle), math.sin(car.angle)), (-math.sin(car.angle), math.cos(car.angle))):
            sa = [x * ux + y * uy for x, y in pa]
            sb = [x * ux + y * uy for x, y in pb]
            if max(sa) < min(sb) or max(sb) < min(sa):
                return False
    return True
