"""A small map for hands and ticket choices: land, free tracks as faint lines, city dots, and what the caller adds.

The base is drawn once per map and width and cached, framed on the cities (no empty sea). Callers add, in board
coordinates, what matters to them: other players' trains (thin), the reader's own (bold), the tracks the reader
could claim now (drawn as free cars with a white halo), and tickets (a dashed line and ringed end dots, named).
Names are placed so that they never cover a ticket's end dot, and their boxes are kept for tests to check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw

from render.artstore import stored
from render.fonts import font
from render.ttr.geometry import Point
from render.ttr.layout import MapLayout, map_layout
from render.ttr.mapart import warped_land
from render.ttr.palette import (
    CARD_FILL,
    COAST,
    DARK_INK,
    LABEL_HALO,
    LABEL_INK,
    LAND,
    LIGHT_INK,
    RGB,
    SEA,
    player_color,
)
from render.ttr.symbols import draw_station_icon
from rules.ttr.maps import load_map

SS = 2
"""Drawing happens at this many times the final size; `finish` shrinks it, so lines and names come out smooth."""
FRAME_MARGIN = 34.0
"""Board pixels kept around the outermost cities, room for their end dots."""
DOT_RADIUS = 5.5
"""Radius of a ticket's end dot, in final pixels per 100 px of map width (so it grows with the map)."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Dot:
    """A ticket's end dot in the finished picture's pixels."""

    city: str
    x: float
    y: float
    r: float

    def box(self) -> Box:
        """The dot's bounding square."""
        return self.x - self.r, self.y - self.r, self.x + self.r, self.y + self.r


@dataclass(slots=True)
class _Ticket:
    a: str
    b: str
    color: RGB
    line: bool


@dataclass(slots=True)
class Placed:
    """Where `finish` put the end dots and the names, in the finished picture's pixels."""

    dots: list[Dot] = field(default_factory=list)
    names: dict[str, Box] = field(default_factory=dict)


class MiniMap:
    """A copy of the cached base at `width` pixels, with helpers to draw on it in board coordinates."""

    def __init__(self, map_id: str, width: int, *, name_size: int = 16) -> None:
        self.layout = map_layout(map_id)
        self.frame = map_frame(map_id)
        self.width = width
        self.k = width / (self.frame[2] - self.frame[0]) * SS
        self.image = mini_base(map_id, width).copy()
        self.draw = ImageDraw.Draw(self.image)
        self.name_size = name_size
        self.dot_r = DOT_RADIUS * max(1.0, width / 400) * SS
        self.tickets: list[_Ticket] = []
        self.names: dict[str, str] = {}
        self.placed = Placed()

    def at(self, p: tuple[float, float]) -> tuple[float, float]:
        """A board point in this mini map's (supersampled) pixels."""
        return (p[0] - self.frame[0]) * self.k, (p[1] - self.frame[1]) * self.k

    def others(self, owners: Mapping[int, int], seat: int, colors: Mapping[int, int]) -> None:
        """Trace every other player's claimed tracks thinly in their colour (`colors`: seat → colour index)."""
        for track_id, owner in sorted(owners.items()):
            if owner != seat:
                self._line(track_id, player_color(colors.get(owner, owner)), 2.2, 0.8)

    def trains(self, track_ids: Iterable[int], color_index: int, *, width: float = 4.5) -> None:
        """Trace claimed tracks boldly in a player's colour, edged in dark ink."""
        for track_id in track_ids:
            self._line(track_id, player_color(color_index), width, 1.4)

    def stations(self, cities: Iterable[str], color_index: int) -> None:
        """Draw a station in a player's colour on each of these cities."""
        size = 9 * SS * max(1.0, self.width / 500)
        for city in cities:
            x, y = self.at(self.layout.cities[city])
            box = (x - size / 2, y - size * 1.1, x + size / 2, y + size * 0.1)
            draw_station_icon(self.draw, box, player_color(color_index), DARK_INK, door=False)

    def claimable(self, track_ids: Iterable[int]) -> None:
        """Show tracks the reader could claim now as free cars in the track's colour on a white halo."""
        colors = {t.id: t.color for t in load_map(self.layout.map_id).tracks}
        shapes = [self.layout.tracks[t] for t in sorted(track_ids)]
        for shape in shapes:
            path = [self.at(p) for p in shape.path]
            self.draw.line(path, fill=LIGHT_INK, width=round(7 * SS))
        scale = self.k
        for shape in shapes:
            fill = CARD_FILL[colors[shape.id]]
            for car in shape.cars:
                corners = [(x - self.frame[0] * scale, y - self.frame[1] * scale) for x, y in car.corners(0, scale)]
                self.draw.polygon(corners, fill=fill, outline=DARK_INK, width=max(1, round(0.6 * SS)))

    def ticket(self, a: str, b: str, color: RGB, names: tuple[str, str] | None = None, *, line: bool = True) -> None:
        """Mark a ticket: a dashed line between its cities (unless `line` is off), both ends dotted, named if given."""
        self.tickets.append(_Ticket(a, b, color, line))
        if names:
            self.names.update({a: names[0], b: names[1]})

    def finish(self) -> Image.Image:
        """The finished mini map at its real size: ticket lines, end dots, then names where they cover no dot."""
        for t in self.tickets:
            if t.line:
                _dashed(self.draw, self.at(self.layout.cities[t.a]), self.at(self.layout.cities[t.b]), t.color)
        dots: dict[str, Dot] = {}
        r = self.dot_r
        for t in self.tickets:
            for city in (t.a, t.b):
                x, y = self.at(self.layout.cities[city])
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=t.color, outline=DARK_INK, width=round(1.5 * SS))
                dots[city] = Dot(city, x, y, r)
        face = font(self.name_size * SS, bold=True)
        stroke = round(1.5 * SS)
        inked = {c: face.getbbox(n, stroke_width=stroke) for c, n in self.names.items()}
        boxes = place_names(
            {c: self.at(self.layout.cities[c]) for c in self.names},
            inked,
            list(dots.values()),
            (self.image.width, self.image.height),
            gap=r + 1.5 * SS,
        )
        for city, box in boxes.items():
            left, top = inked[city][:2]
            self.draw.text(
                (box[0] - left, box[1] - top),
                self.names[city],
                font=face,
                fill=LABEL_INK,
                stroke_width=stroke,
                stroke_fill=LABEL_HALO,
            )
        self.placed = Placed(
            dots=[Dot(d.city, d.x / SS, d.y / SS, d.r / SS) for d in dots.values()],
            names={c: (b[0] / SS, b[1] / SS, b[2] / SS, b[3] / SS) for c, b in boxes.items()},
        )
        return self.image.reduce(SS)

    def _line(self, track_id: int, color: RGB, width: float, edge: float) -> None:
        # Only wide lines need round joints; on thin ones they cost time and show nothing.
        path = [self.at(p) for p in self.layout.tracks[track_id].path]
        joint = "curve" if width > 4 else None
        self.draw.line(path, fill=DARK_INK, width=round((width + 2 * edge) * SS), joint=joint)
        self.draw.line(path, fill=color, width=round(width * SS), joint=joint)


def place_names(
    points: Mapping[str, tuple[float, float]],
    sizes: Mapping[str, tuple[float, float, float, float]],
    dots: list[Dot],
    room: tuple[int, int],
    gap: float,
) -> dict[str, Box]:
    """Put each city's name beside its point: above, below, right or left, inside `room`, covering no dot.

    Above and below a name may slide sideways to stay inside, left and right it may slide up or down: a slide
    never brings it over its own dot. Among the places left, the one overlapping the fewest names already placed
    wins; a place over another city's dot is taken only if there is no other.
    """
    placed: dict[str, Box] = {}
    width, height = room
    for city in sorted(points, key=lambda c: (points[c][1], points[c][0])):
        x, y = points[city]
        left, top, right, bottom = sizes[city]
        w, h = right - left, bottom - top
        tries = [
            (_slide(x - w / 2, w, width), y - gap - h),
            (_slide(x - w / 2, w, width), y + gap),
            (x + gap, _slide(y - h / 2, h, height)),
            (x - gap - w, _slide(y - h / 2, h, height)),
        ]
        boxes = [(tx, ty, tx + w, ty + h) for tx, ty in tries]
        inside = [b for b in boxes if b[0] >= 0 and b[1] >= 0 and b[2] <= width and b[3] <= height]
        candidates = inside or [_clamped(b, width, height) for b in boxes]
        ranked = [
            (any(_overlap(box, d.box()) > 0 for d in dots), sum(_overlap(box, o) for o in placed.values()), k, box)
            for k, box in enumerate(candidates)
        ]
        placed[city] = min(ranked)[3]
    return placed


def _slide(start: float, size: float, room: float) -> float:
    return min(max(start, 0.0), room - size)


def _clamped(box: Box, width: float, height: float) -> Box:
    w, h = box[2] - box[0], box[3] - box[1]
    x, y = _slide(box[0], w, width), _slide(box[1], h, height)
    return x, y, x + w, y + h


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], color: RGB) -> None:
    """A dashed line edged in dark ink: the straight 'as the crow flies' line of a ticket."""
    (ax, ay), (bx, by) = a, b
    length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
    steps = max(2, int(length // (9 * SS)))
    for ink, width, extra in ((DARK_INK, 5 * SS, 0.2), (color, 3 * SS, 0.0)):
        for i in range(0, steps, 2):
            t0, t1 = max(0.0, (i - extra) / steps), min(1.0, (i + 1 + extra) / steps)
            seg = (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1)
            draw.line(seg, fill=ink, width=width)


@cache
def map_frame(map_id: str) -> Box:
    """The part of the board a mini map shows: the cities' bounding box and a margin, in board pixels."""
    layout = map_layout(map_id)
    xs = [x for x, _ in layout.cities.values()]
    ys = [y for _, y in layout.cities.values()]
    return (
        max(0.0, min(xs) - FRAME_MARGIN),
        max(0.0, min(ys) - FRAME_MARGIN),
        min(float(layout.width), max(xs) + FRAME_MARGIN),
        min(float(layout.height), max(ys) + FRAME_MARGIN),
    )


@stored(maxsize=16)
def mini_base(map_id: str, width: int) -> Image.Image:
    """The mini map's unchanging base at `SS` times `width`: land, tracks as faint coloured lines, city dots."""
    layout = map_layout(map_id)
    x0, y0, x1, y1 = map_frame(map_id)
    k = width / (x1 - x0) * SS
    big = Image.new("RGB", (width * SS, round((y1 - y0) * width / (x1 - x0)) * SS), SEA)
    draw = ImageDraw.Draw(big)

    def at(p: Point) -> Point:
        return (p[0] - x0) * k, (p[1] - y0) * k

    rings = [[at(p) for p in ring] for ring in warped_land(map_id)]
    for ring in rings:
        draw.line([*ring, ring[0]], fill=COAST, width=2 * SS, joint="curve")
    for ring in rings:
        draw.polygon(ring, fill=LAND)
    _tracks(draw, layout, at)
    r = 2.4 * SS * max(1.0, width / 500)
    for p in layout.cities.values():
        x, y = at(p)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(120, 110, 100))
    return big


def _tracks(draw: ImageDraw.ImageDraw, layout: MapLayout, at: Callable[[Point], Point]) -> None:
    colors = {t.id: t.color for t in load_map(layout.map_id).tracks}
    for track_id, shape in layout.tracks.items():
        fill = CARD_FILL[colors[track_id]]
        soft = tuple((c + 2 * land) // 3 for c, land in zip(fill, LAND, strict=True))
        draw.line([at(p) for p in shape.path], fill=soft, width=max(2, round(1.6 * SS)))
