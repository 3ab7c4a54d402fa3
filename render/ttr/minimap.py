"""A small map for hands and ticket choices: land, free tracks as faint lines, city dots, and what the caller adds.

The base is drawn once per map and width and cached, framed on the cities (no empty sea). Callers add, in board
coordinates, what matters to them, each kind of line with a pattern of its own, not only a colour of its own
(`LineKind`): the reader's trains (bold, edged dark), other players' (thin, edged dark), the tracks the reader could
claim now (the track's colour glowing on a wide white halo), closed double tracks (grey, crossed out), and tickets
(a dotted line as the crow flies, ringed end dots, named). `swatch` draws a short piece of each line the same way,
for a legend. Names are placed so that they never cover a ticket's end dot, and their boxes are kept for tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from render.artstore import stored
from render.fonts import font
from render.ttr.geometry import Point, at_length, cumulative
from render.ttr.layout import MapLayout, map_layout
from render.ttr.mapart import warped_land
from render.ttr.palette import (
    CARD_FILL,
    CLOSED_FILL,
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
LineKind = Literal["yours", "others", "claimable", "closed", "ticket"]
DOT_STEP = 9.0
"""Pixels between the dots of a ticket's line."""
CROSS_STEP = 14.0
"""Pixels between the crosses on a closed track."""
YOURS_WIDTH = 7.0
"""Width of the reader's own claimed tracks' colour."""


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
                self._track(track_id, "others", player_color(colors.get(owner, owner)))

    def trains(self, track_ids: Iterable[int], color_index: int, *, width: float = YOURS_WIDTH) -> None:
        """Trace claimed tracks boldly in a player's colour, edged in dark ink."""
        for track_id in track_ids:
            draw_line(self.draw, "yours", self._path(track_id), player_color(color_index), SS, width=width)

    def closed(self, track_ids: Iterable[int]) -> None:
        """Show tracks closed for good (a claimed double's twin with 2–3 players): grey, crossed out."""
        for track_id in track_ids:
            self._track(track_id, "closed", CLOSED_FILL)

    def stations(self, cities: Iterable[str], color_index: int) -> None:
        """Draw a station in a player's colour on each of these cities."""
        size = 9 * SS * max(1.0, self.width / 500)
        for city in cities:
            x, y = self.at(self.layout.cities[city])
            box = (x - size / 2, y - size * 1.1, x + size / 2, y + size * 0.1)
            draw_station_icon(self.draw, box, player_color(color_index), DARK_INK, door=False)

    def claimable(self, track_ids: Iterable[int]) -> None:
        """Show tracks the reader could claim now in the track's colour, glowing on a white halo."""
        colors = {t.id: t.color for t in load_map(self.layout.map_id).tracks}
        shapes = sorted(track_ids)
        for track_id in shapes:  # every halo first, so one track's halo never covers another's colour
            draw_line(self.draw, "claimable", self._path(track_id), LIGHT_INK, SS, part="under")
        for track_id in shapes:
            draw_line(self.draw, "claimable", self._path(track_id), CARD_FILL[colors[track_id]], SS, part="over")

    def ticket(self, a: str, b: str, color: RGB, names: tuple[str, str] | None = None, *, line: bool = True) -> None:
        """Mark a ticket: a dotted line between its cities (unless `line` is off), both ends dotted, named if given."""
        self.tickets.append(_Ticket(a, b, color, line))
        if names:
            self.names.update({a: names[0], b: names[1]})

    def finish(self) -> Image.Image:
        """The finished mini map at its real size: ticket lines, end dots, then names where they cover no dot."""
        for t in self.tickets:
            if t.line:
                ends = [self.at(self.layout.cities[t.a]), self.at(self.layout.cities[t.b])]
                draw_line(self.draw, "ticket", ends, t.color, SS)
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

    def _path(self, track_id: int) -> list[Point]:
        return [self.at(p) for p in self.layout.tracks[track_id].path]

    def _track(self, track_id: int, kind: LineKind, color: RGB) -> None:
        draw_line(self.draw, kind, self._path(track_id), color, SS)


def draw_line(
    draw: ImageDraw.ImageDraw,
    kind: LineKind,
    points: Sequence[Point],
    color: RGB,
    scale: float,
    *,
    width: float | None = None,
    part: Literal["all", "under", "over"] = "all",
) -> None:
    """One kind of line along `points` (pixels `scale` times the finished size), the same on the map and in a
    legend (`width`: of a claimed track's colour, its default else); `under` draws only what lies beneath (an edge,
    a halo), `over` the rest."""
    under, over = part in ("all", "under"), part in ("all", "over")
    joint = "curve" if kind in ("yours", "claimable") else None  # round joints cost time and show only on wide lines
    if kind in ("yours", "others"):
        default, edge = (YOURS_WIDTH, 1.4) if kind == "yours" else (2.2, 0.8)
        width = width or default
        if under:
            draw.line(list(points), fill=DARK_INK, width=round((width + 2 * edge) * scale), joint=joint)
        if over:
            draw.line(list(points), fill=color, width=round(width * scale), joint=joint)
    elif kind == "claimable":
        if under:
            draw.line(list(points), fill=LIGHT_INK, width=round(10 * scale), joint=joint)
        if over:
            draw.line(list(points), fill=DARK_INK, width=round(5 * scale), joint=joint)
            draw.line(list(points), fill=color, width=round(3.4 * scale), joint=joint)
    elif kind == "closed" and over:
        draw.line(list(points), fill=color, width=round(2.5 * scale))
        for (x, y), angle in _every(points, CROSS_STEP * scale):
            r = 3.2 * scale
            for turn in (math.pi / 4, -math.pi / 4):
                dx, dy = math.cos(angle + turn) * r, math.sin(angle + turn) * r
                draw.line((x - dx, y - dy, x + dx, y + dy), fill=DARK_INK, width=round(1.4 * scale))
    elif kind == "ticket" and over:
        r = 2.6 * scale
        for (x, y), _ in _every(points, DOT_STEP * scale):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=DARK_INK, width=round(1.0 * scale))


def _every(points: Sequence[Point], step: float) -> list[tuple[Point, float]]:
    """Points `step` apart along a polyline (centred on it, at least two), with the line's direction at each."""
    lengths = cumulative(points)
    n = max(2, int(lengths[-1] // step) + 1)
    start = (lengths[-1] - (n - 1) * step) / 2 if lengths[-1] >= step else 0.0
    spacing = step if lengths[-1] >= step else lengths[-1] / (n - 1)
    return [at_length(points, lengths, start + k * spacing) for k in range(n)]


def swatch(kind: LineKind, color: RGB, size: tuple[int, int], width: float | None = None) -> Image.Image:
    """A short straight piece of one kind of line on a piece of land, drawn as the map draws it (for a legend)."""
    w, h = size
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=4 * SS, fill=LAND)  # a piece of the map's land
    line = [(5.0 * SS, h * SS / 2), (w * SS - 5.0 * SS, h * SS / 2)]
    draw_line(draw, kind, line, color, SS, width=width)
    return big.reduce(SS)


SWATCH = (44, 22)
"""A legend's swatch, in pixels."""


def draw_legend(
    image: Image.Image,
    box: tuple[float, float, float],
    entries: Sequence[tuple[LineKind, RGB, str]],
    size: int,
    ink: RGB,
) -> None:
    """A legend in one row (`box`: its left, middle and right): each kind of line's swatch, then its words, the
    words smaller (down to two thirds) when the row would not fit."""
    draw = ImageDraw.Draw(image)
    left, mid, right = box
    for face_size in range(size, size * 2 // 3 - 1, -1):
        face = font(face_size)
        if sum(SWATCH[0] + 6 + face.getlength(words) + 18 for _, _, words in entries) - 18 <= right - left:
            break
    x = left
    for kind, color, words in entries:
        piece = swatch(kind, color, SWATCH, YOURS_WIDTH if kind == "yours" else None)
        image.paste(piece, (round(x), round(mid - SWATCH[1] / 2)), piece)
        x += SWATCH[0] + 6
        draw.text((x, mid), words, font=face, fill=ink, anchor="lm")
        x += face.getlength(words) + 18


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
