"""The part of a board that never changes during a game, drawn once per map and language and cached.

Sea and land, every track's car spaces in its colour with its symbol, tunnels framed, ferry locomotive spaces
striped, city dots and names. Drawn at twice the size and shrunk, so edges and text are smooth.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from render.artstore import stored
from render.fonts import font
from render.ttr.layout import CITY_RADIUS, MapLayout, map_layout
from render.ttr.palette import (
    CITY_FILL,
    CITY_RING,
    COAST,
    DARK_INK,
    LABEL_HALO,
    LABEL_INK,
    LAND,
    RAIL,
    SEA,
)
from render.ttr.spaces import draw_car_space
from render.ttr.spots import CitySpots, place_spots
from render.ttr.sprites import Sprite
from rules.ttr.maps import load_map

SS = 2
"""Supersampling factor of the static layer."""
LABEL_SIZE = 26
"""City names: 7 px tall when the 1600 px board is shown 450 px wide."""

_LAND = Path(__file__).parent / "data" / "land.json"


@dataclass(frozen=True, slots=True)
class MapArt:
    """A map's static picture (map area only) and where its names and stations went."""

    image: Image.Image
    spots: dict[str, CitySpots]
    names: tuple[Sprite, ...]
    """Each city's name alone, to paste again over trains that reach it."""


@cache
def land_rings(map_id: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The map's land outlines as (lon, lat) rings (Natural Earth, public domain)."""
    data = json.loads(_LAND.read_text(encoding="utf-8"))
    return tuple(tuple((lon, lat) for lon, lat in ring) for ring in data.get(map_id, []))


@stored(maxsize=4)
def warped_land(map_id: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The land outlines in board pixels, warped to follow the nudged cities (rings of 3 points or more)."""
    layout = map_layout(map_id)
    rings = (tuple(layout.warp(lat, lon) for lon, lat in ring) for ring in land_rings(map_id))
    return tuple(ring for ring in rings if len(ring) > 2)


@stored(maxsize=8)
def map_art(map_id: str, names: tuple[tuple[str, str], ...]) -> MapArt:
    """Draw (once per map and set of city names) the static map layer."""
    layout = map_layout(map_id)
    name_of = dict(names)
    spots = place_spots(layout, name_of, font(LABEL_SIZE, bold=True, condensed=True))
    big = Image.new("RGB", (layout.width * SS, layout.height * SS), SEA)
    draw = ImageDraw.Draw(big)
    _draw_land(draw, layout)
    _draw_tracks(draw, layout)
    _draw_cities(draw, layout)
    _draw_names(draw, layout, name_of, spots)
    image = big.resize((layout.width, layout.height), Image.Resampling.LANCZOS)
    return MapArt(image=image, spots=spots, names=tuple(_name_sprite(name_of[c], spots[c]) for c in layout.cities))


def _draw_land(draw: ImageDraw.ImageDraw, layout: MapLayout) -> None:
    """Coasts first, then land over them: borders between countries vanish under the fill, coasts stay."""
    rings = [[_scaled(p) for p in ring] for ring in warped_land(layout.map_id)]
    for ring in rings:
        draw.line([*ring, ring[0]], fill=COAST, width=3 * SS, joint="curve")
    for ring in rings:
        draw.polygon(ring, fill=LAND)


def _scaled(p: tuple[float, float]) -> tuple[float, float]:
    return p[0] * SS, p[1] * SS


def _draw_tracks(draw: ImageDraw.ImageDraw, layout: MapLayout) -> None:
    tracks = {t.id: t for t in load_map(layout.map_id).tracks}
    for shape in layout.tracks.values():
        draw.line([_scaled(p) for p in shape.path], fill=RAIL, width=SS)
    for shape in layout.tracks.values():
        for car in shape.cars:
            shadow = [(x + 1.6 * SS, y + 1.6 * SS) for x, y in car.corners(scale=SS)]
            draw.polygon(shadow, fill=_shade(LAND))
    for track_id, shape in layout.tracks.items():
        track = tracks[track_id]
        for i, car in enumerate(shape.cars):
            locomotive = i < track.ferry_locomotives
            draw_car_space(draw, car, track.color, tunnel=track.tunnel, locomotive=locomotive, scale=SS)


def _shade(color: tuple[int, int, int]) -> tuple[int, int, int]:
    return (color[0] * 3 // 4, color[1] * 3 // 4, color[2] * 3 // 4)


def _draw_cities(draw: ImageDraw.ImageDraw, layout: MapLayout) -> None:
    r = CITY_RADIUS * SS
    for x, y in layout.cities.values():
        x, y = x * SS, y * SS
        draw.ellipse((x - r - SS, y - r - SS, x + r + SS, y + r + SS), fill=DARK_INK)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=CITY_RING)
        inner = r - 2.5 * SS
        draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=CITY_FILL)


def _name_sprite(name: str, spot: CitySpots) -> Sprite:
    """A city's name with its halo on a transparent piece, placed exactly where the static layer has it."""
    x0, y0, x1, y1 = spot.label
    left, top = int(x0) - 3, int(y0) - 3
    w, h = int(x1) + 5 - left, int(y1) + 5 - top
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    face = font(LABEL_SIZE * SS, bold=True, condensed=True)
    bx, by, _, _ = face.getbbox(name)
    origin = ((x0 + 1 - left) * SS - bx, (y0 + 1 - top) * SS - by)
    draw.text(origin, name, font=face, fill=LABEL_INK, stroke_width=3 * SS // 2 + 1, stroke_fill=LABEL_HALO)
    small = big.convert("RGBa").resize((w, h), Image.Resampling.LANCZOS).convert("RGBA")
    return Sprite(image=small, x=left, y=top)


def _draw_names(
    draw: ImageDraw.ImageDraw, layout: MapLayout, names: dict[str, str], spots: dict[str, CitySpots]
) -> None:
    face = font(LABEL_SIZE * SS, bold=True, condensed=True)
    for city in layout.cities:
        x0, y0, _, _ = spots[city].label
        bx, by, _, _ = face.getbbox(names[city])
        draw.text(
            ((x0 + 1) * SS - bx, (y0 + 1) * SS - by),
            names[city],
            font=face,
            fill=LABEL_INK,
            stroke_width=3 * SS // 2 + 1,
            stroke_fill=LABEL_HALO,
        )
