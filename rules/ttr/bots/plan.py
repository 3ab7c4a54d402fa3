"""Planning helpers every Ticket to Ride bot shares: cheapest missing paths, colours needed, how to pay and draw.

Everything here reads only what the planning seat may see: the board, the face-up cards, whether the piles hold
cards, and that seat's own hand, tickets, offer and cars.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from rules.ttr.actions import DECK, Claim, DrawCard
from rules.ttr.board import CARD_NAMES, LOCO, Board, board_for
from rules.ttr.cards import Payment
from rules.ttr.graph import components
from rules.ttr.moves import MoveSet, doubles_closed
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
    return _cheapest(state.map_id, state.owners, seat, closed, start, goal, owned_free)


@cache
def _adjacency(map_id: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per city: (track, city at its other end) for every track touching it."""
    board = board_for(map_id)
    return tuple(
        tuple((t, board.track_b[t] if board.track_a[t] == city else board.track_a[t]) for t in tracks)
        for city, tracks in enumerate(board.city_tracks)
    )


def _weights(
    map_id: str, owners: tuple[int, ...], seat: int, closed: bool, owned_free: bool, overhead: int
) -> list[int]:
    """What each track costs a path of the seat: -1 if it may not use it, 0 (or its length) if its own, else its
    length plus `overhead`."""
    board = board_for(map_id)
    partners = board.track_partner
    weights = []
    for track, length in enumerate(board.track_len):
        owner = owners[track]
        if owner >= 0:
            weights.append(-1 if owner != seat else 0 if owned_free else length)
            continue
        partner = partners[track]
        if partner >= 0 and owners[partner] >= 0 and (closed or owners[partner] == seat):
            weights.append(-1)
        else:
            weights.append(length + overhead)
    return weights


def _cheapest(
    map_id: str, owners: tuple[int, ...], seat: int, closed: bool, start: int, goal: int, owned_free: bool
) -> tuple[int, list[int] | None]:
    """Cars to join `start` to `goal` and the free tracks of that path (own tracks cost nothing if `owned_free`)."""
    cost, path = _dijkstra(map_id, _weights(map_id, owners, seat, closed, owned_free, 0), start, goal)
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
    return list(_targets(state.map_id, state.owners, seat, closed, state.cars[seat], chosen))


@lru_cache(maxsize=4096)
def _targets(
    map_id: str, owners: tuple[int, ...], seat: int, closed: bool, cars: int, tickets: tuple[int, ...]
) -> tuple[int, ...]:
    """Memoised `target_tracks`: playouts ask again after every card drawn, and the board has not changed."""
    board = board_for(map_id)
    targets: list[int] = []
    for ticket in tickets:
        a, b, _ = board.tickets[ticket]
        cost, path = _cheapest(map_id, owners, seat, closed, a, b, True)
        if path is not None and cost <= cars:
            targets.extend(t for t in path if t not in targets)
    return tuple(targets)


def worth_trying(board: Board, track: int, pays: tuple[Payment, ...], hand: tuple[int, ...]) -> bool:
    """A tunnel is tried only with a spare card for the extra cost the reveal may ask (R-EU-6); else keep drawing."""
    if not board.track_tunnel[track]:
        return True
    length = board.track_len[track]
    for color, locos in pays:
        spare = hand[LOCO] - length if color == LOCO else hand[color] - (length - locos) + hand[LOCO] - locos
        if spare >= 1:
            return True
    return False


def claims_by_track(
    moves: MoveSet, board: Board, hand: tuple[int, ...], tracks: Iterable[int] | None = None
) -> dict[int, tuple[Payment, ...]]:
    """Every claimable track (of `tracks`, if given) worth trying now, with its payments."""
    claims = moves.claims if tracks is None else moves.claims_of(tracks)
    return {track: pays for track, pays in claims if worth_trying(board, track, pays, hand)}


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


def joint_plan(state: TtrState, seat: int, board: Board) -> list[int]:
    """Free tracks that connect every open ticket the cars allow, planned together: the dearest ticket first,
    each later one joining the tracks already planned for free (so tickets share their routes)."""
    closed = doubles_closed(state.n_players, state.options, board)
    tickets = tuple(open_tickets(state, seat, board))
    return list(_joint(state.map_id, state.owners, seat, closed, state.cars[seat], tickets))


@lru_cache(maxsize=4096)
def _joint(
    map_id: str, owners: tuple[int, ...], seat: int, closed: bool, cars: int, tickets: tuple[int, ...]
) -> tuple[int, ...]:
    """Memoised `joint_plan`."""
    board = board_for(map_id)
    lengths = board.track_len
    weights = _weights(map_id, owners, seat, closed, True, PLAN_OVERHEAD)
    planned: list[int] = []
    used = 0
    for ticket in sorted(tickets, key=lambda t: (-board.tickets[t][2], t)):
        a, b, _ = board.tickets[ticket]
        _, path = _dijkstra(map_id, weights, a, b)
        if path is None:
            continue
        new = [t for t in path if weights[t] > 0]
        extra = sum(lengths[t] for t in new)
        if used + extra <= cars:
            planned.extend(new)
            used += extra
            for t in new:
                weights[t] = 0
    return tuple(planned)


def marginal_costs(state: TtrState, seat: int, board: Board, offer: Iterable[int]) -> tuple[dict[int, int], int]:
    """Cars each offered ticket adds to the seat's joint plan (UNREACHABLE if none), and the cars the plan leaves."""
    closed = doubles_closed(state.n_players, state.options, board)
    plan = _joint(state.map_id, state.owners, seat, closed, state.cars[seat], tuple(open_tickets(state, seat, board)))
    lengths = board.track_len
    weights = _weights(state.map_id, state.owners, seat, closed, True, 0)
    for t in plan:
        weights[t] = 0
    costs = {}
    for ticket in offer:
        a, b, _ = board.tickets[ticket]
        _, path = _dijkstra(state.map_id, weights, a, b)
        costs[ticket] = UNREACHABLE if path is None else sum(lengths[t] for t in path if weights[t] > 0)
    return costs, state.cars[seat] - sum(lengths[t] for t in plan)
