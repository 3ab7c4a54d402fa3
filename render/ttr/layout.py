"""Where everything of a map sits on the board: cities, and every track as its row of car spaces.

Computed once per map and cached: the projection, the nudging of crowded cities, each route's bend and the car
rectangles. Hand-tuned corrections, when the computed layout needs them, live in `data/<map>_layout.json`
(a `LayoutOverrides`: city shifts and fixed bends).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from render.artstore import stored
from render.ttr.geometry import Car, Point, bend_curve, cars_overlap, cumulative, offset_polyline, place_cars
from render.ttr.placement import nudge
from render.ttr.projection import Conic, conic_for, fit
from render.ttr.routes import Clearances, Route, choose_bends
from rules.ttr.maps import GameMap, Track, load_map

MAP_WIDTH = 1600
"""Width of the map area of a board, in pixels (the players' panel is beside it)."""
MARGIN_X, MARGIN_Y = 78.0, 46.0
CAR_LENGTH, CAR_GAP, CAR_WIDTH = 24.0, 4.0, 11.0
DOUBLE_OFFSET = 7.0
"""Distance from a double route's middle line to each of its two tracks."""
CITY_RADIUS = 8.0
TRIM = 15.0
"""Clear space between a city's centre and the first car of a track."""
MIN_CITY_GAP = 84.0
TRIM_STEP, TRIM_ROUNDS = 3.0, 8
TRIM_SQUEEZE = 0.9
"""Cars may shrink to this share of their length when a busy city needs room."""
WARP_REACH = 70.0
"""How far (pixels) a city's nudge carries the land around it."""
WARP_FLOOR = 0.05
"""Weight of 'no shift' in the land warp, so land far from any city stays where it projects."""

_DATA = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class TrackShape:
    """A track on the board: its car spaces and its own centre line from city to city."""

    id: int
    a: str
    b: str
    cars: tuple[Car, ...]
    path: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class MapLayout:
    """A whole map placed on the board: size of the map area, city centres and track shapes."""

    map_id: str
    width: int
    height: int
    cities: dict[str, Point]
    anchors: dict[str, Point]
    """Where each city's real position projects, before nudging (the land is warped to follow the nudges)."""
    tracks: dict[int, TrackShape]
    conic: Conic

    def warp(self, lat: float, lon: float) -> Point:
        """Project a geographic point and shift it as the nearby cities were shifted, so coasts follow them."""
        x, y = self.conic.project(lat, lon)
        total, sx, sy = WARP_FLOOR, 0.0, 0.0
        for city, (ax, ay) in self.anchors.items():
            w = math.exp(-((x - ax) ** 2 + (y - ay) ** 2) / (2 * WARP_REACH**2))
            cx, cy = self.cities[city]
            total += w
            sx += w * (cx - ax)
            sy += w * (cy - ay)
        return x + sx / total, y + sy / total


def route_key(a: str, b: str) -> str:
    """The name of the route between two cities, the same whichever way round: `a|b` in alphabetical order."""
    return "|".join(sorted((a, b)))


def cars_need(length: int) -> float:
    """Arc length that `length` cars need between a track's trimmed ends."""
    return length * CAR_LENGTH + (length - 1) * CAR_GAP


@stored(maxsize=4)
def map_layout(map_id: str) -> MapLayout:
    """Return the cached layout of a bundled map (`usa`, `europe`)."""
    return build_layout(load_map(map_id), _overrides(map_id))


class LayoutOverrides(BaseModel):
    """Hand-tuned corrections of a computed layout: city shifts (pixels) and fixed bends by route key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cities: dict[str, tuple[float, float]] = {}
    bends: dict[str, float] = {}


def _overrides(map_id: str) -> LayoutOverrides:
    path = _DATA / f"{map_id}_layout.json"
    if not path.exists():
        return LayoutOverrides()
    return LayoutOverrides.model_validate_json(path.read_text(encoding="utf-8"))


def build_layout(game_map: GameMap, overrides: LayoutOverrides) -> MapLayout:
    """Project, nudge and bend a map into a layout; `overrides` shifts cities and fixes bends by hand."""
    lats = [c.lat for c in game_map.cities]
    lons = [c.lon for c in game_map.cities]
    conic = conic_for(lats, lons)
    raw = [conic.raw(c.lat, c.lon) for c in game_map.cities]
    raw_w = max(p[0] for p in raw) - min(p[0] for p in raw)
    raw_h = max(p[1] for p in raw) - min(p[1] for p in raw)
    height = round((MAP_WIDTH - 2 * MARGIN_X) * raw_h / raw_w + 2 * MARGIN_Y)
    box = (MARGIN_X, MARGIN_Y, MAP_WIDTH - MARGIN_X, height - MARGIN_Y)
    conic = fit(conic, zip(lats, lons, strict=True), box)
    anchors = {c.id: conic.project(c.lat, c.lon) for c in game_map.cities}
    routes = _routes(game_map.tracks)
    links = [(r.a, r.b, r.need + 2 * TRIM + 18) for r in routes]
    cities = nudge(anchors, links, MIN_CITY_GAP, CITY_RADIUS + CAR_WIDTH + 4, box)
    for city_id, (dx, dy) in overrides.cities.items():
        x, y = cities[city_id]
        cities[city_id] = (x + dx, y + dy)
    fixed = dict(overrides.bends)
    clear = Clearances(trim=TRIM, city=CITY_RADIUS + 5, between=1.5, frame=(0.0, 0.0, float(MAP_WIDTH), float(height)))
    bends = choose_bends(cities, routes, clear, fixed)
    curves = {r.key: bend_curve(cities[r.a], cities[r.b], bends[r.key]) for r in routes}
    members = {
        r.key: sorted((t for t in game_map.tracks if route_key(t.a, t.b) == r.key), key=lambda t: t.id) for r in routes
    }
    trims = _settle_trims(routes, curves, members)
    tracks: dict[int, TrackShape] = {}
    for r in routes:
        for track, offset, cars in _route_cars(r, curves[r.key], members[r.key], trims):
            path = offset_polyline(curves[r.key], offset) if offset else curves[r.key]
            tracks[track.id] = TrackShape(id=track.id, a=track.a, b=track.b, cars=tuple(cars), path=tuple(path))
    return MapLayout(
        map_id=game_map.id,
        width=MAP_WIDTH,
        height=height,
        cities=cities,
        anchors=anchors,
        tracks=dict(sorted(tracks.items())),
        conic=conic,
    )


def _route_cars(
    r: Route, curve: list[Point], members: list[Track], trims: dict[tuple[str, str], float]
) -> list[tuple[Track, float, list[Car]]]:
    """Each track of a route with its sideways offset and its cars (a double route's tracks side by side)."""
    offsets = [0.0] if len(members) == 1 else [DOUBLE_OFFSET, -DOUBLE_OFFSET]
    ends = (trims[(r.key, r.a)], trims[(r.key, r.b)])
    size = (CAR_LENGTH, CAR_GAP, CAR_WIDTH)
    return [(t, off, place_cars(curve, t.length, ends, size, off)) for t, off in zip(members, offsets, strict=True)]


def _settle_trims(
    routes: list[Route], curves: dict[str, list[Point]], members: dict[str, list[Track]]
) -> dict[tuple[str, str], float]:
    """Start cars farther from a busy city where two routes' first cars would touch, while the route has room.

    Routes fan out from a city, so their cars clash only near it; moving a route's first car a few pixels out
    is enough, and the spare length of long routes pays for it.
    """
    trims = {(r.key, end): TRIM for r in routes for end in (r.a, r.b)}
    by_city: dict[str, list[Route]] = {}
    for r in routes:
        by_city.setdefault(r.a, []).append(r)
        by_city.setdefault(r.b, []).append(r)
    room = {r.key: cumulative(curves[r.key])[-1] - r.need * TRIM_SQUEEZE for r in routes}
    for _ in range(TRIM_ROUNDS):
        cars = {
            r.key: [c for _, _, cs in _route_cars(r, curves[r.key], members[r.key], trims) for c in cs] for r in routes
        }
        moved = False
        for city, group in sorted(by_city.items()):
            for i, r1 in enumerate(group):
                for r2 in group[i + 1 :]:
                    if not any(cars_overlap(c1, c2, 0.8) for c1 in cars[r1.key] for c2 in cars[r2.key]):
                        continue
                    spare = {r.key: room[r.key] - trims[(r.key, r.a)] - trims[(r.key, r.b)] for r in (r1, r2)}
                    pick = max((r1, r2), key=lambda r: (spare[r.key], r.key))
                    if spare[pick.key] >= TRIM_STEP:
                        trims[(pick.key, city)] += TRIM_STEP
                        moved = True
        if not moved:
            break
    return trims


def _routes(tracks: tuple[Track, ...]) -> list[Route]:
    """One route per pair of joined cities (a double route is one route of two tracks)."""
    grouped: dict[str, list[Track]] = {}
    for t in tracks:
        grouped.setdefault(route_key(t.a, t.b), []).append(t)
    routes = []
    for key, members in sorted(grouped.items()):
        a, b = key.split("|")
        half = CAR_WIDTH / 2 + (DOUBLE_OFFSET if len(members) > 1 else 0.0)
        routes.append(Route(key=key, a=a, b=b, need=cars_need(max(t.length for t in members)), half_width=half))
    return routes
