"""The layout of both maps: every city and track placed, cars of the right count, nothing on top of anything."""

from __future__ import annotations

import math

import pytest

from render.ttr.geometry import cars_overlap
from render.ttr.layout import CITY_RADIUS, MAP_WIDTH, LayoutOverrides, build_layout, map_layout, route_key
from rules.ttr.maps import MAP_IDS, load_map


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_city_and_track_has_a_layout_entry(map_id: str) -> None:
    game_map, layout = load_map(map_id), map_layout(map_id)
    assert set(layout.cities) == {c.id for c in game_map.cities}
    assert set(layout.tracks) == {t.id for t in game_map.tracks}
    for track in game_map.tracks:
        assert len(layout.tracks[track.id].cars) == track.length
    assert layout.width >= 1600 == MAP_WIDTH
    for x, y in layout.cities.values():
        assert 0 < x < layout.width and 0 < y < layout.height
    for shape in layout.tracks.values():
        for car in shape.cars:
            for x, y in car.corners():
                assert 2 < x < layout.width - 2 and 2 < y < layout.height - 2, shape.id


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_no_two_car_spaces_overlap(map_id: str) -> None:
    layout = map_layout(map_id)
    cars = [(track_id, car) for track_id, shape in layout.tracks.items() for car in shape.cars]
    clashes = {
        (t1, t2)
        for i, (t1, c1) in enumerate(cars)
        for t2, c2 in cars[i + 1 :]
        if t1 != t2 and cars_overlap(c1, c2, 0.5)
    }
    assert clashes == set()


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_no_track_runs_over_a_city_it_does_not_serve(map_id: str) -> None:
    layout = map_layout(map_id)
    crossing = [
        (shape.id, city)
        for shape in layout.tracks.values()
        for car in shape.cars
        for city, p in layout.cities.items()
        if city not in (shape.a, shape.b) and math.dist(car.center, p) < CITY_RADIUS + car.width
    ]
    assert crossing == []


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_double_tracks_lie_side_by_side(map_id: str) -> None:
    game_map, layout = load_map(map_id), map_layout(map_id)
    for track in game_map.tracks:
        if track.partner is None:
            continue
        mine, theirs = layout.tracks[track.id].cars, layout.tracks[track.partner].cars
        gaps = [math.dist(a.center, b.center) for a, b in zip(mine, theirs, strict=True)]
        assert all(a.width <= g <= a.width + 6 for g, a in zip(gaps, mine, strict=True)), (track.id, gaps)


def test_cars_keep_a_steady_size() -> None:
    """Squeezed or stretched cars would read as different lengths: all stay within a narrow band."""
    lengths = [car.length for m in MAP_IDS for shape in map_layout(m).tracks.values() for car in shape.cars]
    assert min(lengths) >= 18 and max(lengths) <= 31


def test_hand_overrides_shift_cities_and_fix_bends() -> None:
    game_map = load_map("usa")
    plain = build_layout(game_map, LayoutOverrides())
    moved = build_layout(
        game_map, LayoutOverrides(cities={"miami": (-10, 0)}, bends={route_key("miami", "atlanta"): 30})
    )
    assert moved.cities["miami"][0] == pytest.approx(plain.cities["miami"][0] - 10)
    assert moved.tracks[2].path != plain.tracks[2].path
