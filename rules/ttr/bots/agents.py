"""The four playstyle agents of de Mesentier Silva, Lee, Togelius and Nealen (2017), the yardstick for `hard`.

How each description was read, and where a choice had to be made, is written down in docs/playstyle-agents.md.
Like every bot they read only what their seat may see.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.ttr.actions import DrawTickets, KeepTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import Board
from rules.ttr.moves import MoveSet
from rules.ttr.state import Phase, TtrState

from .heuristic import BIG_HAND, keep_cheapest
from .plan import (
    UNREACHABLE,
    claim,
    claim_best_scoring,
    claim_longest,
    claims_by_track,
    draw,
    needed_colors,
    offer_costs,
    open_tickets,
    own_labels,
    target_tracks,
    ticket_plan,
    usable,
)

Agent = Callable[[TtrState, int, MoveSet, Board, random.Random], TtrAction]

HUNGRY_SPARE_CARS = 8
"""Destination Hungry draws more tickets while its open tickets leave at least this many cars spare."""
HUNGRY_MIN_CARS = 12
LONG_ROUTE = 5
"""Long Route claims any affordable track at least this long at once."""


def _fallback(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction | None:
    """The phases every agent plays alike: paying a tunnel it started, or the only move there is."""
    if state.phase is Phase.TUNNEL:
        return PayTunnel(locomotives=moves.pays[0]) if moves.pays else Withdraw()
    if moves.pass_only:
        return moves.pick(0, board)
    return None


def route_focus(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Route Focus: build the routes of its tickets, the most valuable ticket first; never draws more tickets."""
    if moves.keeps:
        return keep_cheapest(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    tickets = sorted(open_tickets(state, seat, board), key=lambda t: (-board.tickets[t][2], t))
    focus = next((t for t in tickets if ticket_plan(state, seat, board, t)[1] is not None), None)
    targets = target_tracks(state, seat, board, [focus]) if focus is not None else []
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    by_track = claims_by_track(moves, board, hand)
    wanted = [t for t in targets if t in by_track]
    if wanted:
        return claim_longest(board, wanted, by_track, hand)
    if by_track and (not targets or sum(hand) >= BIG_HAND or not moves.draws):
        return claim_best_scoring(board, by_track, by_track, hand)
    if moves.draws:
        return draw(moves, needed_colors(targets, board, hand), first=True)
    return moves.pick(rng.randrange(moves.count()), board)


def destination_hungry(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Destination Hungry: takes tickets while its cars can still cover them, keeps every one it can afford."""
    if moves.keeps:
        return _keep_affordable(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = target_tracks(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    if moves.tickets and _spare_cars(state, seat, board) >= HUNGRY_SPARE_CARS and state.cars[seat] >= HUNGRY_MIN_CARS:
        return DrawTickets()
    by_track = claims_by_track(moves, board, hand)
    wanted = [t for t in targets if t in by_track]
    if wanted:
        return claim_longest(board, wanted, by_track, hand)
    if by_track and (not targets or sum(hand) >= BIG_HAND or not moves.draws):
        return claim_best_scoring(board, by_track, by_track, hand)
    if moves.draws:
        return draw(moves, needed_colors(targets, board, hand), first=True)
    return moves.pick(rng.randrange(moves.count()), board)


def _spare_cars(state: TtrState, seat: int, board: Board) -> int:
    """Cars left once every open ticket's missing path is built (tracks shared by two tickets counted once)."""
    return state.cars[seat] - sum(board.track_len[t] for t in target_tracks(state, seat, board))


def _keep_affordable(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the most points per car that the spare cars can pay for (at least the minimum, cheapest first)."""
    offer = state.offers[seat]
    costs = offer_costs(state, seat, board, offer)
    spare = _spare_cars(state, seat, board)
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t] / board.tickets[t][2], t))
    kept: list[int] = []
    for ticket in ranked:
        cost = costs[ticket]
        if len(kept) < minimum or (cost < UNREACHABLE and cost <= spare):
            kept.append(ticket)
            spare -= max(0, int(cost))
    choice = tuple(sorted(kept))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])


def one_step_thinker(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """One Step Thinker: the move worth most right now: a claim scoring its points (plus a ticket it finishes), a
    claim on a ticket's path as soon as it is affordable, else cards for the cheapest next track."""
    if moves.keeps:
        return keep_cheapest(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = target_tracks(state, seat, board)
    nearest = sorted(targets, key=lambda t: (board.track_len[t], t))[:1]
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(nearest, board, hand), first=False, locomotives=False)
    by_track = claims_by_track(moves, board, hand)
    on_path = [t for t in targets if t in by_track]
    if on_path:
        track = max(on_path, key=lambda t: (_immediate(state, seat, board, t), -t))
        return claim(board, track, by_track[track], hand)
    if not targets and moves.tickets and state.cars[seat] >= HUNGRY_MIN_CARS:
        return DrawTickets()
    if by_track and (not targets or not moves.draws):
        return claim_best_scoring(board, by_track, by_track, hand)
    if moves.draws:
        return draw(moves, needed_colors(nearest, board, hand), first=True, locomotives=False)
    if by_track:
        return claim_best_scoring(board, by_track, by_track, hand)
    return moves.pick(rng.randrange(moves.count()), board)


def _immediate(state: TtrState, seat: int, board: Board, track: int) -> int:
    """Points a claim scores at once: the route, and every ticket it connects."""
    labels = own_labels(state, seat, board)
    a, b = labels[board.track_a[track]], labels[board.track_b[track]]
    points = board.track_points[track]
    for ticket in open_tickets(state, seat, board):
        x, y = labels[board.tickets[ticket][0]], labels[board.tickets[ticket][1]]
        if {x, y} == {a, b}:
            points += board.tickets[ticket][2]
    return points


def long_route(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Long Route: keeps the longest tickets, claims every long track it can pay for, saves cards for long ones."""
    if moves.keeps:
        return _keep_longest(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = target_tracks(state, seat, board)
    goals = targets + _longest_free(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(goals, board, hand), first=False)
    by_track = claims_by_track(moves, board, hand)
    long = [t for t in by_track if board.track_len[t] >= LONG_ROUTE]
    if long:
        track = max(long, key=lambda t: (board.track_len[t], t in targets, -t))
        return claim(board, track, by_track[track], hand)
    wanted = [t for t in targets if t in by_track and board.track_len[t] >= 3]
    if wanted or (sum(hand) >= BIG_HAND and by_track) or (by_track and not moves.draws):
        pool = wanted or list(by_track)
        return claim_longest(board, pool, by_track, hand)
    if moves.draws:
        return draw(moves, needed_colors(goals, board, hand), first=True)
    if by_track:
        return claim_longest(board, by_track, by_track, hand)
    return moves.pick(rng.randrange(moves.count()), board)


def _longest_free(state: TtrState, seat: int, board: Board, count: int = 3) -> list[int]:
    """The longest tracks the seat could still claim with its cars, longest first."""
    cars = state.cars[seat]
    free = [
        t
        for t in range(board.n_tracks)
        if state.owners[t] < 0 and LONG_ROUTE <= board.track_len[t] <= cars and usable(state, seat, board, t)
    ]
    return sorted(free, key=lambda t: (-board.track_len[t], t))[:count]


def _keep_longest(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the highest-scoring tickets still within reach of the cars, as many as must be kept."""
    offer = state.offers[seat]
    costs = offer_costs(state, seat, board, offer)
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t] >= UNREACHABLE, -board.tickets[t][2], t))
    choice = tuple(sorted(ranked[:minimum]))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])


AGENTS: dict[str, Agent] = {
    "route_focus": route_focus,
    "destination_hungry": destination_hungry,
    "one_step_thinker": one_step_thinker,
    "long_route": long_route,
}
"""The playstyle agents by bot kind."""
