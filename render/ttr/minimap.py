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
    """A copy of the cached base at `width` pixels, with helpers to draw on it in board coordinates."""

    def __init__(self, map_id: str, width: int) -> None:
        self.layout = map_layout(map_id)
        self.k = width / self.layout.width
        self.image = mini_base(map_id, width).copy()
        self.draw = ImageDraw.Draw(self.image)

    def at(self, p: tuple[float, float]) -> tuple[float, float]:
        """A board point in this mini map's pixels."""
        return p[0] * self.k, p[1] * self.k

    def trains(self, track_ids: Iterable[int], color_index: int) -> None:
        """Trace claimed tracks in a player's colour."""
        color = player_color(color_index)
        for track_id in track_ids:
            path = [self.at(p) for p in self.layout.tracks[track_id].path]
            self.draw.line(path, fill=DARK_INK, width=7, joint="curve")
            self.draw.line(path, fill=color, width=4, joint="curve")

    def trail(self, track_ids: Iterable[int], color_index: int) -> None:
        """Trace a longest trail: a wide white halo under the player's colour, so it stands out from other trains."""
        color = player_color(color_index)
        for track_id in track_ids:
            path = [self.at(p) for p in self.layout.tracks[track_id].path]
            self.draw.line(path, fill=DARK_INK, width=13, joint="curve")
            self.draw.line(path, fill=(255, 255, 255), width=10, joint="curve")
            self.draw.line(path, fill=color, width=5, joint="curve")

    def ticket(self, a: str, b: str, color: RGB, names: tuple[str, str] | None = None) -> None:
        """Mark a ticket: a dashed line between its cities, both dots ringed, and their names if given."""
        pa, pb = self.at(self.layout.cities[a]), self.at(self.layout.cities[b])
        _dashed(self.draw, pa, pb, color)
        for p in (pa, pb):
            self.draw.ellipse((p[0] - 7, p[1] - 7, p[0] + 7, p[1] + 7), fill=color, outline=DARK_INK, width=2)
        if names:
            face = font(15, bold=True)
            for (x, y), name in zip((pa, pb), names, strict=True):
                w = face.getlength(name)
                tx = min(max(x - w / 2, 3), self.image.width - w - 3)
                ty = y - 27 if y > 30 else y + 10
                self.draw.text((tx, ty), name, font=face, fill=LABEL_INK, stroke_width=3, stroke_fill=LABEL_HALO)


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], color: RGB) -> None:
    (ax, ay), (bx, by) = a, b
    length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
    steps = int(length // 10)
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1.2) / steps)
        seg = (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1)
        draw.line(seg, fill=DARK_INK, width=6)
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        draw.line(
            (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1), fill=color, width=3
        )


@lru_cache(maxsize=8)
def mini_base(map_id: str, width: int) -> Image.Image:
    """The mini map's unchanging base: land, every track as a thin line in its colour, city dots."""
    layout = map_layout(map_id)
    k = width / layout.width * SS
    height = round(layout.height * width / layout.width)
    big = Image.new("RGB", (width * SS, height * SS), SEA)
    draw = ImageDraw.Draw(big)
    rings = [[_scale(p, k) for p in ring] for ring in warped_land(map_id)]
    for ring in rings:
        draw.line([*ring, ring[0]], fill=COAST, width=2 * SS, joint="curve")
    for ring in rings:
        draw.polygon(ring, fill=LAND)
    _tracks(draw, layout, k)
    r = 2.6 * SS
    for x, y in layout.cities.values():
        x, y = x * k, y * k
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(120, 110, 100))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _tracks(draw: ImageDraw.ImageDraw, layout: MapLayout, k: float) -> None:
    colors = {t.id: t.color for t in load_map(layout.map_id).tracks}
    for track_id, shape in layout.tracks.items():
        fill = CARD_FILL[colors[track_id]]
        soft = tuple((c + 2 * l) // 3 for c, l in zip(fill, LAND, strict=True))
        draw.line([_scale(p, k) for p in shape.path], fill=soft, width=max(2, round(1.6 * SS)))


def _scale(p: tuple[float, float], k: float) -> tuple[float, float]:
    return p[0] * k, p[1] * k
