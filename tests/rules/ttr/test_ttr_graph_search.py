"""Longest trail (R-P3) and station use (R-EU-8) against brute force on many random networks, map-made and abstract."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest

from bench.ttr_worst_cases import SLOW_NETWORKS, grow
from rules.ttr import graph
from rules.ttr.board import Board, board_for
from rules.ttr.graph import Edge, components, longest_trail
from rules.ttr.stations import StationChoice, TicketSpec, best_station_use, ticket_outcome


def _brute_longest(edges: list[Edge], starts: set[int] | None = None) -> int:
    """Every trail from every city (or from `starts`), tracks used at most once (memoised on city and tracks used:
    still exhaustive)."""

    @cache
    def longest_from(city: int, used: int) -> int:
        best = 0
        for i, (a, b, n, _) in enumerate(edges):
            if not used >> i & 1 and city in (a, b):
                best = max(best, n + longest_from(b if a == city else a, used | 1 << i))
        return best

    return max(longest_from(city, 0) for city in starts or {c for e in edges for c in e[:2]})


def _check_trail(edges: list[Edge]) -> None:
    length, trail = longest_trail(edges)
    assert length == _brute_longest(edges), edges
    by_id = {e[3]: e for e in edges}
    assert sum(by_id[t][2] for t in trail) == length and len(set(trail)) == len(trail)
    if trail:
        starts = by_id[trail[0]][:2]
        assert any(_walks(by_id, trail, start) for start in starts), (edges, trail)


def _walks(by_id: dict[int, Edge], trail: list[int], city: int) -> bool:
    """Whether the tracks can be followed one after the other starting from `city`."""
    for t in trail:
        a, b = by_id[t][:2]
        if city not in (a, b):
            return False
        city = b if a == city else a
    return True


def _network(board: Board, rnd: random.Random, cars: int) -> list[int]:
    """A random set of one player's tracks within `cars`, never both tracks of a double route, mostly connected."""
    owned: list[int] = []
    left = cars
    cities: set[int] = set()
    while True:
        options = [
            i
            for i in range(board.n_tracks)
            if i not in owned
            and board.track_partner[i] not in owned
            and board.track_len[i] <= left
            and (not cities or rnd.random() < 0.1 or board.track_a[i] in cities or board.track_b[i] in cities)
        ]
        if not options:
            return owned
        pick = rnd.choices(options, [1.0 / board.track_len[i] ** 2 for i in options])[0]
        owned.append(pick)
        cities |= {board.track_a[pick], board.track_b[pick]}
        left -= board.track_len[pick]


@pytest.fixture(params=[graph.EXACT_PAIRING, 0, 30], ids=["default", "nearest", "matching"])
def pairing_bound(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test with the block search's pairing bound as is, always the nearest-city one, and always an exact
    matching: both bounds must only cut what cannot beat the best."""
    monkeypatch.setattr(graph, "EXACT_PAIRING", request.param)


@pytest.mark.usefixtures("pairing_bound")
def test_longest_trail_is_exact_on_abstract_multigraphs_with_chains_loops_and_parallel_tracks() -> None:
    rnd = random.Random(5)
    for _ in range(250):
        n_cities = rnd.randrange(2, 9)
        edges: list[Edge] = []
        for k in range(rnd.randrange(1, 13)):
            a, b = rnd.sample(range(n_cities), 2)
            edges.append((a, b, rnd.randrange(1, 7), k + 1))
        _check_trail(edges)


@pytest.mark.usefixtures("pairing_bound")
def test_longest_trail_is_exact_on_random_networks_of_both_maps() -> None:
    rnd = random.Random(8)
    for map_id in ("usa", "europe"):
        board = board_for(map_id)
        for _ in range(60):
            owned = _network(board, rnd, rnd.randrange(8, 26))
            _check_trail([(board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned])


@pytest.mark.usefixtures("pairing_bound")
def test_longest_trail_is_exact_on_dense_networks_of_45_cars() -> None:
    rnd = random.Random(21)
    for map_id in ("usa", "europe"):
        board = board_for(map_id)
        for _ in range(20):
            owned = grow(board, rnd, [])
            _check_trail([(board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned])


@pytest.mark.usefixtures("pairing_bound")
@pytest.mark.parametrize("network", SLOW_NETWORKS)
def test_longest_trail_is_exact_on_networks_found_slow(network: str) -> None:
    map_id, _, text = network.partition(":")
    board = board_for(map_id)
    _check_trail(
        [
            (board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i])
            for i in map(int, text.split(","))
        ]
    )


def _bridged_blocks(rnd: random.Random) -> list[Edge]:
    """Small random multigraphs joined in a random tree by single tracks, some with dead-end arms: many bridges."""
    edges: list[Edge] = []
    n_cities = 0
    for block in range(rnd.randrange(2, 6)):
        size = rnd.randrange(1, 4)
        cities = list(range(n_cities, n_cities + size))
        n_cities += size
        if size > 1:
            for _ in range(rnd.randrange(size - 1, size + 3)):
                a, b = rnd.sample(cities, 2)
                edges.append((a, b, rnd.randrange(1, 5), len(edges) + 1))
        if block:
            edges.append((rnd.randrange(cities[0]), rnd.choice(cities), rnd.randrange(1, 5), len(edges) + 1))
        for _ in range(rnd.randrange(0, 3)):
            edges.append((rnd.choice(cities), n_cities, rnd.randrange(1, 5), len(edges) + 1))
            n_cities += 1
    return edges


@pytest.mark.slow
@pytest.mark.usefixtures("pairing_bound")
def test_longest_trail_is_exact_on_blocks_joined_by_bridges() -> None:
    rnd = random.Random(34)
    for _ in range(200):
        _check_trail(_bridged_blocks(rnd))


def _glued_blocks(rnd: random.Random) -> list[Edge]:
    """Small blocks (cycles, double routes, random tracks among a few cities) glued at a shared city, joined by a
    bridge, or left apart as their own component, with dead-end arms: many ways for a trail to leave a block and
    come back into it."""
    edges: list[Edge] = []
    n_cities = 0
    for block in range(rnd.randrange(1, 5)):
        glue = rnd.random()
        shared = rnd.randrange(n_cities) if block and glue < 0.5 else -1
        size = rnd.randrange(2, 5)
        cities = [shared if shared >= 0 else n_cities, *range(n_cities + 1, n_cities + size)]
        n_cities += size
        kind = rnd.randrange(3)
        links = (
            list(zip(cities, cities[1:] + cities[:1], strict=True))
            if kind == 0
            else [(cities[0], cities[1])] * 2
            if kind == 1
            else [tuple(rnd.sample(cities, 2)) for _ in range(rnd.randrange(size, size + 3))]
        )
        for a, b in links:
            edges.append((a, b, rnd.randrange(1, 5), len(edges) + 1))
        if block and shared < 0 and glue < 0.85:
            edges.append((rnd.randrange(cities[0]), rnd.choice(cities), rnd.randrange(1, 5), len(edges) + 1))
        for _ in range(rnd.randrange(0, 3)):
            edges.append((rnd.choice(range(n_cities)), n_cities, rnd.randrange(1, 5), len(edges) + 1))
            n_cities += 1
    return edges[:16]


@pytest.mark.usefixtures("pairing_bound")
def test_longest_trail_is_exact_on_blocks_glued_at_cities_double_routes_and_apart() -> None:
    rnd = random.Random(89)
    for _ in range(400):
        _check_trail(_glued_blocks(rnd))


@pytest.mark.usefixtures("pairing_bound")
def test_a_block_searched_from_a_given_city_finds_the_longest_trail_from_there() -> None:
    """How an arm is measured (`graph._block_trail` with a start): the longest trail from that city, walked from it,
    its length counted with the start's `anchor` cars."""
    rnd = random.Random(144)
    for _ in range(150):
        n_cities = rnd.randrange(2, 8)
        # A spanning tree first (connected), then random tracks closing cycles, some doubling a route.
        edges = [(rnd.randrange(k), k, rnd.randrange(1, 7), k) for k in range(1, n_cities)]
        for _ in range(rnd.randrange(0, 7)):
            a, b = rnd.sample(range(n_cities), 2)
            edges.append((a, b, rnd.randrange(1, 7), len(edges) + 1))
        by_id = {e[3]: e for e in edges}
        for start in range(n_cities):
            length, path = graph._block_trail(edges, list(range(len(edges))), [], start, 100, 0)
            assert length - 100 == _brute_longest(edges, {start}), (edges, start)
            trail = [edges[i][3] for i in path]
            assert sum(by_id[t][2] for t in trail) == length - 100 and len(set(trail)) == len(trail)
            assert _walks(by_id, trail, start), (edges, start, trail)


def test_bridges_are_the_tracks_whose_removal_splits_a_component() -> None:
    rnd = random.Random(55)
    for _ in range(200):
        edges = _bridged_blocks(rnd)
        incident: dict[int, list[int]] = {}
        for i, (a, b, _, _) in enumerate(edges):
            incident.setdefault(a, []).append(i)
            incident.setdefault(b, []).append(i)
        n_cities = max(max(a, b) for a, b, _, _ in edges) + 1
        pieces = len(set(components(n_cities, [e[:2] for e in edges])))
        splits = {
            i
            for i in range(len(edges))
            if len(set(components(n_cities, [e[:2] for j, e in enumerate(edges) if j != i]))) > pieces
        }
        found = set()
        for comp in graph._edge_components(edges, incident):
            found |= graph._bridges(edges, incident, comp)
        assert found == splits, edges


def _brute_stations(
    n_cities: int,
    own_edges: list[tuple[int, int]],
    station_cities: list[int],
    borrowable: list[list[tuple[int, int, int]]],
    tickets: list[TicketSpec],
) -> StationChoice:
    """Score every combination of one borrowed track (or none) per station in full; the first best wins."""
    options: list[list[tuple[int, int, int] | None]] = [[None, *tracks] for tracks in borrowable]
    best: StationChoice | None = None
    for combo in product(*options):
        extra = [(c[0], c[1]) for c in combo if c is not None]
        points, done = ticket_outcome(components(n_cities, [*own_edges, *extra]), tickets)
        if best is None or (points, sum(done)) > (best.ticket_points, sum(best.completed)):
            best = StationChoice(tuple(None if c is None else c[2] for c in combo), points, done)
    assert best is not None
    return best


def test_station_use_scores_as_brute_force_on_random_europe_endings() -> None:
    board = board_for("europe")
    n_cities = len(board.city_ids)
    rnd = random.Random(13)
    for _ in range(150):
        owners = [-1] * board.n_tracks
        for seat in range(rnd.randrange(2, 5)):
            for i in _network(board, rnd, rnd.randrange(5, 45)):
                if owners[i] < 0 and (board.track_partner[i] < 0 or owners[board.track_partner[i]] != seat):
                    owners[i] = seat
        own = [(board.track_a[i], board.track_b[i]) for i, o in enumerate(owners) if o == 0]
        cities = rnd.sample(range(n_cities), rnd.randrange(0, 4))
        borrowable = [
            [(board.track_a[i], board.track_b[i], board.track_ids[i]) for i in board.city_tracks[c] if owners[i] > 0]
            for c in cities
        ]
        tickets = [board.tickets[t] for t in rnd.sample(sorted(board.tickets), rnd.randrange(1, 12))]
        fast = best_station_use(n_cities, own, cities, borrowable, tickets)
        brute = _brute_stations(n_cities, own, cities, borrowable, tickets)
        assert (fast.ticket_points, fast.completed) == (brute.ticket_points, brute.completed)
        assert _score(n_cities, own, borrowable, fast.borrowed, tickets) == (fast.ticket_points, fast.completed)


def _score(
    n_cities: int,
    own: list[tuple[int, int]],
    borrowable: list[list[tuple[int, int, int]]],
    borrowed: tuple[int | None, ...],
    tickets: list[TicketSpec],
) -> tuple[int, tuple[bool, ...]]:
    """The ticket outcome of a given choice of borrowed tracks."""
    by_track = {t: (a, b) for options in borrowable for a, b, t in options}
    extra = [by_track[t] for t in borrowed if t is not None]
    return ticket_outcome(components(n_cities, [*own, *extra]), tickets)
