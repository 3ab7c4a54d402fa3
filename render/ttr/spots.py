"""Where each city's name and station go, and where the route-scoring key goes: free spots, chosen greedily.

Each name, on its plate, tries places all round its dot (sixteen directions, three distances) and takes the one that
covers the fewest car spaces and least room where claimed bands will lie, never a city dot or another name, and
never leaves the map; busy cities choose first, then every name chooses again once the others
are placed. A station then takes the free corner left beside its dot. The key, placed first, takes the free edge
of the map that its box covers least.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import ImageFont

from render.ttr.geometry import Point
from render.ttr.layout import CITY_RADIUS, MapLayout

Box = tuple[float, float, float, float]

LABEL_GAP = 3.0
PLATE_PAD = 3.0
"""Room between a name's letters and the edge of its plate."""
STATION_DISTANCE = 23.0
STATION_SIZE = 26.0
TRACK_REACH = 10.0
"""How far either side of a track's middle its claimed band reaches (render/ttr/sprites.py), so names keep off it."""
DIRECTIONS = 24
DISTANCES = (0.0, 6.0, 12.0, 18.0)
"""How much farther than touching its dot's ring a name may sit, each farther step a little dearer."""
SWEEPS = 2
CELL = 32.0
NEAR = (650.0, 160.0)
"""Cities farther apart than this across or down never meet in placement: no plate is half as wide or tall."""


@dataclass(frozen=True, slots=True)
class CitySpots:
    """A city's name plate (the name drawn inside it, `PLATE_PAD` from its edges) and its station's centre."""

    label: Box
    station: Point


class Obstacles:
    """Points that sample every car space (its two ends and middle) and the room either side where its claimed band
    will lie, found by the grid cell they are in."""

    def __init__(self, layout: MapLayout) -> None:
        self.cells: dict[tuple[int, int], list[tuple[float, float, int]]] = defaultdict(list)
        """Cell → samples (x, y, what): 0 room for the band, 1 a car's middle, 2 a car's end."""
        for shape in layout.tracks.values():
            for car in shape.cars:
                ux, uy = math.cos(car.angle), math.sin(car.angle)
                for offset in (-TRACK_REACH + 2, 0.0, TRACK_REACH - 2):
                    for s in (-0.4, 0.0, 0.4):
                        x = car.center[0] + ux * car.length * s - uy * offset
                        y = car.center[1] + uy * car.length * s + ux * offset
                        what = 0 if offset else 1 if s == 0.0 else 2
                        self.cells[(int(x // CELL), int(y // CELL))].append((x, y, what))

    def covered(self, box: Box) -> tuple[int, int, int]:
        """How many car ends, car middles and samples of track and band room lie in the box."""
        x0, y0, x1, y1 = box
        counts = [0, 0, 0]
        for cx in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for cy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                for x, y, what in self.cells.get((cx, cy), ()):
                    if x0 <= x <= x1 and y0 <= y <= y1:
                        counts[what] += 1
        return counts[2], counts[1], sum(counts)


def place_spots(
    layout: MapLayout, names: Mapping[str, str], face: ImageFont.FreeTypeFont, reserved: Sequence[Box] = ()
) -> dict[str, CitySpots]:
    """Place every city's name plate and station spot on this layout, clear of the `reserved` boxes."""
    obstacles = Obstacles(layout)
    degree = {c: 0 for c in layout.cities}
    for shape in layout.tracks.values():
        degree[shape.a] += 1
        degree[shape.b] += 1
    order = sorted(layout.cities, key=lambda c: (-degree[c], c))
    sizes = {city: plate_size(names[city], face) for city in order}
    near = {city: _near(layout.cities, city) for city in order}
    placed: dict[str, Box] = {}
    for _ in range(SWEEPS):
        for city in order:
            others = [*(placed[c] for c in near[city] if c in placed), *reserved]
            dots = [layout.cities[c] for c in near[city]]
            candidates = candidate_boxes(layout.cities[city], sizes[city])
            placed[city] = min(candidates, key=lambda box: _label_cost(box, layout, city, dots, obstacles, others))
    stations = {c: _station_spot(c, layout, obstacles, placed) for c in layout.cities}
    return {c: CitySpots(label=placed[c], station=stations[c]) for c in layout.cities}


def plate_size(name: str, face: ImageFont.FreeTypeFont) -> tuple[float, float]:
    """A name plate's width and height: the name's letters, as tall as capitals with descenders, and the padding."""
    left, _, right, _ = face.getbbox(name)
    _, top, _, bottom = _line_box(name, face)
    return right - left + 2 * PLATE_PAD, bottom - top + 2 * PLATE_PAD


def text_origin(name: str, face: ImageFont.FreeTypeFont, plate: Box, scale: float = 1.0) -> Point:
    """Where to draw the name (PIL's top-left anchor) so its letters sit inside the plate at its padding (plate
    and face both drawn `scale` times larger than the board)."""
    left, _, _, _ = face.getbbox(name)
    _, top, _, _ = _line_box(name, face)
    return plate[0] + PLATE_PAD * scale - left, plate[1] + PLATE_PAD * scale - top


def _line_box(name: str, face: ImageFont.FreeTypeFont) -> tuple[float, float, float, float]:
    """The name's ink box grown to a capital's top and a descender's bottom, so every plate of a map is as tall."""
    a = face.getbbox(name)
    b = face.getbbox("Hy")
    return a[0], min(a[1], b[1]), a[2], max(a[3], b[3])


def candidate_boxes(center: Point, size: tuple[float, float]) -> list[Box]:
    """Plates all round a dot: in each direction, the plate's nearest edge `DISTANCES` beyond the dot's ring."""
    x, y = center
    w, h = size
    boxes = []
    for k in range(DIRECTIONS):
        a = 2 * math.pi * k / DIRECTIONS
        ux, uy = math.cos(a), math.sin(a)
        # how far the plate's centre must be for its edge to clear a circle round the dot, along this direction
        reach = min(w / 2 / abs(ux) if ux else math.inf, h / 2 / abs(uy) if uy else math.inf)
        for extra in DISTANCES:
            d = reach + CITY_RADIUS + LABEL_GAP + extra
            cx, cy = x + ux * d, y + uy * d
            boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return boxes


def _near(cities: Mapping[str, Point], city: str) -> list[str]:
    """The other cities close enough to a city for its name to reach them or theirs."""
    x, y = cities[city]
    return [c for c, (cx, cy) in cities.items() if c != city and abs(cx - x) < NEAR[0] and abs(cy - y) < NEAR[1]]


def _label_cost(
    box: Box, layout: MapLayout, city: str, dots: Iterable[Point], obstacles: Obstacles, others: Iterable[Box]
) -> float:
    """Covered track, dots and other plates (never wanted), any part outside the map, and the distance from the dot
    (`dots` and `others`: the nearby cities' dots and name plates, and the boxes kept clear)."""
    cost = 0.0
    if box[0] < 4 or box[1] < 4 or box[2] > layout.width - 4 or box[3] > layout.height - 4:
        cost += 10_000.0
    ends, middles, samples = obstacles.covered(box)
    cost += 400.0 * ends + 60.0 * middles + 4.0 * samples
    gap = _gap(box, layout.cities[city])
    for centre in dots:
        if _overlap(box, (centre[0] - 12, centre[1] - 12, centre[0] + 12, centre[1] + 12)):
            cost += 1000.0
        elif _gap(box, centre) < gap + 6:
            cost += 1000.0  # nearer another dot than its own: it would be read as that city's name
    for other_box in others:
        if _overlap(_grown(box, 2), other_box):
            cost += 1000.0 + _overlap(box, other_box)
    beside = 0.0 if box[1] < layout.cities[city][1] < box[3] else 1.5
    return cost + 0.35 * gap + beside


def _gap(box: Box, p: Point) -> float:
    """How far a point is from a box (0 inside it)."""
    return math.dist(p, (min(max(p[0], box[0]), box[2]), min(max(p[1], box[1]), box[3])))


def _grown(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _station_spot(city: str, layout: MapLayout, obstacles: Obstacles, placed: Mapping[str, Box]) -> Point:
    """The free spot beside a city's dot for its station: away from track, dots and names."""
    cx, cy = layout.cities[city]
    half = STATION_SIZE / 2 + 1

    def cost(angle: float) -> float:
        x, y = cx + math.cos(angle) * STATION_DISTANCE, cy + math.sin(angle) * STATION_DISTANCE
        box = (x - half, y - half, x + half, y + half)
        total = 5.0 * obstacles.covered(box)[2]
        total += sum(_overlap(box, b) for b in placed.values())
        return total + abs(angle + math.pi / 2) * 0.1

    best = min((k * math.pi / 8 - math.pi for k in range(16)), key=cost)
    return cx + math.cos(best) * STATION_DISTANCE, cy + math.sin(best) * STATION_DISTANCE
