"""Where each city's name and station go: the free spot around the city dot, chosen greedily.

Each name tries eight places around its dot and takes the one that covers the fewest car spaces, dots and names
already placed (and never leaves the map); busy cities choose first. A station then takes the free corner left.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import ImageFont

from render.ttr.geometry import Point
from render.ttr.layout import CITY_RADIUS, MapLayout

Box = tuple[float, float, float, float]

LABEL_GAP = 3.0
STATION_DISTANCE = 23.0
STATION_SIZE = 26.0
_PLACES: tuple[tuple[str, float], ...] = (
    ("e", 0.0),
    ("w", 0.4),
    ("ne", 0.8),
    ("nw", 1.0),
    ("se", 1.2),
    ("sw", 1.4),
    ("n", 1.6),
    ("s", 1.8),
)


@dataclass(frozen=True, slots=True)
class CitySpots:
    """A city's name box (text drawn from its top-left corner) and its station's centre."""

    label: Box
    station: Point


def place_spots(layout: MapLayout, names: Mapping[str, str], face: ImageFont.FreeTypeFont) -> dict[str, CitySpots]:
    """Place every city's name and station spot on this layout."""
    obstacles = _car_points(layout)
    degree = {c: 0 for c in layout.cities}
    for shape in layout.tracks.values():
        degree[shape.a] += 1
        degree[shape.b] += 1
    placed: dict[str, Box] = {}
    for city in sorted(layout.cities, key=lambda c: (-degree[c], c)):
        x0, y0, x1, y1 = face.getbbox(names[city])
        size = (x1 - x0 + 2, y1 - y0 + 2)
        best = min(
            (_label_box(layout.cities[city], size, place) for place, _ in _PLACES),
            key=lambda box: _label_cost(box, city, layout, obstacles, placed) + _preference(box, layout.cities[city]),
        )
        placed[city] = best
    stations = {c: _station_spot(c, layout, obstacles, placed) for c in layout.cities}
    return {c: CitySpots(label=placed[c], station=stations[c]) for c in layout.cities}


def _car_points(layout: MapLayout) -> list[Point]:
    """Points that sample every car space: corners, edge middles and centre."""
    pts: list[Point] = []
    for shape in layout.tracks.values():
        for car in shape.cars:
            corners = car.corners()
            pts.extend(corners)
            pts.extend(
                ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
            )
            pts.append(car.center)
    return pts


def _label_box(center: Point, size: tuple[float, float], place: str) -> Box:
    x, y = center
    w, h = size
    d = CITY_RADIUS + LABEL_GAP
    diag = d * 0.75
    left = {"e": x + d, "w": x - d - w, "n": x - w / 2, "s": x - w / 2}
    top = {"e": y - h / 2, "w": y - h / 2, "n": y - d - h, "s": y + d}
    if place in left:
        return (left[place], top[place], left[place] + w, top[place] + h)
    bx = x + diag if "e" in place else x - diag - w
    by = y - diag - h if "n" in place else y + diag
    return (bx, by, bx + w, by + h)


def _preference(box: Box, center: Point) -> float:
    """Prefer names beside their dot, then above or below: small costs that break ties."""
    (_, y0, x1, y1), (cx, cy) = box, center
    beside = 0.0 if y0 < cy < y1 else 1.0
    left = 0.4 if x1 <= cx else 0.0
    return beside + left


def _inside(p: Point, box: Box, grow: float = 0.0) -> bool:
    return box[0] - grow <= p[0] <= box[2] + grow and box[1] - grow <= p[1] <= box[3] + grow


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _label_cost(box: Box, city: str, layout: MapLayout, obstacles: list[Point], placed: Mapping[str, Box]) -> float:
    """Covered car samples, dots and earlier names, and any part outside the map."""
    cost = 0.0
    if box[0] < 4 or box[1] < 4 or box[2] > layout.width - 4 or box[3] > layout.height - 4:
        cost += 10_000.0
    cost += 6.0 * sum(1 for p in obstacles if _inside(p, box, 1.0))
    for other, (cx, cy) in layout.cities.items():
        if other != city and _overlap(box, (cx - 11, cy - 11, cx + 11, cy + 11)):
            cost += 400.0
    for other_box in placed.values():
        cost += 4.0 * _overlap(box, other_box)
    return cost


def _station_spot(city: str, layout: MapLayout, obstacles: list[Point], placed: Mapping[str, Box]) -> Point:
    """The free spot beside a city's dot for its station: away from cars, dots and names."""
    cx, cy = layout.cities[city]
    half = STATION_SIZE / 2 + 1

    def cost(angle: float) -> float:
        x, y = cx + math.cos(angle) * STATION_DISTANCE, cy + math.sin(angle) * STATION_DISTANCE
        box = (x - half, y - half, x + half, y + half)
        total = 5.0 * sum(1 for p in obstacles if _inside(p, box))
        total += sum(_overlap(box, b) for b in placed.values())
        return total + abs(angle + math.pi / 2) * 0.1

    best = min((k * math.pi / 8 - math.pi for k in range(16)), key=cost)
    return cx + math.cos(best) * STATION_DISTANCE, cy + math.sin(best) * STATION_DISTANCE
