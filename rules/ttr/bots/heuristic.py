"""The `normal` player (a sound heuristic, the rollout policy of `hard`) and the `easy` one (a beginner's slips)."""

from __future__ import annotations

import random

from rules.ttr.actions import DECK, DrawCard, DrawTickets, KeepTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import CARD_NAMES, LOCO, Board
from rules.ttr.moves import MoveSet
from rules.ttr.state import Phase, TtrState

from .plan import (
    build_station,
    claim,
    claim_best_ending,
    claim_longest,
    claims_by_track,
    draw,
    joint_plan,
    marginal_costs,
    needed_colors,
    offer_costs,
    open_tickets,
    station_bridge,
    station_rescue,
    ticket_plan,
    unseen_cards,
)

BIG_HAND = 20
"""A hand this large means waiting is not paying off: claim something off the plan (measured: 20 won 2-6 % more
games than 16 against the playstyle agents, 200 games a row; never doing so lost 3 % more)."""
NEW_TICKETS_MIN_CARS = 15
"""Draw new tickets only with enough cars left to finish them."""
NEW_TICKETS_MIN_TABLE_CARS = 12
"""… and only while every player holds this many cars: the game ends once someone has 2 or fewer, so the fewest
cars anyone holds bounds the turns left to finish them. Measured (both maps, 300 games a row against the playstyle
agents, paired): 76.5 % of wins with 12 or 8, 76.1 % without this bound, 75.9 % with 16 (differences within noise,
none weaker than before)."""
EASY_SLIP = 0.2
"""How often the easy player draws cards although it could claim a route it wants (more slips measured stronger:
a bigger hand pays for longer routes later)."""
EASY_STRAY = 0.15
"""How often the easy player claims a track off its plan because it can (measured: normal's wins over easy rise
from 62 % to 80 % on the USA map, 83 % to 90 % on Europe, 100 games each)."""


def normal(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Plan the missing tracks of every ticket together, claim the longest affordable one of them, else draw."""
    if moves.keeps:
        return keep_fitting(state, seat, moves, board)
    if state.phase is Phase.TUNNEL:
        return pay_tunnel(state, seat, moves, board)
    hand = state.hands[seat]
    targets = joint_plan(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    if moves.station_payments:
        city = station_rescue(state, seat, board, ending(state))
        if city is not None and city in moves.station_cities:
            return build_station(board, city, moves.station_payments, hand, needed_colors(targets, board, hand))
    unseen = unseen_cards(state, seat) if any(board.track_tunnel[t] for t in targets) else None
    wanted = claims_by_track(moves, board, hand, targets, unseen, ending(state))
    if wanted:
        return claim_longest(board, wanted, wanted, hand)
    if not targets and moves.tickets and late_tickets_pay(state, seat):
        return DrawTickets()
    if moves.claim_count and (not targets or sum(hand) >= BIG_HAND or not moves.draws or ending(state)):
        # listed only now: most turns claim on the plan or draw, and listing every claim is most of their cost
        by_track = claims_by_track(moves, board, hand)
        if by_track:
            return claim_best_ending(state, seat, board, by_track, hand)
    if moves.draws:
        # Never a face-up locomotive: it costs the whole turn (measured: +6 % wins against the playstyle agents).
        # Not even for a ferry on the plan that lacks only locomotives (R-EU-5): the turn lost costs more than the
        # ferry gains (measured, Europe, 300 games a row against the playstyle agents: 4-player wins 60 % → 53 %).
        return draw(moves, needed_colors(targets, board, hand), first=True, locomotives=False)
    if moves.tickets:
        return DrawTickets()
    return moves.pick(rng.randrange(moves.count()), board)


def late_tickets_pay(state: TtrState, seat: int) -> bool:
    """Whether new tickets can still be finished: enough cars of the seat's own, and enough turns left."""
    return state.cars[seat] >= NEW_TICKETS_MIN_CARS and min(state.cars) >= NEW_TICKETS_MIN_TABLE_CARS


def pay_tunnel(state: TtrState, seat: int, moves: MoveSet, board: Board) -> TtrAction:
    """Pay a revealed tunnel's extra cards, with the fewest locomotives, when the track is worth them: it is on the
    plan, the game is ending, or no locomotive is asked; else withdraw and keep the cards (R-EU-6)."""
    if not moves.pays:
        return Withdraw()
    tunnel = state.tunnel
    if moves.pays[0] == 0 or ending(state) or (tunnel is not None and tunnel.track in joint_plan(state, seat, board)):
        return PayTunnel(locomotives=moves.pays[0])
    return Withdraw()


def ending(state: TtrState) -> bool:
    """Whether the last round has begun: cards in hand are worth nothing then (spending them when someone merely
    nears the end, at 6 cars, measured no better: 4 % fewer 4-player wins, 400 games)."""
    return state.final_turns >= 0


KEEP_RATIO_2P = 0.5
KEEP_RATIO = 1.0
"""A ticket beyond the fewest allowed is kept when the cars it adds to the plan are at most this share of its
points (measured, 300 games a row against the playstyle agents: in 4-player games 1.0 won 12–13 % more than 0.5 on
both maps, because more tickets completed along shared paths pay off while routes are contested; head to head 0.5
won 4–10 % more than 1.0, and keeping only the fewest plus those costing 2 cars or less, as before, was no better
than 0.5)."""


def keep_fitting(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the tickets the plan can take in: the cheapest allowed, plus any whose extra cars are few for its
    points and still leave cars to spare."""
    offer = state.offers[seat]
    costs, spare = marginal_costs(state, seat, board, offer)
    ratio = KEEP_RATIO_2P if state.n_players == 2 else KEEP_RATIO
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t] - board.tickets[t][2] / 100, t))
    kept: list[int] = []
    for t in ranked:
        cost = costs[t]
        if len(kept) < minimum or (cost <= ratio * board.tickets[t][2] and cost <= spare):
            kept.append(t)
            spare -= min(cost, spare)
    choice = tuple(sorted(kept))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])


def keep_cheapest(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the cheapest tickets to finish: the fewest allowed, plus any that cost almost nothing more."""
    offer = state.offers[seat]
    costs = offer_costs(state, seat, board, offer)
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t], t))
    kept = set(ranked[:minimum]) | {t for t in offer if costs[t] <= 2}
    choice = tuple(sorted(kept))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])


def easy(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """A beginner: one ticket at a time and never more tickets (afraid of the penalty), no thought of others' plans,
    sometimes claims a track off its plan just because it can, sometimes draws when it could claim, and takes a
    face-up colour it likes rather than one it needs."""
    if moves.keeps:
        return _keep_fewest(state, seat, moves, board)
    if state.phase is Phase.TUNNEL:
        return PayTunnel(locomotives=moves.pays[-1]) if moves.pays else Withdraw()
    hand = state.hands[seat]
    targets = _first_ticket_tracks(state, seat, board)
    needed = needed_colors(targets, board, hand)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed, first=False, locomotives=False)
    city = _bridge_first_ticket(state, seat, moves, board)
    if city is not None:
        return build_station(board, city, moves.station_payments, hand, needed)
    by_track = {track: pays for track, pays in moves.claims}
    wanted = [t for t in targets if t in by_track]
    stray = [t for t in by_track if t not in targets]
    if stray and rng.random() < EASY_STRAY:
        track = stray[rng.randrange(len(stray))]
        return claim(board, track, by_track[track], hand)
    slip = moves.draws and rng.random() < EASY_SLIP
    if wanted and not slip:
        track = min(wanted, key=lambda t: (board.track_len[t], t))
        return claim(board, track, by_track[track], hand)
    if by_track and not wanted and (not targets or sum(hand) >= BIG_HAND or not moves.draws):
        return claim_longest(board, by_track, by_track, hand)
    if moves.draws:
        face_up = [source for source in moves.draws if source not in (DECK, CARD_NAMES[LOCO])]
        if face_up and rng.random() < EASY_SLIP:
            return DrawCard(source=face_up[rng.randrange(len(face_up))])
        return draw(moves, needed, first=True, locomotives=False)
    if by_track:
        return claim_longest(board, by_track, by_track, hand)
    if moves.tickets:
        return DrawTickets()
    return moves.pick(rng.randrange(moves.count()), board)


def _first_ticket_tracks(state: TtrState, seat: int, board: Board) -> list[int]:
    """The free tracks of the first unfinished ticket still reachable: a beginner works on one ticket at a time."""
    for ticket in open_tickets(state, seat, board):
        _, path = ticket_plan(state, seat, board, ticket)
        if path is not None:
            return path
    return []


def _bridge_first_ticket(state: TtrState, seat: int, moves: MoveSet, board: Board) -> int | None:
    """The city of a station that bridges the first unfinished ticket when no free path is left to it: the one
    station a beginner sees."""
    if not moves.station_payments:
        return None
    first = next(iter(open_tickets(state, seat, board)), None)
    if first is None or ticket_plan(state, seat, board, first)[1] is not None:
        return None
    city = station_bridge(state, seat, board, (first,), state.cars[seat])
    return city if city in moves.station_cities else None


def _keep_fewest(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep only as many tickets as must be kept, the cheapest ones."""
    offer = state.offers[seat]
    costs = offer_costs(state, seat, board, offer)
    minimum = min(len(k) for k in moves.keeps)
    choice = tuple(sorted(sorted(offer, key=lambda t: (costs[t], t))[:minimum]))
    return KeepTickets(tickets=choice if choice in moves.keeps else moves.keeps[0])
