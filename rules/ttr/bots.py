"""Bot players: `random` (uniform over every legal move) and `sensible` (plays toward its tickets).

Both read only what their seat may see: the board, the face-up cards, pile sizes, their own hand and tickets.
The sensible player plans the cheapest missing path of each unfinished ticket (its own routes free, others'
routes closed), claims what it can afford on those paths, draws the colours they need, takes new tickets when
its own are done, and spends leftover cars on the best-scoring routes. Both always return a legal move.
"""

from __future__ import annotations

import heapq
import random

from rules.engine import DEFAULT_BUDGET, LEGACY_KINDS, Budget
from rules.ttr.actions import DECK, Claim, DrawCard, DrawTickets, KeepTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import CARD_NAMES, LOCO, Board, board_for
from rules.ttr.cards import Payment
from rules.ttr.graph import components
from rules.ttr.moves import MoveSet, doubles_closed, move_set
from rules.ttr.state import Phase, TtrState

BIG_HAND = 16
"""A hand this large means waiting is not paying off: claim something."""
NEW_TICKETS_MIN_CARS = 15
"""Draw new tickets only with enough cars left to finish them."""


def choose(state: TtrState, seat: int, rng: random.Random, kind: str, budget: Budget = DEFAULT_BUDGET) -> TtrAction:
    """Return a legal move for a bot of this kind in `seat`."""
    kind = LEGACY_KINDS.get(kind, kind)
    moves = move_set(state, seat)
    board = board_for(state.map_id)
    n = moves.count()
    if n == 0:
        raise ValueError(f"seat {seat} has nothing to do now")
    if kind == "random":
        return moves.pick(rng.randrange(n), board)
    if kind != "normal":
        raise ValueError(f"unknown bot kind {kind!r}")
    return _sensible(state, seat, moves, board, rng)


def _sensible(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    if moves.keeps:
        return _keep(state, seat, moves, board)
    if state.phase is Phase.TUNNEL:
        return PayTunnel(locomotives=moves.pays[0]) if moves.pays else Withdraw()
    hand = state.hands[seat]
    targets = _target_tracks(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return _draw(moves, _needed_colors(targets, board, hand), first=False)
    by_track = {track: pays for track, pays in moves.claims if _worth_trying(board, track, pays, hand)}
    wanted = [t for t in targets if t in by_track]
    if wanted:
        track = max(wanted, key=lambda t: (board.track_len[t], -t))
        return _claim(board, track, by_track[track], hand)
    if not targets and moves.tickets and state.cars[seat] >= NEW_TICKETS_MIN_CARS:
        return DrawTickets()
    if by_track and (not targets or sum(hand) >= BIG_HAND or not moves.draws):
        track = max(by_track, key=lambda t: (board.track_points[t], -t))
        return _claim(board, track, by_track[track], hand)
    if moves.draws:
        return _draw(moves, _needed_colors(targets, board, hand), first=True)
    if moves.tickets:
        return DrawTickets()
    return moves.pick(rng.randrange(moves.count()), board)


def _worth_trying(board: Board, track: int, pays: tuple[Payment, ...], hand: tuple[int, ...]) -> bool:
    """A tunnel is tried only with a spare card for the extra cost the reveal may ask (R-EU-6); else keep drawing."""
    if not board.track_tunnel[track]:
        return True
    length = board.track_len[track]
    for color, locos in pays:
        spare = hand[LOCO] - length if color == LOCO else hand[color] - (length - locos) + hand[LOCO] - locos
        if spare >= 1:
            return True
    return False


def _claim(board: Board, track: int, pays: tuple[Payment, ...], hand: tuple[int, ...]) -> Claim:
    """Claim with the fewest locomotives, then with the colour held most (keeps the rest of the hand varied)."""
    color, locos = min(pays, key=lambda p: (p[1], -hand[p[0]] if p[0] != LOCO else 0, p[0]))
    return Claim(track=board.track_ids[track], color=CARD_NAMES[color], locomotives=locos)


def _draw(moves: MoveSet, needed: list[int], first: bool) -> DrawCard:
    """Take a face-up card of the most needed colour, a face-up locomotive as the first pick, else the deck."""
    names = set(moves.draws)
    for color in needed:
        if CARD_NAMES[color] in names:
            return DrawCard(source=CARD_NAMES[color])
    if first and needed and CARD_NAMES[LOCO] in names:
        return DrawCard(source=CARD_NAMES[LOCO])
    if DECK in names:
        return DrawCard(source=DECK)
    return DrawCard(source=moves.draws[0])


def _needed_colors(targets: list[int], board: Board, hand: tuple[int, ...]) -> list[int]:
    """Colours missing for the target tracks, most missing first (a gray track wants the colour held most)."""
    missing: dict[int, int] = {}
    for track in targets:
        color = board.track_color[track]
        if color < 0:
            color = max(range(8), key=lambda c: (hand[c], -c))
        missing[color] = missing.get(color, 0) + max(0, board.track_len[track] - hand[color])
    return [c for c, n in sorted(missing.items(), key=lambda kv: (-kv[1], kv[0])) if n > 0]


def _target_tracks(state: TtrState, seat: int, board: Board) -> list[int]:
    """Free tracks on the cheapest missing path of each unfinished, still reachable ticket."""
    labels = components(len(board.city_ids), _own_pairs(state, seat, board))
    targets: list[int] = []
    for ticket in state.tickets[seat]:
        a, b, _ = board.tickets[ticket]
        if labels[a] == labels[b]:
            continue
        cost, path = _cheapest_path(state, seat, board, a, b)
        if path is not None and cost <= state.cars[seat]:
            targets.extend(t for t in path if state.owners[t] < 0 and t not in targets)
    return targets


def _own_pairs(state: TtrState, seat: int, board: Board) -> list[tuple[int, int]]:
    return [(board.track_a[i], board.track_b[i]) for i, o in enumerate(state.owners) if o == seat]


def _usable(state: TtrState, seat: int, board: Board, track: int) -> bool:
    """Whether the seat owns the track or could still claim it (free, double rules allowing)."""
    owner = state.owners[track]
    if owner >= 0:
        return owner == seat
    partner = board.track_partner[track]
    if partner >= 0 and state.owners[partner] >= 0:
        return state.owners[partner] != seat and not doubles_closed(state.n_players, state.options, board)
    return True


def _cheapest_path(state: TtrState, seat: int, board: Board, start: int, goal: int) -> tuple[int, list[int] | None]:
    """Dijkstra over cities: own tracks cost 0, claimable tracks their length; returns cars needed and tracks."""
    dist = {start: 0}
    via: dict[int, int] = {}
    heap = [(0, start)]
    while heap:
        d, city = heapq.heappop(heap)
        if city == goal:
            break
        if d > dist[city]:
            continue
        for track in board.city_tracks[city]:
            if not _usable(state, seat, board, track):
                continue
            nxt = board.track_b[track] if board.track_a[track] == city else board.track_a[track]
            cost = d + (0 if state.owners[track] == seat else board.track_len[track])
            if cost < dist.get(nxt, 1 << 30):
                dist[nxt] = cost
                via[nxt] = track
                heapq.heappush(heap, (cost, nxt))
    if goal not in dist:
        return 1 << 30, None
    path = []
    city = goal
    while city != start:
        track = via[city]
        path.append(track)
        city = board.track_b[track] if board.track_a[track] == city else board.track_a[track]
    return dist[goal], path


def _keep(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the cheapest tickets to finish: the fewest allowed, plus any that cost almost nothing more."""
    offer = state.offers[seat]
    costs = {}
    for ticket in offer:
        a, b, points = board.tickets[ticket]
        cost, path = _cheapest_path(state, seat, board, a, b)
        costs[ticket] = (cost if path is not None else 1 << 30) - points / 100
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t], t))
    kept = set(ranked[:minimum]) | {t for t in offer if costs[t] <= 2}
    choice = tuple(sorted(kept))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])
