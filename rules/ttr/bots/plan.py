"""Planning helpers every Ticket to Ride bot shares: cheapest missing paths, colours needed, how to pay and draw.

Everything here reads only what the planning seat may see: the board, the face-up cards, whether the piles hold
cards, and that seat's own hand, tickets, offer and cars.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb

from rules.ttr.actions import DECK, BuildStation, Claim, DrawCard
from rules.ttr.board import CARD_NAMES, LOCO, Board, board_for
from rules.ttr.cards import DECK_COMPOSITION, Payment
from rules.ttr.graph import components, longest_trail
from rules.ttr.moves import MoveSet, doubles_closed
from rules.ttr.scoring import PlayerScore, final_scores, track_edges
from rules.ttr.state import TtrState

UNREACHABLE = 1 << 30
"""The cost of a ticket no free path can finish any more."""


def own_labels(state: TtrState, seat: int, board: Board) -> list[int]:
    """A component label per city for the seat's own routes."""
    pairs = [(board.track_a[i], board.track_b[i]) for i, o in enumerate(state.owners) if o == seat]
    return components(len(board.city_ids), pairs)


def usable(state: TtrState, seat: int, board: Board, track: int) -> bool:
    """Whether the seat owns the track or could still claim it (free, double rules allowing)."""
    owner = state.owners[track]
    if owner >= 0:
        return owner == seat
    partner = board.track_partner[track]
    if partner >= 0 and state.owners[partner] >= 0:
        return state.owners[partner] != seat and not doubles_closed(state.n_players, state.options, board)
    return True


def cheapest_path(
    state: TtrState, seat: int, board: Board, start: int, goal: int, owned_free: bool = True
) -> tuple[int, list[int] | None]:
    """Dijkstra over cities: own tracks cost 0, claimable tracks their length; returns cars needed and free tracks.

    With `owned_free` off, own tracks cost their length too (a planner that ignores what it has built).
    """
    closed = doubles_closed(state.n_players, state.options, board)
    return _cheapest(state.map_id, state.owners, seat, closed, start, goal, owned_free, own_stations(state, seat))


def own_stations(state: TtrState, seat: int) -> tuple[int, ...]:
    """The cities where the seat has built a station."""
    return tuple(c for c, owner in enumerate(state.stations) if owner == seat) if seat in state.stations else ()


@cache
def _adjacency(map_id: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per city: (track, city at its other end) for every track touching it."""
    board = board_for(map_id)
    return tuple(
        tuple((t, board.track_b[t] if board.track_a[t] == city else board.track_a[t]) for t in tracks)
        for city, tracks in enumerate(board.city_tracks)
    )


def _weights(
    map_id: str,
    owners: tuple[int, ...],
    seat: int,
    closed: bool,
    owned_free: bool,
    overhead: int,
    stations: tuple[int, ...],
    tunnel_cars: int = 0,
) -> list[int]:
    """What each track costs a path of the seat: -1 if it may not use it, 0 (or its length) if its own or a rival's
    route touching one of the seat's `stations` (borrowed at the end, R-EU-8), else its length plus `overhead` (and
    `tunnel_cars` for a tunnel).

    A station counts every rival route at its city, though the scoring lends it one: close enough to keep the bot
    from building a second station for a ticket one already saves. Only the claimed routes and their doubles are
    looked at: playouts ask after every claim, and most routes are still free."""
    board = board_for(map_id)
    partners, lengths, ends_a, ends_b = board.track_partner, board.track_len, board.track_a, board.track_b
    weights = list(_free_weights(map_id, overhead, tunnel_cars))
    for track in _claimed(owners):
        owner = owners[track]
        if owner == seat:
            weights[track] = 0 if owned_free else lengths[track]
        elif stations and (ends_a[track] in stations or ends_b[track] in stations):
            weights[track] = 0
        else:
            weights[track] = -1
        partner = partners[track]
        if partner >= 0 and owners[partner] < 0 and (closed or owner == seat):
            weights[partner] = -1
    return weights


@cache
def _free_weights(map_id: str, overhead: int, tunnel_cars: int) -> tuple[int, ...]:
    """What each track costs while nobody has claimed it or its double: its length plus `overhead`, for a plan (an
    overhead) less the share `POINTS_EARNED` of the points it scores, and plus `tunnel_cars` for a tunnel."""
    board = board_for(map_id)
    earned = POINTS_EARNED if overhead else 0.0
    return tuple(
        length + overhead - round(earned * points) + (tunnel_cars if tunnel else 0)
        for length, points, tunnel in zip(board.track_len, board.track_points, board.track_tunnel, strict=True)
    )


@lru_cache(maxsize=4096)
def _claimed(owners: tuple[int, ...]) -> tuple[int, ...]:
    """The claimed tracks."""
    return tuple(track for track, owner in enumerate(owners) if owner >= 0)


def _cheapest(
    map_id: str,
    owners: tuple[int, ...],
    seat: int,
    closed: bool,
    start: int,
    goal: int,
    owned_free: bool,
    stations: tuple[int, ...],
) -> tuple[int, list[int] | None]:
    """Cars to join `start` to `goal` and the free tracks of that path (own tracks cost nothing if `owned_free`)."""
    cost, path = _dijkstra(map_id, _weights(map_id, owners, seat, closed, owned_free, 0, stations), start, goal)
    return cost, None if path is None else [t for t in path if owners[t] < 0]


def _dijkstra(map_id: str, weights: list[int], start: int, goal: int) -> tuple[int, list[int] | None]:
    """The cheapest path from `start` to `goal` over tracks of these weights (-1: closed), goal first."""
    adjacency = _adjacency(map_id)
    dist = [UNREACHABLE] * len(adjacency)
    dist[start] = 0
    via: dict[int, tuple[int, int]] = {}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, city = pop(heap)
        if city == goal:
            break
        if d > dist[city]:
            continue
        for track, nxt in adjacency[city]:
            weight = weights[track]
            if weight < 0:
                continue
            cost = d + weight
            if cost < dist[nxt]:
                dist[nxt] = cost
                via[nxt] = (track, city)
                push(heap, (cost, nxt))
    if dist[goal] == UNREACHABLE:
        return UNREACHABLE, None
    path = []
    city = goal
    while city != start:
        track, city = via[city]
        path.append(track)
    return dist[goal], path


def _distances(map_id: str, weights: list[int], start: int) -> list[int]:
    """The cheapest cost from `start` to every city over tracks of these weights (-1: closed)."""
    adjacency = _adjacency(map_id)
    dist = [UNREACHABLE] * len(adjacency)
    dist[start] = 0
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, city = pop(heap)
        if d > dist[city]:
            continue
        for track, nxt in adjacency[city]:
            weight = weights[track]
            if weight >= 0 and d + weight < dist[nxt]:
                dist[nxt] = d + weight
                push(heap, (d + weight, nxt))
    return dist


def open_tickets(state: TtrState, seat: int, board: Board) -> list[int]:
    """The seat's tickets its own routes do not connect yet, in the order kept."""
    return list(_open(state.map_id, state.owners, seat, state.tickets[seat]))


@lru_cache(maxsize=4096)
def _open(map_id: str, owners: tuple[int, ...], seat: int, tickets: tuple[int, ...]) -> tuple[int, ...]:
    board = board_for(map_id)
    pairs = [(board.track_a[i], board.track_b[i]) for i, o in enumerate(owners) if o == seat]
    labels = components(len(board.city_ids), pairs)
    return tuple(t for t in tickets if labels[board.tickets[t][0]] != labels[board.tickets[t][1]])


def ticket_plan(state: TtrState, seat: int, board: Board, ticket: int) -> tuple[int, list[int] | None]:
    """Cars still needed for a ticket and the free tracks of its cheapest path (None: unreachable or too long)."""
    a, b, _ = board.tickets[ticket]
    cost, path = cheapest_path(state, seat, board, a, b)
    if path is None or cost > state.cars[seat]:
        return cost, None
    return cost, path


def target_tracks(state: TtrState, seat: int, board: Board, tickets: list[int] | None = None) -> list[int]:
    """Free tracks on the cheapest missing path of each unfinished, still reachable ticket (all, or those given)."""
    chosen = tuple(open_tickets(state, seat, board) if tickets is None else tickets)
    closed = doubles_closed(state.n_players, state.options, board)
    stations = own_stations(state, seat)
    return list(_targets(state.map_id, state.owners, seat, closed, state.cars[seat], chosen, stations))


@lru_cache(maxsize=4096)
def _targets(
    map_id: str,
    owners: tuple[int, ...],
    seat: int,
    closed: bool,
    cars: int,
    tickets: tuple[int, ...],
    stations: tuple[int, ...],
) -> tuple[int, ...]:
    """Memoised `target_tracks`: playouts ask again after every card drawn, and the board has not changed."""
    board = board_for(map_id)
    targets: list[int] = []
    for ticket in tickets:
        a, b, _ = board.tickets[ticket]
        cost, path = _cheapest(map_id, owners, seat, closed, a, b, True, stations)
        if path is not None and cost <= cars:
            targets.extend(t for t in path if t not in targets)
    return tuple(targets)


TUNNEL_RISK = 0.25
"""A tunnel without a spare card is still tried when the reveal asks for none this likely (few of its colour and
locomotives left unseen). Measured (Europe, 400 games a row against the playstyle agents, paired): no weaker than
trying only with a spare card (73.4 % of wins against 73.3 %)."""


def payments_worth_trying(
    board: Board,
    track: int,
    pays: tuple[Payment, ...],
    hand: tuple[int, ...],
    unseen: list[int] | None = None,
    now: bool = False,
) -> tuple[Payment, ...]:
    """The payments a tunnel is tried with (R-EU-6): those leaving a spare card for the extra cost the reveal may
    ask, or, judged by the `unseen` cards, unlikely to be asked more than the hand holds; all of them when the
    track is needed `now` or is no tunnel. None: keep drawing."""
    if not board.track_tunnel[track] or now:
        return pays
    length = board.track_len[track]
    kept = []
    for pay in pays:
        color, locos = pay
        spare = hand[LOCO] - length if color == LOCO else hand[color] - (length - locos) + hand[LOCO] - locos
        if spare >= 1 or (unseen is not None and tunnel_risk(board, track, pay, hand, unseen) <= TUNNEL_RISK):
            kept.append(pay)
    return tuple(kept)


def claims_by_track(
    moves: MoveSet,
    board: Board,
    hand: tuple[int, ...],
    tracks: Iterable[int] | None = None,
    unseen: list[int] | None = None,
    now: bool = False,
) -> dict[int, tuple[Payment, ...]]:
    """Every claimable track (of `tracks`, if given) worth trying now, with the payments worth trying it with
    (tunnels judged by the `unseen` cards, if given, and tried any way if the tracks are needed `now`)."""
    claims = moves.claims if tracks is None else moves.claims_of(tracks)
    found = {}
    for track, pays in claims:
        kept = payments_worth_trying(board, track, pays, hand, unseen, now)
        if kept:
            found[track] = kept
    return found


def claim(board: Board, track: int, pays: tuple[Payment, ...], hand: tuple[int, ...]) -> Claim:
    """Claim with the fewest locomotives, then with the colour held most (keeps the rest of the hand varied)."""
    color, locos = min(pays, key=lambda p: (p[1], -hand[p[0]] if p[0] != LOCO else 0, p[0]))
    return Claim(track=board.track_ids[track], color=CARD_NAMES[color], locomotives=locos)


def claim_longest(
    board: Board, tracks: Iterable[int], by_track: Mapping[int, tuple[Payment, ...]], hand: tuple[int, ...]
) -> Claim:
    """Claim the longest of these affordable tracks (the lowest index among equals)."""
    track = max(tracks, key=lambda t: (board.track_len[t], -t))
    return claim(board, track, by_track[track], hand)


def claim_best_scoring(
    board: Board, tracks: Iterable[int], by_track: Mapping[int, tuple[Payment, ...]], hand: tuple[int, ...]
) -> Claim:
    """Claim the best-scoring of these affordable tracks (the lowest index among equals)."""
    track = max(tracks, key=lambda t: (board.track_points[t], -t))
    return claim(board, track, by_track[track], hand)


def claim_best_ending(
    state: TtrState, seat: int, board: Board, by_track: Mapping[int, tuple[Payment, ...]], hand: tuple[int, ...]
) -> Claim:
    """Claim the affordable track worth most if the game ended now: its points and what it does for the longest-path
    bonus (`longest_gain`); the lowest index among equals. Tracks are weighed best-scoring first, and no further once
    even the whole bonus could not lift one above the best so far."""
    points = board.track_points
    most = board.game_map.rules.longest_bonus if state.options.longest_bonus else 0
    best, best_key = -1, (-1, 0)
    for track in sorted(by_track, key=lambda t: (-points[t], t)):
        if points[track] + most < best_key[0]:
            break
        key = (points[track] + longest_gain(state, seat, board, track), -track)
        if key > best_key:
            best, best_key = track, key
    return claim(board, best, by_track[best], hand)


def longest_gain(state: TtrState, seat: int, board: Board, track: int) -> int:
    """What claiming the track does for the seat's longest-path bonus (R-P3): all of it when the seat's trail becomes
    the longest where it was not; half when it extends, at one of its ends, a trail already the longest (a lead a
    rival must then beat: counted at the ends only, as counted exactly it made playouts a quarter slower); else
    nothing."""
    bonus = board.game_map.rules.longest_bonus if state.options.longest_bonus else 0
    if not bonus:
        return 0
    trail = _trails(state.map_id, state.owners, seat, state.n_players)
    a, b, length = board.track_a[track], board.track_b[track], board.track_len[track]
    extends = a in trail.ends or b in trail.ends
    if trail.own >= trail.rival:
        return bonus // 2 if extends else 0
    needed = trail.rival
    if extends and trail.own + length >= needed:
        return bonus  # the trail goes on along the new track
    # A trail through the new track runs within the networks it joins: at most their cars and its own.
    loop = trail.labels[a] == trail.labels[b]
    joined = length + trail.cars.get(trail.labels[a], 0) + (0 if loop else trail.cars.get(trail.labels[b], 0))
    if joined < needed:
        return 0
    if loop:  # it closes a loop in the seat's network: count the trails again
        after = _trail_of(state.map_id, tuple(sorted((*trail.network, track))))[0]
    else:  # it joins a trail ending at one of its cities to one starting at the other
        after = length + _trail_from(state.map_id, trail.network, a) + _trail_from(state.map_id, trail.network, b)
    return bonus if after >= needed else 0


@dataclass(frozen=True)
class _Trails:
    """The seat's longest trail (its length and end cities), the longest of any other seat's, and the seat's network:
    its tracks, a component label per city and the cars of each component's routes."""

    own: int
    ends: frozenset[int]
    rival: int
    network: tuple[int, ...]
    labels: list[int]
    cars: dict[int, int]


@lru_cache(maxsize=1024)
def _trails(map_id: str, owners: tuple[int, ...], seat: int, n_players: int) -> _Trails:
    """Memoised: normal weighs every claim it can afford against the same board."""
    board = board_for(map_id)
    networks = [tuple(t for t, o in enumerate(owners) if o == s) for s in range(n_players)]
    own, ends = _trail_of(map_id, networks[seat])
    labels = components(len(board.city_ids), [(board.track_a[t], board.track_b[t]) for t in networks[seat]])
    cars: dict[int, int] = {}
    for t in networks[seat]:
        label = labels[board.track_a[t]]
        cars[label] = cars.get(label, 0) + board.track_len[t]
    rival = max(_trail_of(map_id, network)[0] for s, network in enumerate(networks) if s != seat)
    return _Trails(own=own, ends=ends, rival=rival, network=networks[seat], labels=labels, cars=cars)


@lru_cache(maxsize=4096)
def _trail_of(map_id: str, tracks: tuple[int, ...]) -> tuple[int, frozenset[int]]:
    """The longest trail over these tracks: its length and end cities (memoised: a seat's routes change only when
    it claims, while the others' are asked after every claim)."""
    board = board_for(map_id)
    length, path = longest_trail(track_edges(board, tracks))
    return length, _trail_ends(board, [board.track_index[t] for t in path])


@lru_cache(maxsize=4096)
def _trail_from(map_id: str, tracks: tuple[int, ...], city: int) -> int:
    """The longest trail over these tracks that starts at this city (0 if none touches it): the longest trail once a
    track longer than all of them hangs from the city, less that track."""
    edges = track_edges(board_for(map_id), tracks)
    if not any(city in edge[:2] for edge in edges):
        return 0
    hung = 1 + sum(edge[2] for edge in edges)
    return longest_trail([*edges, (city, -1, hung, 0)])[0] - hung


def _trail_ends(board: Board, path: list[int]) -> frozenset[int]:
    """The end cities of a trail given as its tracks in order (one city for a closed loop)."""
    if not path:
        return frozenset()
    first = path[0]
    for start in (board.track_a[first], board.track_b[first]):
        city = start
        for t in path:
            if city not in (board.track_a[t], board.track_b[t]):
                break
            city = board.track_b[t] if city == board.track_a[t] else board.track_a[t]
        else:
            return frozenset((start, city))
    raise AssertionError("a trail's tracks follow each other")


def draw(moves: MoveSet, needed: list[int], first: bool, locomotives: bool = True) -> DrawCard:
    """Take a face-up card of the most needed colour, a face-up locomotive as the first pick, else the deck."""
    names = set(moves.draws)
    for color in needed:
        if CARD_NAMES[color] in names:
            return DrawCard(source=CARD_NAMES[color])
    if locomotives and first and needed and CARD_NAMES[LOCO] in names:
        return DrawCard(source=CARD_NAMES[LOCO])
    if DECK in names:
        return DrawCard(source=DECK)
    return DrawCard(source=moves.draws[0])


def track_color(board: Board, track: int, hand: tuple[int, ...]) -> int:
    """The colour a track would be paid in: its own, or for a gray track the colour held most."""
    color = board.track_color[track]
    return color if color >= 0 else max(range(8), key=lambda c: (hand[c], -c))


def needed_colors(targets: list[int], board: Board, hand: tuple[int, ...]) -> list[int]:
    """Colours missing for the target tracks, most missing first (a gray track wants the colour held most)."""
    missing: dict[int, int] = {}
    for track in targets:
        color = track_color(board, track, hand)
        missing[color] = missing.get(color, 0) + max(0, board.track_len[track] - hand[color])
    return [c for c, n in sorted(missing.items(), key=lambda kv: (-kv[1], kv[0])) if n > 0]


def offer_costs(state: TtrState, seat: int, board: Board, offer: tuple[int, ...]) -> dict[int, float]:
    """Cars each offered ticket still needs (points break ties: a dearer ticket of the same cost first)."""
    costs = {}
    for ticket in offer:
        a, b, points = board.tickets[ticket]
        cost, path = cheapest_path(state, seat, board, a, b)
        costs[ticket] = (cost if path is not None else UNREACHABLE) - points / 100
    return costs


PLAN_OVERHEAD = 3
"""Cars a planned track costs on top of its length: each track is a turn of its own, and longer ones score more per
car (measured, 300 games a row against the playstyle agents: 3 won up to 11 % more 4-player games than 0, and 5
or 8 no more than 3)."""
POINTS_EARNED = 0.4
"""The share of a route's points a plan counts back against its cars: a 6-car route (15 points) weighs 3 where a
1-car one weighs 4, so a ticket's way runs along long routes where it can (as the Long Route agent plays). Measured
against the six playstyle agents (`bench.levels --subject normal`, 100 games a row, the same deals, both maps): head
to head 53.3 % → 56.9 % on average over the 12 rows (against Long Route on Europe 25 % → 43 %), at the 4-player
tables 37.6 % → 40.5 %; at 0.6 the weights reach 0 and plans take detours, far worse (30 % head to head)."""

TUNNEL_PLAN_CARS = 2
"""Cars a planned tunnel costs on top at a table of 3 or more (R-EU-6): its reveal may ask for more cards, so it is
tried only with a card to spare or at low risk, and a long gray tunnel waits for a hand of one colour that rarely
comes while rivals take the ways around. Planned at their plain weight, long tunnels drew 4-player plans through
them: a plan still waiting on two of them with 20 cards in hand, its tickets lost. Measured on Europe (`bench.levels
--subject normal --games 200 --only "europe: normal vs"`, the same deals): at the 4-player tables 36.5 % → 46.5 % of
wins; 1, 3 and 4 cars gave 43.0 %, 44.8 % and 42.8 %, and a ferry's locomotives weighed as well gained nothing. Head
to head it moved `normal` by a point (61.3 % → 62.3 %) but `hard` lost more deals to the agents than it won (30 and
16 of 171, at 1 s and 0.25 s), so two players plan tunnels at their plain weight."""


def joint_plan(state: TtrState, seat: int, board: Board) -> list[int]:
    """Free tracks that connect every open ticket the cars allow, planned together: the dearest ticket first,
    each later one joining the tracks already planned for free (so tickets share their routes)."""
    return list(_plan(state, seat, board)[0])


def _plan(state: TtrState, seat: int, board: Board) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The joint plan's tracks, the open tickets it cannot take in (cut, or too long for the cars), its cars."""
    closed = doubles_closed(state.n_players, state.options, board)
    tickets = tuple(open_tickets(state, seat, board))
    tunnel_cars = TUNNEL_PLAN_CARS if state.n_players > 2 else 0
    stations = own_stations(state, seat)
    return _joint(state.map_id, state.owners, seat, closed, state.cars[seat], tickets, stations, tunnel_cars)


@lru_cache(maxsize=4096)
def _joint(
    map_id: str,
    owners: tuple[int, ...],
    seat: int,
    closed: bool,
    cars: int,
    tickets: tuple[int, ...],
    stations: tuple[int, ...],
    tunnel_cars: int,
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Memoised `_plan`."""
    board = board_for(map_id)
    lengths = board.track_len
    weights = _weights(map_id, owners, seat, closed, True, PLAN_OVERHEAD, stations, tunnel_cars)
    planned: list[int] = []
    dropped: list[int] = []
    used = 0
    for ticket in sorted(tickets, key=lambda t: (-board.tickets[t][2], t)):
        a, b, _ = board.tickets[ticket]
        _, path = _dijkstra(map_id, weights, a, b)
        if path is None:
            dropped.append(ticket)
            continue
        new = [t for t in path if weights[t] > 0]
        extra = sum(lengths[t] for t in new)
        if used + extra <= cars:
            planned.extend(new)
            used += extra
            for t in new:
                weights[t] = 0
        else:
            dropped.append(ticket)
    return tuple(planned), tuple(dropped), used


def own_score(
    state: TtrState, seat: int, owners: tuple[int, ...] | None = None, stations: tuple[int, ...] | None = None
) -> PlayerScore:
    """The seat's final figures if the game ended now, or with these routes and stations (a station more than the
    state has is counted as built): only the seat's own tickets are read, never another seat's."""
    stations = state.stations if stations is None else stations
    built = stations.count(seat) - state.stations.count(seat)
    ended = state.model_copy(
        update={
            "owners": state.owners if owners is None else owners,
            "stations": stations,
            "stations_left": tuple(n - built if s == seat else n for s, n in enumerate(state.stations_left)),
            "tickets": tuple(state.tickets[s] if s == seat else () for s in range(state.n_players)),
        }
    )
    return final_scores(ended)[seat]


def marginal_costs(state: TtrState, seat: int, board: Board, offer: Iterable[int]) -> tuple[dict[int, int], int]:
    """Cars each offered ticket adds to the seat's joint plan (UNREACHABLE if none), and the cars the plan leaves."""
    closed = doubles_closed(state.n_players, state.options, board)
    plan, _, used = _plan(state, seat, board)
    lengths = board.track_len
    weights = _weights(state.map_id, state.owners, seat, closed, True, 0, own_stations(state, seat))
    for t in plan:
        weights[t] = 0
    costs = {}
    for ticket in offer:
        a, b, _ = board.tickets[ticket]
        _, path = _dijkstra(state.map_id, weights, a, b)
        costs[ticket] = UNREACHABLE if path is None else sum(lengths[t] for t in path if weights[t] > 0)
    return costs, state.cars[seat] - used


def station_rescue(state: TtrState, seat: int, board: Board, ending: bool) -> int | None:
    """The city where a station saves the dearest ticket worth more than an unused station (R-EU-4, R-EU-8), or
    None: a ticket the plan cannot take in whose cities one borrowed rival route joins within the cars the plan
    leaves; when the game is `ending`, also any open ticket the station alone completes now.

    Measured (Europe, 700 games a row against the playstyle agents, paired): win shares as without stations
    (74.7 % → 74.7 %), capping the cars a saved ticket may still need at 0 no different; building one whenever
    someone holds 6 cars or fewer lost 4-player wins (59 % → 52 %): it replaced claims that finished the ticket."""
    if not state.stations_left[seat]:
        return None
    _, dropped, used = _plan(state, seat, board)
    candidates = open_tickets(state, seat, board) if ending else dropped
    spare = 0 if ending else state.cars[seat] - used
    return station_bridge(state, seat, board, candidates, spare)


def station_bridge(state: TtrState, seat: int, board: Board, tickets: Iterable[int], spare: int) -> int | None:
    """The free city where a station lets the dearest of these tickets (worth more than an unused station) borrow
    a rival's route that joins its cities with at most `spare` more cars, or None."""
    chosen = tuple(tickets)
    if not chosen:
        return None
    closed = doubles_closed(state.n_players, state.options, board)
    value = board.game_map.rules.station_value
    stations = own_stations(state, seat)
    return _rescue(state.map_id, state.owners, state.stations, seat, closed, spare, chosen, stations, value)


@lru_cache(maxsize=1024)
def _rescue(
    map_id: str,
    owners: tuple[int, ...],
    city_owners: tuple[int, ...],
    seat: int,
    closed: bool,
    spare: int,
    tickets: tuple[int, ...],
    stations: tuple[int, ...],
    station_value: int,
) -> int | None:
    """Memoised `station_rescue`: for each ticket, dearest first, the free city at an end of a rival's route that
    joins its cities for the fewest cars (at most `spare`)."""
    board = board_for(map_id)
    weights = _weights(map_id, owners, seat, closed, True, 0, stations)
    rivals = [t for t, owner in enumerate(owners) if owner >= 0 and weights[t] < 0]
    for ticket in sorted(tickets, key=lambda t: (-board.tickets[t][2], t)):
        a, b, points = board.tickets[ticket]
        if points <= station_value:
            continue
        from_a, from_b = _distances(map_id, weights, a), _distances(map_id, weights, b)
        best: tuple[int, int] | None = None
        for track in rivals:
            u, v = board.track_a[track], board.track_b[track]
            cost = min(from_a[u] + from_b[v], from_a[v] + from_b[u])
            if cost > spare:
                continue
            for city in (u, v):
                if city_owners[city] < 0 and (best is None or (cost, city) < best):
                    best = (cost, city)
        if best is not None:
            return best[1]
    return None


def build_station(
    board: Board, city: int, pays: tuple[Payment, ...], hand: tuple[int, ...], needed: list[int]
) -> BuildStation:
    """Build at `city` paying the fewest locomotives, in a colour the plan needs least, then the colour held most."""
    rank = {color: i for i, color in enumerate(needed)}
    color, locos = min(pays, key=lambda p: (p[1], -rank.get(p[0], len(needed)), -hand[p[0]], p[0]))
    return BuildStation(city=board.city_ids[city], color=CARD_NAMES[color], locomotives=locos)


def unseen_cards(state: TtrState, seat: int) -> list[int]:
    """Per card code, how many the seat has not seen: the 110 less the face-up row, the discards and its hand (a
    tunnel's reveal comes from these)."""
    counts = list(DECK_COMPOSITION)
    for card in (*state.market, *state.discard):
        counts[card] -= 1
    for card, n in enumerate(state.hands[seat]):
        counts[card] -= n
    return [max(0, n) for n in counts]


def tunnel_risk(board: Board, track: int, pay: Payment, hand: tuple[int, ...], unseen: list[int]) -> float:
    """The chance that the 3 cards a tunnel reveals ask for more extra cards than the hand has left after paying
    `pay` (R-EU-6): matching cards are the payment's colour and locomotives, drawn from the unseen cards."""
    color, locos = pay
    length = board.track_len[track]
    if color == LOCO:
        spare, matching = hand[LOCO] - length, unseen[LOCO]
    else:
        spare, matching = hand[color] - (length - locos) + hand[LOCO] - locos, unseen[color] + unseen[LOCO]
    total = sum(unseen)
    if spare >= 3 or total < 3:
        return 0.0
    return sum(comb(matching, k) * comb(total - matching, 3 - k) for k in range(spare + 1, 4)) / comb(total, 3)
