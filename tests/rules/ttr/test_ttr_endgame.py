"""The end of the game and scoring: last round, passing, tickets, longest trail, stations, tie-breaks (R-E*, R-P*,
R-EU-8…10)."""

from __future__ import annotations

import random
from itertools import product

import pytest

from rules.engine import IllegalAction
from rules.ttr.board import board_for
from rules.ttr.graph import Edge, components, longest_trail
from rules.ttr.state import Phase, TtrState
from rules.ttr.stations import best_station_use, ticket_outcome

from .ttr_support import ENGINE, act, hand, keys, started, track_index


def _owning(state: TtrState, tracks: dict[int, list[int]]) -> TtrState:
    owners = [-1] * len(state.owners)
    for seat, owned in tracks.items():
        for t in owned:
            owners[t] = seat
    return state.model_copy(update={"owners": tuple(owners)})


def _over(state: TtrState, **changes: object) -> TtrState:
    return state.model_copy(update={"phase": Phase.OVER, **changes})


def _ticket_id(map_id: str, a: str, b: str) -> int:
    return next(t.id for t in board_for(map_id).game_map.tickets if {t.a, t.b} == {a, b})


def test_r_e1_last_round_everyone_one_more_turn() -> None:
    state = started().model_copy(update={"cars": (3, 45, 45, 45), "hands": (hand(locomotive=1), *started().hands[1:])})
    atlanta_nashville = board_for("usa").track_ids[track_index("usa", "atlanta", "nashville")]
    state, events = act(state, 0, f"claim:{atlanta_nashville}:locomotive:1")
    assert "ttr.event.last_round" in keys(events) and state.final_turns == 4
    view = ENGINE.view(state, None)
    assert view.last_round and view.turns_left == 4
    for seat in (1, 2, 3):
        assert state.current == seat and state.phase is Phase.TURN
        state, _ = act(state, seat, "draw:deck")
        state, _ = act(state, seat, "draw:deck")
    assert state.current == 0 and state.phase is Phase.TURN
    state, events = act(state, 0, "tickets")
    state, events = act(state, 0, f"keep:{min(state.offers[0])}")
    assert state.phase is Phase.OVER and "ttr.event.game_over" in keys(events)
    assert ENGINE.to_act(state) == frozenset() and ENGINE.result(state) is not None


def _stuck(map_id: str) -> TtrState:
    base = started(map_id, n_players=2)
    return base.model_copy(
        update={"deck": (), "discard": (), "market": (), "ticket_deck": (), "hands": ((0,) * 9, hand(red=1))}
    )


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_r_e2_pass_is_the_only_move_when_nothing_is_legal(map_id: str) -> None:
    state = _stuck(map_id)
    assert [a.encode() for a in ENGINE.legal_actions(state, 0)] == ["pass"]
    state, events = act(state, 0, "pass")
    assert "ttr.event.passed" in keys(events) and state.current == 1
    assert "pass" not in [a.encode() for a in ENGINE.legal_actions(state, 1)] or map_id == "usa"


def test_r_e2_pass_refused_when_something_else_is_legal() -> None:
    with pytest.raises(IllegalAction) as err:
        act(started(), 0, "pass")
    assert err.value.reason.value == "ttr.reason.must_act"
    only_deck = _stuck("usa").model_copy(update={"deck": (3,)})  # exactly one other move: draw from the deck
    assert [a.encode() for a in ENGINE.legal_actions(only_deck, 0)] == ["draw:deck"]
    with pytest.raises(IllegalAction):
        act(only_deck, 0, "pass")


def test_r_e2_a_whole_round_of_passes_ends_the_game() -> None:
    state = _stuck("usa").model_copy(update={"hands": ((0,) * 9, (0,) * 9)})
    state, _ = act(state, 0, "pass")
    state, events = act(state, 1, "pass")
    assert state.phase is Phase.OVER and "ttr.event.stalemate" in keys(events)


def test_r_p2_tickets_plus_if_connected_minus_otherwise() -> None:
    state = started(n_players=2)
    denver_el_paso = _ticket_id("usa", "denver", "el_paso")
    ny_atlanta = _ticket_id("usa", "new_york", "atlanta")
    tracks = [track_index("usa", "denver", "santa_fe"), track_index("usa", "santa_fe", "el_paso")]
    state = _over(_owning(state, {0: tracks}), tickets=((denver_el_paso, ny_atlanta), ()))
    result = ENGINE.result(state)
    assert result is not None
    zero = next(p for p in result.players if p.seat == 0)
    lines = {line.label.key: line.points for line in zero.breakdown}
    assert lines["ttr.score.ticket_won"] == 4 and lines["ttr.score.ticket_lost"] == -6
    assert zero.total == 2 + 2 + 4 - 6 + 10
    final = ENGINE.view(state, 0)
    assert [t.completed for t in final.tickets] == [True, False]  # type: ignore[attr-defined]


def test_r_p3_longest_trail_may_loop_through_a_city_never_reuse_a_track() -> None:
    # The USA book's example: New York – Pittsburgh – Chicago – Toronto – Pittsburgh – Nashville.
    names = [("new_york", "pittsburgh"), ("pittsburgh", "chicago"), ("chicago", "toronto")]
    names += [("toronto", "pittsburgh"), ("pittsburgh", "nashville")]
    board = board_for("usa")
    edges: list[Edge] = []
    for a, b in names:
        i = track_index("usa", a, b)
        edges.append((board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]))
    length, trail = longest_trail(edges)
    assert length == 2 + 3 + 4 + 2 + 4 and sorted(trail) == sorted(e[3] for e in edges)
    # Add a spur to Saint Louis from Chicago: the trail cannot use Pittsburgh–Chicago twice.
    i = track_index("usa", "chicago", "saint_louis")
    edges.append((board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]))
    length, _ = longest_trail(edges)
    assert length == 15


def _brute_longest(edges: list[Edge]) -> int:
    best = 0

    def walk(city: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for i, (a, b, n, _) in enumerate(edges):
            if i not in used and city in (a, b):
                walk(b if a == city else a, used | {i}, total + n)

    for city in {c for e in edges for c in e[:2]}:
        walk(city, frozenset(), 0)
    return best


@pytest.mark.slow
def test_r_p3_longest_trail_matches_brute_force_on_random_graphs() -> None:
    rnd = random.Random(11)
    for _ in range(250):
        n_cities = rnd.randrange(2, 7)
        edges: list[Edge] = []
        for k in range(rnd.randrange(1, 9)):
            a, b = rnd.sample(range(n_cities), 2)
            edges.append((a, b, rnd.randrange(1, 7), k + 1))
        length, trail = longest_trail(edges)
        assert length == _brute_longest(edges)
        by_id = {e[3]: e for e in edges}
        assert sum(by_id[t][2] for t in trail) == length and len(set(trail)) == len(trail)
        assert not trail or any(_walks(by_id, trail, start) for start in by_id[trail[0]][:2])


def _walks(by_id: dict[int, Edge], trail: list[int], city: int) -> bool:
    """Whether the tracks can be followed one after the other starting from `city`."""
    for t in trail:
        a, b = by_id[t][:2]
        if city not in (a, b):
            return False
        city = b if a == city else a
    return True


def test_r_p3_tied_longest_all_get_the_bonus_and_nobody_without_routes() -> None:
    state = started(n_players=3)
    a = track_index("usa", "denver", "santa_fe")  # 2
    b = track_index("usa", "dallas", "little_rock")  # 2
    result = ENGINE.result(_over(_owning(state, {0: [a], 1: [b]}), tickets=((), (), ())))
    assert result is not None
    bonus = {p.seat: any(line.label.key == "ttr.score.longest" for line in p.breakdown) for p in result.players}
    assert bonus == {0: True, 1: True, 2: False}
    nobody = ENGINE.result(_over(_owning(state, {}), tickets=((), (), ())))
    assert nobody is not None and all(p.total == 0 for p in nobody.players)
    off = ENGINE.result(_over(_owning(started(n_players=3, longest_bonus=False), {0: [a]}), tickets=((), (), ())))
    assert off is not None and all(line.label.key != "ttr.score.longest" for p in off.players for line in p.breakdown)


def test_r_eu_8_station_borrows_exactly_one_route_for_all_tickets() -> None:
    state = started("europe", n_players=2)
    board = board_for("europe")
    mine = [track_index("europe", "roma", "venezia"), track_index("europe", "venezia", "munchen")]
    frankfurt_munchen = track_index("europe", "frankfurt", "munchen")
    frankfurt_berlin = track_index("europe", "frankfurt", "berlin", "red")
    theirs = [frankfurt_munchen, frankfurt_berlin]
    berlin_roma = _ticket_id("europe", "berlin", "roma")

    def final(station_cities: list[str]) -> TtrState:
        stations = [-1] * len(state.stations)
        for city in station_cities:
            stations[board.city_index[city]] = 0
        return _over(
            _owning(state, {0: mine, 1: theirs}),
            stations=tuple(stations),
            stations_left=(3 - len(station_cities), 3),
            tickets=((berlin_roma,), ()),
        )

    one = ENGINE.view(final(["frankfurt"]), 0)
    assert one.final is not None and not one.tickets[0].completed  # type: ignore[attr-defined]
    assert one.final[0].station_tracks == {"frankfurt": None}  # either route alone is no use: none is shown
    two = ENGINE.view(final(["frankfurt", "berlin"]), 0)
    assert two.final is not None and two.tickets[0].completed  # type: ignore[attr-defined]
    ids = board.track_ids
    assert two.final[0].station_tracks == {"frankfurt": ids[frankfurt_munchen], "berlin": ids[frankfurt_berlin]}
    assert two.final[0].longest_length == 4  # borrowed routes never count for the longest path
    result = ENGINE.result(final(["frankfurt", "berlin"]))
    assert result is not None
    zero = next(p for p in result.players if p.seat == 0)
    lines = {line.label.key: line.points for line in zero.breakdown}
    assert lines.get("ttr.score.ticket_won") == 9


def test_r_eu_8_best_use_matches_brute_force() -> None:
    rnd = random.Random(3)
    for _ in range(200):
        n = 7
        own = [tuple(rnd.sample(range(n), 2)) for _ in range(rnd.randrange(0, 4))]
        stations = rnd.sample(range(n), rnd.randrange(1, 4))
        borrow = [
            [
                (s, c, 100 * k + j)
                for j, c in enumerate(rnd.sample([x for x in range(n) if x != s], rnd.randrange(0, 3)))
            ]
            for k, s in enumerate(stations)
        ]
        tickets = [(*rnd.sample(range(n), 2), rnd.randrange(1, 10)) for _ in range(rnd.randrange(1, 5))]
        choice = best_station_use(n, own, stations, borrow, tickets)  # type: ignore[arg-type]
        best = None
        for combo in product(*[[None, *options] for options in borrow]):
            edges = own + [(c[0], c[1]) for c in combo if c is not None]
            points, done = ticket_outcome(components(n, edges), tickets)  # type: ignore[arg-type]
            key = (points, sum(done))
            best = key if best is None or key > best else best
        assert (choice.ticket_points, sum(choice.completed)) == best


def test_r_eu_9_four_points_per_station_not_built() -> None:
    state = started("europe", n_players=2)
    result = ENGINE.result(_over(_owning(state, {}), stations_left=(3, 1), tickets=((), ())))
    assert result is not None
    totals = {p.seat: p.total for p in result.players}
    assert totals == {0: 12, 1: 4}


def test_r_p4_usa_ties_most_tickets_then_longest_trail_then_shared() -> None:
    state = started(n_players=2, longest_bonus=False)
    ticket = _ticket_id("usa", "denver", "el_paso")
    zero = [track_index("usa", "denver", "santa_fe"), track_index("usa", "santa_fe", "el_paso")]  # 4 + ticket 4
    one = [track_index("usa", "chicago", "omaha"), track_index("usa", "atlanta", "nashville")]  # 7 + 1
    result = ENGINE.result(_over(_owning(state, {0: zero, 1: one}), tickets=((ticket,), ())))
    assert result is not None and [p.total for p in result.players] == [8, 8] and result.winners == [0]
    zero = [track_index("usa", "chicago", "omaha"), track_index("usa", "atlanta", "nashville")]  # 8, trail 4
    one = [track_index("usa", "phoenix", "santa_fe"), track_index("usa", "santa_fe", "oklahoma_city")]  # 8, trail 6
    result = ENGINE.result(_over(_owning(state, {0: zero, 1: one}), tickets=((), ())))
    assert result is not None and result.winners == [1] and result.players[0].seat == 1
    one = [track_index("usa", "chicago", "toronto"), track_index("usa", "dallas", "houston")]  # 8, trail 4
    result = ENGINE.result(_over(_owning(state, {0: zero, 1: one}), tickets=((), ())))
    assert result is not None and result.winners == [0, 1]


def _disjoint(lengths: list[int], avoid: set[str]) -> list[int]:
    """Europe tracks of these lengths that share no city with each other or with `avoid`."""
    board = board_for("europe")
    used = set(avoid)
    chosen = []
    for length in lengths:
        i = next(
            i for i, t in enumerate(board.game_map.tracks) if t.length == length and t.a not in used and t.b not in used
        )
        used |= {board.game_map.tracks[i].a, board.game_map.tracks[i].b}
        chosen.append(i)
    return chosen


def test_r_eu_10_europe_ties_tickets_then_stations_then_express() -> None:
    state = started("europe", n_players=2)
    berlin_danzig = track_index("europe", "berlin", "danzig")  # 4 cars, 7 points, the longest: +10
    stations = [-1] * len(state.stations)
    stations[board_for("europe").city_index["madrid"]] = 1
    one = _disjoint([3, 3, 3, 3, 3, 1], {"berlin", "danzig"})  # 21 points, no trail longer than 3
    over = _over(
        _owning(state, {0: [berlin_danzig], 1: one}),
        stations=tuple(stations),
        stations_left=(3, 2),
        tickets=((), ()),
    )
    result = ENGINE.result(over)
    assert result is not None
    assert {p.seat: p.total for p in result.players} == {0: 7 + 10 + 12, 1: 21 + 8}
    assert result.winners == [0]  # same tickets completed (none), more stations left
    one = _disjoint([3, 3, 3, 3, 1], {"berlin", "danzig"})  # 17 points
    even = _over(_owning(state, {0: [berlin_danzig], 1: one}), stations_left=(3, 3), tickets=((), ()))
    result = ENGINE.result(even)
    assert result is not None
    assert {p.seat: p.total for p in result.players} == {0: 29, 1: 29} and result.winners == [0]  # the Express


def test_result_is_none_until_over_and_winner_listed_first() -> None:
    state = started()
    assert ENGINE.result(state) is None and not ENGINE.is_over(state)
