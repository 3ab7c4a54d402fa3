"""Invariants of every bundled map (R-C4) and the map schema's own checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.ttr.maps import CARD_COLORS, GRAY, MAP_IDS, GameMap, load_map

COUNTS = {"usa": (36, 100, 30, 0), "europe": (47, 101, 46, 6)}


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_r_c4_counts(map_id: str) -> None:
    game_map = load_map(map_id)
    n_long = sum(t.long for t in game_map.tickets)
    assert (len(game_map.cities), len(game_map.tracks), len(game_map.tickets), n_long) == COUNTS[map_id]


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_r_c4_ids_unique_and_references_exist(map_id: str) -> None:
    game_map = load_map(map_id)
    cities = {c.id for c in game_map.cities}
    assert len(cities) == len(game_map.cities)
    assert len({t.id for t in game_map.tracks}) == len(game_map.tracks)
    assert len({t.id for t in game_map.tickets}) == len(game_map.tickets)
    for track in game_map.tracks:
        assert {track.a, track.b} <= cities
        assert track.color in (*CARD_COLORS, GRAY)
    for ticket in game_map.tickets:
        assert {ticket.a, ticket.b} <= cities


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_r_t6_double_tracks_are_twins(map_id: str) -> None:
    game_map = load_map(map_id)
    tracks = {t.id: t for t in game_map.tracks}
    doubles = [t for t in game_map.tracks if t.partner is not None]
    assert doubles
    for track in doubles:
        twin = tracks[track.partner]  # type: ignore[index]
        assert twin.partner == track.id
        assert {twin.a, twin.b} == {track.a, track.b}
        assert twin.length == track.length
    pairs = {frozenset((t.a, t.b)) for t in game_map.tracks if t.partner is None}
    assert all(frozenset((t.a, t.b)) not in pairs for t in doubles)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_r_c4_graph_is_connected(map_id: str) -> None:
    game_map = load_map(map_id)
    seen = {game_map.cities[0].id}
    frontier = [game_map.cities[0].id]
    while frontier:
        city = frontier.pop()
        for t in game_map.tracks:
            for x, y in ((t.a, t.b), (t.b, t.a)):
                if x == city and y not in seen:
                    seen.add(y)
                    frontier.append(y)
    assert seen == {c.id for c in game_map.cities}


def test_r_c3_scoring_tables() -> None:
    usa, europe = load_map("usa"), load_map("europe")
    assert usa.rules.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert europe.rules.route_points == {**usa.rules.route_points, 8: 21}


def test_r_c2_r_eu_5_europe_facts() -> None:
    europe = load_map("europe")
    assert europe.rules.cars_per_player == 45 and europe.rules.stations_per_player == 3
    ferries = {(t.a, t.b): t.ferry_locomotives for t in europe.tracks if t.ferry_locomotives}
    assert ferries[("amsterdam", "london")] == 2
    assert ferries[("palermo", "smyrna")] == 2
    assert all(t.color == GRAY for t in europe.tracks if t.ferry_locomotives)
    assert sum(t.tunnel for t in europe.tracks) == 18
    assert sum(1 for t in europe.tracks if t.ferry_locomotives) == 13


def test_usa_has_no_stations_tunnels_or_ferries() -> None:
    usa = load_map("usa")
    assert usa.rules.stations_per_player == 0
    assert not any(t.tunnel or t.ferry_locomotives for t in usa.tracks)


def _usa_data() -> dict[str, object]:
    path = Path(__file__).parents[3] / "rules" / "ttr" / "data" / "usa.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_schema_rejects_unequal_double_tracks() -> None:
    data = _usa_data()
    tracks = data["tracks"]
    assert isinstance(tracks, list)
    twin = next(t for t in tracks if t["partner"] is not None)
    twin["length"] += 1
    with pytest.raises(ValidationError, match=r"partner|length"):
        GameMap.model_validate(data)


def test_schema_rejects_ticket_to_unknown_city() -> None:
    data = _usa_data()
    tickets = data["tickets"]
    assert isinstance(tickets, list)
    tickets[0]["b"] = "atlantis"
    with pytest.raises(ValidationError, match="unknown"):
        GameMap.model_validate(data)
