"""A Ticket to Ride map's geometry for the board page (`/web/maps/<map>.json`), in the pictures' pixel space: the
same layout (render/ttr/layout.py) and colours (render/ttr/palette.py) the PNG boards are drawn from.

- `size`: [width, height] of the map area; `land`: the coasts as closed rings of [x, y].
- `cities`: id, name in each language, and centre [x, y].
- `routes` (one per track; a double route is two, `partner` naming the other): its cities, card colour (`gray`:
  any), length, whether a tunnel, how many locomotives a ferry asks for, its centre line `path` ([x, y] points),
  the size of its car spaces `car` ([length, width]) and each space as `slots`: [x, y, angle in degrees], and where
  its claimed `band` runs (render/ttr/sprites.py's band_line): `points`, the colour's `width`, the dark edge's
  `outline` on each side, a tunnel's dashed edges as `rims` (lines of [x, y]), and the band's `numbers` and ferry
  `plates` as [x, y].
- `marks`: the width and dash length of a tunnel's edge, and the size of a free ferry space's wheel.
- `scoring`: points by route length, the longest trail's bonus, a kept station's points, stations per player.
- `palette`: every colour as `#rrggbb` (card and faded track colours by card colour, players by seat, the sea,
  land, rails, cities and marks: a tunnel's edge and the ring round the tunnel being paid, a ferry's plate and
  wheel) and each card colour's symbol for colour-blind players.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from bot.i18n import LANGUAGES, labels
from render.ttr.layout import CITY_RADIUS, map_layout
from render.ttr.mapart import warped_land
from render.ttr.palette import (
    ACCENT,
    BAND_OUTLINE,
    BANNER,
    CAR_OUTLINE,
    CARD_FILL,
    CARD_SYMBOL,
    CITY_FILL,
    CITY_RING,
    CLOSED_FILL,
    COAST,
    DARK_INK,
    HIGHLIGHT,
    LABEL_HALO,
    LABEL_INK,
    LAND,
    LOCOMOTIVE_STRIPES,
    PLAYER_COLORS,
    RAIL,
    RGB,
    SEA,
    WINNER_GLOW,
    free_fill,
)
from render.ttr.spaces import WHEEL
from render.ttr.sprites import TUNNEL_DASH, TUNNEL_OUTLINE, band_line, tunnel_rims
from render.ttr.text import city_names
from rules.ttr.maps import MAP_IDS, load_map

PLACES = 1
"""Decimals kept of every coordinate: a tenth of a pixel is finer than any screen shows the board."""
PATH_STEP = 4
"""Every how many points of a track's centre line are kept: its gentle curve reads the same from a quarter of them."""


@cache
def map_data(map_id: str) -> dict[str, Any]:
    """A bundled map's geometry for the page (KeyError for an unknown map); computed once per map (the layout is
    the pictures' own, cached beside their art)."""
    if map_id not in MAP_IDS:
        raise KeyError(map_id)
    game_map = load_map(map_id)
    layout = map_layout(map_id)
    names = {language: city_names(labels(language), game_map) for language in LANGUAGES}
    routes = []
    for track in game_map.tracks:
        shape = layout.tracks[track.id]
        routes.append(
            {
                "id": track.id,
                "a": track.a,
                "b": track.b,
                "colour": track.color,
                "length": track.length,
                "tunnel": track.tunnel,
                "locomotives": track.ferry_locomotives,
                "partner": track.partner,
                "path": [_point(p) for p in _thinned(shape.path)],
                "car": [_round(shape.cars[0].length), _round(shape.cars[0].width)],
                "slots": [[*_point(c.center), _round(math.degrees(c.angle))] for c in shape.cars],
                "band": _band(map_id, track.id),
            }
        )
    rules = game_map.rules
    return {
        "id": map_id,
        "size": [layout.width, layout.height],
        "land": [[_point(p) for p in ring] for ring in warped_land(map_id)],
        "cities": [
            {
                "id": city.id,
                "name": {language: names[language][city.id] for language in LANGUAGES},
                "x": _round(layout.cities[city.id][0]),
                "y": _round(layout.cities[city.id][1]),
            }
            for city in game_map.cities
        ],
        "city_radius": CITY_RADIUS,
        "routes": routes,
        "scoring": {
            "route_points": {str(length): points for length, points in sorted(rules.route_points.items())},
            "longest_bonus": rules.longest_bonus,
            "station_value": rules.station_value,
            "stations": rules.stations_per_player,
        },
        "marks": {"tunnel_edge": TUNNEL_OUTLINE, "tunnel_dash": TUNNEL_DASH, "wheel": WHEEL},
        "palette": palette(),
    }


def _band(map_id: str, track_id: int) -> dict[str, Any]:
    """Where a track's claimed band runs, its widths, a tunnel's dashed edges and a ferry's plates, as the pictures
    draw them."""
    line = band_line(map_id, track_id)
    return {
        "points": [_point(p) for p in line.points],
        "width": line.width,
        "outline": line.outline,
        "rims": [[_point(p) for p in rim] for rim in tunnel_rims(line)],
        "numbers": [_point(p) for p in line.numbers],
        "plates": [_point(p) for p in line.locomotives],
    }


def palette() -> dict[str, Any]:
    """The pictures' colours as `#rrggbb`, and each card colour's symbol."""
    return {
        "cards": {colour: _hex(fill) for colour, fill in CARD_FILL.items()},
        "free": {colour: _hex(free_fill(colour)) for colour in CARD_FILL},
        "symbols": dict(CARD_SYMBOL),
        "locomotive": [_hex(c) for c in LOCOMOTIVE_STRIPES],
        "tunnel": {"edge": _hex(DARK_INK), "dash": _hex(HIGHLIGHT), "paying": _hex(ACCENT)},
        "ferry": {"plate": _hex(DARK_INK), "wheel": _hex(HIGHLIGHT)},
        "players": [_hex(c) for c in PLAYER_COLORS],
        "sea": _hex(SEA),
        "land": _hex(LAND),
        "coast": _hex(COAST),
        "rail": _hex(RAIL),
        "car_outline": _hex(CAR_OUTLINE),
        "city": _hex(CITY_FILL),
        "city_ring": _hex(CITY_RING),
        "label": _hex(LABEL_INK),
        "label_halo": _hex(LABEL_HALO),
        "highlight": _hex(HIGHLIGHT),
        "ink": _hex(DARK_INK),
        "band_outline": _hex(BAND_OUTLINE),
        "winner_glow": _hex(WINNER_GLOW),
        "closed": _hex(CLOSED_FILL),
        "banner": _hex(BANNER),
    }


def _thinned(path: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """Every `PATH_STEP`th point of a line, and its last."""
    kept = list(path[::PATH_STEP])
    return kept if kept[-1] == path[-1] else [*kept, path[-1]]


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _round(value: float) -> float:
    return round(value, PLACES)


def _point(point: tuple[float, float]) -> list[float]:
    return [_round(point[0]), _round(point[1])]
