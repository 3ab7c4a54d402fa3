"""A small map for hands, tickets and score sheets: land, tracks as thin coloured lines, city dots, no names.

The base is drawn once per map and width and cached; callers add what matters to them (tickets, own trains).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.layout import MapLayout, map_layout
from render.ttr.mapart import warped_land
from render.ttr.palette import CARD_FILL, COAST, DARK_INK, LABEL_HALO, LABEL_INK, LAND, RGB, SEA, player_color
from rules.ttr.maps import load_map

SS = 2


class MiniMap:
    """A copy of the cached base at `width` pixels, with helpers to draw on it in board coordinates.

    Drawing happens at twice the size; `finish` shrinks it, so lines and names come out smooth.
    """

    def __init__(self, map_id: str, width: int) -> None:
        self.layout = map_layout(map_id)
        self.width = width
        self.k = width / self.layout.width * SS
        self.image = mini_base(map_id, width, SS).copy()
        self.draw = ImageDraw.Draw(self.image)
        self.names: dict[str, str] = {}

    def at(self, p: tuple[float, float]) -> tuple[float, float]:
        """A board point in this mini map's (supersampled) pixels."""
        return p[0] * self.k, p[1] * self.k

    def _clamped(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """A name's box moved inside the picture."""
        x = min(max(x, 3 * SS), self.image.width - w - 3 * SS)
        y = min(max(y, 2 * SS), self.image.height - h - 6 * SS)
        return x, y, x + w, y + h

    def trains(self, track_ids: Iterable[int], color_index: int, *, width: float = 4) -> None:
        """Trace claimed tracks in a player's colour, edged in dark ink."""
        color = player_color(color_index)
        for track_id in track_ids:
            path = [self.at(p) for p in self.layout.tracks[track_id].path]
            self.draw.line(path, fill=DARK_INK, width=round((width + 2.5) * SS), joint="curve")
            self.draw.line(path, fill=color, width=round(width * SS), joint="curve")

    def ticket(self, a: str, b: str, color: RGB, names: tuple[str, str] | None = None) -> None:
        """Mark a ticket: a dashed line between its cities, both dots ringed, and their names if given."""
        pa, pb = self.at(self.layout.cities[a]), self.at(self.layout.cities[b])
        _dashed(self.draw, pa, pb, color)
        r = 6.5 * SS
        for x, y in (pa, pb):
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=DARK_INK, width=2 * SS)
        if names:
            self.names.update({a: names[0], b: names[1]})

    def finish(self) -> Image.Image:
        """The finished mini map at its real size, the ticket cities named where the names do not collide."""
        face = font(15 * SS, bold=True)
        placed: list[tuple[float, float, float, float]] = []
        for city, name in sorted(self.names.items()):
            x, y = self.at(self.layout.cities[city])
            w, h = face.getlength(name), 15 * SS
            tries = [
                (x - w / 2, y - 27 * SS),
                (x - w / 2, y + 10 * SS),
                (x + 10 * SS, y - h / 2),
                (x - w - 10 * SS, y - h / 2),
            ]
            boxes = [self._clamped(tx, ty, w, h) for tx, ty in tries]
            box = min(boxes, key=lambda b: (sum(_overlap(b, other) for other in placed), boxes.index(b)))
            placed.append(box)
            self.draw.text(
                (box[0], box[1]), name, font=face, fill=LABEL_INK, stroke_width=3 * SS, stroke_fill=LABEL_HALO
            )
        height = round(self.image.height / SS)
        return self.image.resize((self.width, height), Image.Resampling.LANCZOS)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], color: RGB) -> None:
    """A dashed line edged in dark ink: the straight 'as the crow flies' line of a ticket."""
    (ax, ay), (bx, by) = a, b
    length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
    steps = max(2, int(length // (10 * SS)))
    for ink, width, extra in ((DARK_INK, 6 * SS, 0.25), (color, 3 * SS, 0.0)):
        for i in range(0, steps, 2):
            t0, t1 = max(0.0, (i - extra) / steps), min(1.0, (i + 1 + extra) / steps)
            seg = (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1)
            draw.line(seg, fill=ink, width=width)


@lru_cache(maxsize=8)
def mini_base(map_id: str, width: int, scale: int) -> Image.Image:
    """The mini map's unchanging base at `scale` times `width`: land, tracks as thin coloured lines, city dots."""
    layout = map_layout(map_id)
    k = width / layout.width * scale
    height = round(layout.height * width / layout.width)
    big = Image.new("RGB", (width * scale, height * scale), SEA)
    draw = ImageDraw.Draw(big)
    rings = [[_scale(p, k) for p in ring] for ring in warped_land(map_id)]
    for ring in rings:
        draw.line([*ring, ring[0]], fill=COAST, width=2 * scale, joint="curve")
    for ring in rings:
        draw.polygon(ring, fill=LAND)
    _tracks(draw, layout, k, scale)
    r = 2.6 * scale
    for x, y in layout.cities.values():
        x, y = x * k, y * k
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(120, 110, 100))
    return big


def _tracks(draw: ImageDraw.ImageDraw, layout: MapLayout, k: float, scale: int) -> None:
    colors = {t.id: t.color for t in load_map(layout.map_id).tracks}
    for track_id, shape in layout.tracks.items():
        fill = CARD_FILL[colors[track_id]]
        soft = tuple((c + 2 * land) // 3 for c, land in zip(fill, LAND, strict=True))
        draw.line([_scale(p, k) for p in shape.path], fill=soft, width=max(2, round(1.6 * scale)))


def _scale(p: tuple[float, float], k: float) -> tuple[float, float]:
    return p[0] * k, p[1] * k
