"""The part of a board that never changes during a game, drawn once per map and language and cached.

Sea and land, every track's car spaces in its colour with its symbol, tunnels edged in black and white dashes, ferry
locomotive spaces dark with a white wheel, city dots, the route-scoring key, and the city names on light plates (so
they read over the bands that will run under them). Drawn at twice the size and shrunk, so edges and text are
smooth; the names and the key are drawn on the shrunk picture from pieces smoothed alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from render.artstore import stored
from render.fonts import font
from render.ttr.geometry import Car
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
from render.ttr.route_key import draw_key, key_size, place_key
from render.ttr.spaces import draw_car_space
from render.ttr.spots import CitySpots, Obstacles, place_spots, text_origin
from render.ttr.sprites import Sprite, band_line, draw_tunnel_rim, tunnel_rims
from render.ttr.text import PICTURE, Labels, city_names, picture_text
from rules.ttr.maps import load_map

SS = 2
"""Supersampling factor of the static layer."""
LABEL_SIZE = 30
"""City names: 8.4 px tall when the 1600 px board is shown 450 px wide."""
PLATE_ALPHA = 225
"""How opaque a name's plate is: the track under it still shows a little, so it reads as lying on the map."""
PLATE_OVER_CAR = 70
"""How opaque it is over a car space, which must show through (the names of crowded cities lie on some)."""

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
def map_art(map_id: str, words: tuple[tuple[str, str], ...]) -> MapArt:
    """Draw (once per map and set of words: `art_words`) the static map layer."""
    layout = map_layout(map_id)
    labels = dict(words)
    name_of = city_names(labels, load_map(map_id))
    face = font(LABEL_SIZE, bold=True, condensed=True)
    obstacles = Obstacles(layout)
    title = picture_text(labels, "key.route_points")
    points = load_map(map_id).rules.route_points
    key = place_key(layout, key_size(font(26, bold=True).getlength(title), len(points)), obstacles)
    spots = place_spots(layout, name_of, face, reserved=[key])
    big = Image.new("RGB", (layout.width * SS, layout.height * SS), SEA)
    draw = ImageDraw.Draw(big)
    _draw_land(draw, layout)
    _draw_tracks(draw, layout)
    _draw_cities(draw, layout)
    image = big.resize((layout.width, layout.height), Image.Resampling.LANCZOS)
    draw_key(image, key, title, points)
    names = tuple(_name_sprite(name_of[c], spots[c], _cars_under(layout, spots[c].label)) for c in layout.cities)
    for sprite in names:
        sprite.paste_on(image)
    return MapArt(image=image, spots=spots, names=names)


def art_words(labels: Labels, map_id: str) -> tuple[tuple[str, str], ...]:
    """Every word the static layer shows, in the caller's language, as (key, text): the city names and the key's
    title. Its cache key, and the words it is drawn with."""
    game_map = load_map(map_id)
    cities = [(f"ttr.city.{city}", name) for city, name in city_names(labels, game_map).items()]
    return tuple(sorted([*cities, (f"{PICTURE}key.route_points", picture_text(labels, "key.route_points"))]))


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
    for track_id in layout.tracks:
        for rim in tunnel_rims(band_line(layout.map_id, track_id)):
            draw_tunnel_rim(draw, [_scaled(p) for p in rim], SS)
    for shape in layout.tracks.values():
        for car in shape.cars:
            shadow = [(x + 1.6 * SS, y + 1.6 * SS) for x, y in car.corners(scale=SS)]
            draw.polygon(shadow, fill=_shade(LAND))
    for track_id, shape in layout.tracks.items():
        track = tracks[track_id]
        for i, car in enumerate(shape.cars):
            locomotive = i < track.ferry_locomotives
            draw_car_space(draw, car, track.color, locomotive=locomotive, scale=SS)


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


def _name_sprite(name: str, spot: CitySpots, cars: Sequence[Car]) -> Sprite:
    """A city's name on its plate, a transparent piece placed exactly where the static layer has it.

    The plate thins to `PLATE_OVER_CAR` over the car spaces it lies on, so a name in a crowded corner never hides
    one: the car (or the band claiming it) shows through, and the letters keep their halo."""
    x0, y0, x1, y1 = spot.label
    left, top = int(x0) - 1, int(y0) - 1
    w, h = int(x1) + 2 - left, int(y1) + 2 - top
    plate_alpha = Image.new("L", (w * SS, h * SS), 0)
    shape = ImageDraw.Draw(plate_alpha)
    plate = ((x0 - left) * SS, (y0 - top) * SS, (x1 - left) * SS, (y1 - top) * SS)
    shape.rounded_rectangle(plate, radius=5 * SS, fill=PLATE_ALPHA)
    thin = Image.new("L", plate_alpha.size, 255)
    cut = ImageDraw.Draw(thin)
    for car in cars:
        cut.polygon([((x - left) * SS, (y - top) * SS) for x, y in car.corners(grow=1.0)], fill=PLATE_OVER_CAR)
    big = Image.new("RGBA", plate_alpha.size, (*LABEL_HALO, 0))
    big.putalpha(ImageChops.darker(plate_alpha, thin))
    draw = ImageDraw.Draw(big)
    face = font(LABEL_SIZE * SS, bold=True, condensed=True)
    ox, oy = text_origin(name, face, plate, SS)
    draw.text((ox, oy), name, font=face, fill=LABEL_INK, stroke_width=SS + 1, stroke_fill=LABEL_HALO)
    small = big.convert("RGBa").resize((w, h), Image.Resampling.LANCZOS).convert("RGBA")
    return Sprite(image=small, x=left, y=top)


def _cars_under(layout: MapLayout, box: tuple[float, float, float, float]) -> list[Car]:
    """The car spaces that reach into a box."""
    x0, y0, x1, y1 = box
    return [
        car
        for shape in layout.tracks.values()
        for car in shape.cars
        if x0 - 16 < car.center[0] < x1 + 16 and y0 - 16 < car.center[1] < y1 + 16
    ]
