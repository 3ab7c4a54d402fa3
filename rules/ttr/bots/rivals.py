"""What a seat may guess about its rivals from the board alone: which tickets fit what each one has built, and which
free track would cut the way a rival is building.

A rival's tickets are hidden, but its claims are not: a ticket whose cities its routes already touch is far more
likely among its tickets than one far from them. Nothing here reads another seat's hand, tickets or offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.ttr.board import board_for
from rules.ttr.graph import components
from rules.ttr.moves import doubles_closed
from rules.ttr.options import TtrOptions
from rules.ttr.state import TtrState

from .plan import UNREACHABLE, _dijkstra, _weights

TOUCH_WEIGHT = 3.0
"""How much likelier a ticket is per city of it that a rival's routes touch (one for each end)."""
JOINED_WEIGHT = 4.0
"""How much likelier still when the rival's routes already join both its cities."""
LIKELY_TICKETS = 3
"""The tickets per rival a cut is aimed at: the likeliest ones its routes do not join yet."""
MIN_DETOUR = 4
"""Cars a cut must add to a rival's way (or close it) to be worth a claim off the seat's own plan."""


def ticket_weights(map_id: str, owners: tuple[int, ...], rival: int, tickets: Sequence[int]) -> list[float]:
    """How likely each ticket is to be the rival's, relative to the others, from the routes it has claimed."""
    board = board_for(map_id)
    labels, touched = _network(map_id, owners, rival)
    weights = []
    for ticket in tickets:
        a, b, _ = board.tickets[ticket]
        ends = (a in touched) + (b in touched)
        weight = TOUCH_WEIGHT**ends
        if ends == 2 and labels[a] == labels[b]:
            weight *= JOINED_WEIGHT
        weights.append(weight)
    return weights


@lru_cache(maxsize=1024)
def _network(map_id: str, owners: tuple[int, ...], rival: int) -> tuple[list[int], frozenset[int]]:
    """Component labels of the rival's routes, and the cities they touch."""
    board = board_for(map_id)
    pairs = [(board.track_a[t], board.track_b[t]) for t, o in enumerate(owners) if o == rival]
    return components(len(board.city_ids), pairs), frozenset(c for pair in pairs for c in pair)


def likely_tickets(
    map_id: str, owners: tuple[int, ...], n_players: int, options: TtrOptions, rival: int, unseen: Sequence[int]
) -> list[int]:
    """The unseen tickets likeliest to be the rival's and not yet joined by its routes: those its routes touch, and
    among as likely ones those it is nearest to finishing."""
    if rival not in owners:
        return []
    board = board_for(map_id)
    labels, _ = _network(map_id, owners, rival)
    weights = ticket_weights(map_id, owners, rival, unseen)
    ends = board.tickets
    costs = _weights(map_id, owners, rival, doubles_closed(n_players, options, board), True, 0, ())
    ranked = []
    for ticket, weight in zip(unseen, weights, strict=True):
        a, b, _ = ends[ticket]
        if weight > 1.0 and labels[a] != labels[b]:
            cost, path = _dijkstra(map_id, costs, a, b)
            if path is not None:
                ranked.append((-weight, cost, ticket))
    return [ticket for _, _, ticket in sorted(ranked)[:LIKELY_TICKETS]]


def best_cut(
    map_id: str,
    owners: tuple[int, ...],
    n_players: int,
    options: TtrOptions,
    rival: int,
    tickets: Sequence[int],
    claimable: Sequence[int],
) -> tuple[int, int] | None:
    """The claimable track that most lengthens the rival's cheapest ways to these tickets, and by how many cars;
    None when no cut adds `MIN_DETOUR` cars (a closed way counts as that many cars times two)."""
    board = board_for(map_id)
    closed = doubles_closed(n_players, options, board)
    base = _weights(map_id, owners, rival, closed, True, 0, ())
    ways = []
    for ticket in tickets:
        a, b, _ = board.tickets[ticket]
        cost, path = _dijkstra(map_id, base, a, b)
        if path is not None:
            ways.append((a, b, cost, {t for t in path if owners[t] < 0}))
    best: tuple[int, int] | None = None
    for track in sorted(claimable):
        partner = board.track_partner[track]
        shut = {track, partner} if partner >= 0 and closed else {track}  # a claim closes its double too (R-T6)
        detour = 0
        for a, b, cost, free in ways:
            if not shut & free:
                continue
            weights = list(base)
            for t in shut:
                weights[t] = -1
            after, _ = _dijkstra(map_id, weights, a, b)
            detour += 2 * MIN_DETOUR if after >= UNREACHABLE else after - cost
        if detour >= MIN_DETOUR and (
            best is None or (detour, -board.track_len[track]) > (best[1], -board.track_len[best[0]])
        ):
            best = (track, detour)
    return best


def deepest_cut(state: TtrState, seat: int, claimable: Sequence[int]) -> tuple[int, int] | None:
    """(track, rival): the claim of `claimable` by `seat` that cuts a rival's likely way deepest, and whose way it
    is; None when none cuts deep enough. Only the seat's own tickets and offer are ruled out of the guess."""
    if not claimable:
        return None
    known = {*state.tickets[seat], *state.offers[seat]}
    unseen = [t for t in board_for(state.map_id).tickets if t not in known]
    best: tuple[int, int, int] | None = None
    for rival in range(state.n_players):
        if rival == seat:
            continue
        aims = likely_tickets(state.map_id, state.owners, state.n_players, state.options, rival, unseen)
        cut = best_cut(state.map_id, state.owners, state.n_players, state.options, rival, aims, claimable)
        if cut is not None and (best is None or cut[1] > best[1]):
            best = (cut[0], cut[1], rival)
    return None if best is None else (best[0], best[2])
