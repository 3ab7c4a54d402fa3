"""Small smooth pieces pasted on the board each turn: claimed bands, marks around them, closed twins, stations.

A claimed track is one continuous band in its owner's colour with a dark outline and the owner's number along
it: wider than a free track's faded car spaces, so "claimed" reads at the size Discord shows the board whatever
the hue. A tunnel keeps the mark it has free: its outline is black and white dashes (`tunnel_rims`), which the
static art draws where the band's edge will be; a ferry's locomotive spaces keep their dark plate with a white
wheel (`draw_locomotive_plate`), drawn over the band. Black and white stand out on every player's colour, and the
dashes and the plates are patterns of light and dark, not of hue. Each piece is drawn at twice the size and shrunk
once, then cached, so a turn only pastes ready pieces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.geometry import Point, at_length, cumulative, offset_polyline
from render.ttr.layout import map_layout
from render.ttr.palette import (
    ACCENT,
    BAND_OUTLINE,
    CLOSED_FILL,
    DARK_INK,
    HIGHLIGHT,
    WINNER_GLOW,
    ink_on,
    player_color,
)
from render.ttr.spaces import SLIM
from render.ttr.symbols import draw_station_icon, draw_symbol
from rules.ttr.maps import load_map

SS = 2
BAND = 15.0
"""Width of a claimed band's colour on a single track (a free car space is 9)."""
BAND_DOUBLE = 10.5
"""Width of a band's colour on a double route's track, so two claimed tracks still show as two bands."""
OUTLINE = 2.5
"""The band's dark edge on each side."""
TUNNEL_OUTLINE = 4.0
"""A tunnel's edge on each side, black and white dashes: wider than a plain band's, so the dashes read small."""
TUNNEL_DASH = 8.0
"""Length of each black or white dash of a tunnel's edge."""
DOUBLE_SHIFT = 1.5
"""How far a double track's band moves away from its twin, leaving a gap between two claimed bands."""
STATION_SIZE = 26
Mark = Literal["last", "winner", "tunnel"]
"""`last`: the last move (white in black); `winner`: the longest-trail winner's trail (gold in black);
`tunnel`: a tunnel being paid (amber in black, round its free spaces)."""


@dataclass(frozen=True, slots=True)
class Sprite:
    """An RGBA piece and the board position of its top-left corner."""

    image: Image.Image
    x: int
    y: int

    def paste_on(self, board: Image.Image) -> None:
        """Paste onto the board image, blending by the piece's alpha."""
        board.paste(self.image, (self.x, self.y), self.image)


@dataclass(frozen=True, slots=True)
class BandLine:
    """The centre line of a track's band from the back of its first car to the front of its last, and its width."""

    points: tuple[Point, ...]
    width: float
    """Width of the band's colour (the outline comes on top of it)."""
    numbers: tuple[Point, ...]
    """Where the owner's number goes along the band."""
    outline: float
    """Width of its edge on each side (a tunnel's is wider)."""
    tunnel: bool
    rims: tuple[int, ...]
    """The sides a tunnel's dashed edge is drawn on, as the sign of an `offset_polyline` shift: both for a single
    track, the outer one for a double (the inner one would run over its twin's spaces)."""
    locomotives: tuple[Point, ...]
    """A ferry's locomotive spaces: where their plates go along the band (one carries the owner's number when every
    space is a locomotive's)."""


@cache
def band_line(map_id: str, track_id: int) -> BandLine:
    """Where a track's band runs: through its cars' centres, a double's pushed a little away from its twin."""
    layout = map_layout(map_id)
    cars = layout.tracks[track_id].cars
    track = next(t for t in load_map(map_id).tracks if t.id == track_id)
    centres = [car.center for car in cars]
    rims: tuple[int, ...] = (1, -1)
    if track.partner is not None and track.partner in layout.tracks:
        twins = [c.center for c in layout.tracks[track.partner].cars]
        centres = [_away(c, min(twins, key=lambda t: math.dist(t, c)), DOUBLE_SHIFT) for c in centres]
        rims = (_outer_side(cars[0].center, cars[0].angle, twins[0]),)
    first, last = cars[0], cars[-1]
    start = _along(centres[0], first.angle, -first.length / 2)
    end = _along(centres[-1], last.angle, last.length / 2)
    n = len(cars)
    plates = range(track.ferry_locomotives)
    numbered = [i for i in range(n) if i % 2 == (n // 2) % 2]
    numbers = tuple(centres[i] for i in ([i for i in numbered if i not in plates] or numbered))
    return BandLine(
        points=(start, *centres, end),
        width=BAND if track.partner is None else BAND_DOUBLE,
        numbers=numbers,
        outline=TUNNEL_OUTLINE if track.tunnel else OUTLINE,
        tunnel=track.tunnel,
        rims=rims if track.tunnel else (),
        locomotives=tuple(centres[i] for i in plates),
    )


def _outer_side(p: Point, angle: float, twin: Point) -> int:
    """The sign of the `offset_polyline` shift that moves away from the twin, for a line heading `angle` at `p`."""
    left = -math.sin(angle) * (twin[0] - p[0]) + math.cos(angle) * (twin[1] - p[1])
    return -1 if left > 0 else 1


def _away(p: Point, other: Point, shift: float) -> Point:
    d = math.dist(p, other) or 1.0
    return p[0] + (p[0] - other[0]) / d * shift, p[1] + (p[1] - other[1]) / d * shift


def _along(p: Point, angle: float, s: float) -> Point:
    return p[0] + math.cos(angle) * s, p[1] + math.sin(angle) * s


def _canvas(points: Sequence[Point], grow: float) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    """A transparent supersampled canvas covering these points grown by `grow`, and its board origin."""
    x0 = int(min(x for x, _ in points) - grow) - 2
    y0 = int(min(y for _, y in points) - grow) - 2
    w = int(max(x for x, _ in points) + grow) + 3 - x0
    h = int(max(y for _, y in points) + grow) + 3 - y0
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    return big, ImageDraw.Draw(big), x0, y0


def _shrink(big: Image.Image, x0: int, y0: int) -> Sprite:
    """Shrink a supersampled piece with premultiplied alpha (no dark fringes)."""
    small = big.convert("RGBa").resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS).convert("RGBA")
    return Sprite(image=small, x=x0, y=y0)


def _local(points: Sequence[Point], x0: int, y0: int) -> list[Point]:
    return [_at(p, x0, y0) for p in points]


def _at(p: Point, x0: int, y0: int) -> Point:
    """A board point on a supersampled canvas whose origin is (x0, y0) on the board."""
    return (p[0] - x0) * SS, (p[1] - y0) * SS


def _stretched(points: Sequence[Point], extra: float) -> list[Point]:
    """The polyline lengthened by `extra` at both ends (PIL's lines end square at their last point)."""
    (ax, ay), (bx, by) = points[0], points[1]
    (cx, cy), (dx, dy) = points[-2], points[-1]
    la, lb = math.dist(points[0], points[1]) or 1.0, math.dist(points[-2], points[-1]) or 1.0
    start = (ax - (bx - ax) / la * extra, ay - (by - ay) / la * extra)
    end = (dx + (dx - cx) / lb * extra, dy + (dy - cy) / lb * extra)
    return [start, *points[1:-1], end]


def _line(draw: ImageDraw.ImageDraw, points: Sequence[Point], width: float, fill: tuple[int, ...]) -> None:
    draw.line(list(points), fill=fill, width=max(1, round(width * SS)), joint="curve")


@lru_cache(maxsize=2048)
def band_sprite(map_id: str, track_id: int, color_index: int) -> Sprite:
    """A claimed track: one band in the owner's colour, outlined dark, with the owner's number along it; a tunnel's
    outline dashed black and white, a ferry's locomotive plates on it."""
    line = band_line(map_id, track_id)
    big, draw, x0, y0 = _canvas(line.points, line.width / 2 + line.outline + 3)
    pts = _local(line.points, x0, y0)
    shadow = [(x + 1.6 * SS, y + 1.6 * SS) for x, y in _stretched(pts, line.outline * SS)]
    _line(draw, shadow, line.width + 2 * line.outline, (0, 0, 0, 90))
    _line(draw, _stretched(pts, line.outline * SS), line.width + 2 * line.outline, BAND_OUTLINE)
    color = player_color(color_index)
    _line(draw, pts, line.width, color)
    for rim in tunnel_rims(line):
        draw_tunnel_rim(draw, _local(rim, x0, y0), SS)
    size = (line.width - 1) * SS
    for centre in line.locomotives:
        draw_locomotive_plate(draw, _at(centre, x0, y0), size, wheel=centre not in line.numbers)
    face = font(round(size), bold=True)
    for centre in line.numbers:
        ink = HIGHLIGHT if centre in line.locomotives else ink_on(color)
        draw.text(_at(centre, x0, y0), str(color_index + 1), font=face, fill=ink, anchor="mm")
    return _shrink(big, x0, y0)


def band_reach(map_id: str, track_id: int) -> float:
    """Half the width of a track's claimed band, outline included."""
    line = band_line(map_id, track_id)
    return line.width / 2 + line.outline


def tunnel_rims(line: BandLine) -> list[list[Point]]:
    """The middle lines of a tunnel's dashed edges (none for another track), where its band's outline will be."""
    return [offset_polyline(line.points, side * (line.width + line.outline) / 2) for side in line.rims]


def draw_tunnel_rim(draw: ImageDraw.ImageDraw, points: Sequence[Point], scale: float) -> None:
    """A tunnel's edge along `points` (in pixels at `scale`): black, every other dash white."""
    _line(draw, points, TUNNEL_OUTLINE * scale / SS, DARK_INK)
    for piece in _dashes(points, TUNNEL_DASH * scale):
        _line(draw, piece, TUNNEL_OUTLINE * scale / SS, HIGHLIGHT)


def draw_locomotive_plate(draw: ImageDraw.ImageDraw, centre: Point, size: float, *, wheel: bool) -> None:
    """A ferry's locomotive space on a band: a dark disk `size` across with the locomotive's white wheel (or, where
    every space is a locomotive's, the owner's number in white in its stead)."""
    x, y = centre
    r = size / 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=DARK_INK)
    if wheel:
        draw_symbol(draw, "wheel", centre, size * 0.7, HIGHLIGHT)


@lru_cache(maxsize=256)
def mark_sprite(map_id: str, track_id: int, mark: Mark) -> Sprite:
    """A high-contrast mark around a track, pasted under its band, with a hole that leaves its free spaces seen."""
    half = band_reach(map_id, track_id)
    big, draw, x0, y0 = _canvas(band_line(map_id, track_id).points, half + 16)
    pts = _stretched(_local(band_line(map_id, track_id).points, x0, y0), 6 * SS)
    ring = {"last": HIGHLIGHT, "winner": WINNER_GLOW, "tunnel": ACCENT}[mark]
    _line(draw, pts, 2 * half + 26, DARK_INK)
    _line(draw, pts, 2 * half + 18, ring)
    _line(draw, pts, 2 * half - 2, (0, 0, 0, 0))  # a hole: a tunnel tried or being paid shows its free spaces
    return _shrink(big, x0, y0)


def _dashes(points: Sequence[Point], dash: float) -> list[list[Point]]:
    """Every other `dash`-long piece of a polyline."""
    lengths = cumulative(points)
    pieces = []
    s = 0.0
    while s < lengths[-1]:
        end = min(s + dash, lengths[-1])
        inner = [p for p, at in zip(points, lengths, strict=True) if s < at < end]
        pieces.append([at_length(points, lengths, s)[0], *inner, at_length(points, lengths, end)[0]])
        s += 2 * dash
    return pieces


@lru_cache(maxsize=256)
def closed_sprite(map_id: str, track_id: int) -> Sprite:
    """A track closed for good (the twin of a claimed double with 2–3 players): greyed spaces crossed out."""
    cars = map_layout(map_id).tracks[track_id].cars
    corners = [p for car in cars for p in car.corners()]
    big, draw, x0, y0 = _canvas(corners, 2)
    for car in cars:
        local = _local(car.corners(grow=SLIM + 0.6), x0, y0)
        draw.polygon(local, fill=CLOSED_FILL, outline=DARK_INK, width=SS)
        a, b, c, d = local
        draw.line([a, c], fill=DARK_INK, width=2 * SS)
        draw.line([b, d], fill=DARK_INK, width=2 * SS)
    return _shrink(big, x0, y0)


@lru_cache(maxsize=16)
def station_sprite(color_index: int) -> Image.Image:
    """A station in the owner's colour with the owner's number, centred on its spot when pasted."""
    size = STATION_SIZE * SS
    big = Image.new("RGBA", (size + 4 * SS, size + 4 * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    color = player_color(color_index)
    box = (2 * SS + 2, 2 * SS + 2, size + 2 * SS + 2, size + 2 * SS + 2)
    shadow = tuple(v + 1.5 * SS for v in box)
    draw.rectangle((shadow[0], shadow[1] + (shadow[3] - shadow[1]) * 0.45, shadow[2], shadow[3]), fill=(0, 0, 0, 100))
    draw_station_icon(draw, box, color, DARK_INK, door=False)
    cx, cy = (box[0] + box[2]) / 2, box[1] + (box[3] - box[1]) * 0.62
    draw.text((cx, cy), str(color_index + 1), font=font(14 * SS, bold=True), fill=ink_on(color), anchor="mm")
    return big.convert("RGBa").resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS).convert("RGBA")


@cache
def station_mark() -> Image.Image:
    """The last move's white-in-black ring around a station, centred on the station's spot when pasted."""
    r = STATION_SIZE * 0.78
    size = round(2 * r + 8)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * SS / 2
    draw.ellipse((c - (r + 3) * SS, c - (r + 3) * SS, c + (r + 3) * SS, c + (r + 3) * SS), fill=DARK_INK)
    draw.ellipse((c - r * SS, c - r * SS, c + r * SS, c + r * SS), fill=HIGHLIGHT)
    return big.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")
