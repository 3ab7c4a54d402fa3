"""The four playstyle agents of de Mesentier Silva, Lee, Togelius and Nealen (2017), and two more opponents that
play differently (a whole-network planner and a blocker): the yardstick for `hard`.

How each description was read, and where a choice had to be made, is written down in docs/playstyle-agents.md.
Like every bot they read only what their seat may see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from rules.ttr.actions import DrawCard, DrawTickets, KeepTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import LOCO, Board
from rules.ttr.cards import Payment
from rules.ttr.moves import MoveSet
from rules.ttr.state import Phase, TtrState

from .heuristic import BIG_HAND, NEW_TICKETS_MIN_CARS, ending, keep_cheapest
from .plan import (
    UNREACHABLE,
    cheapest_path,
    claim,
    claim_best_scoring,
    claim_longest,
    claims_by_track,
    draw,
    joint_plan,
    marginal_costs,
    needed_colors,
    offer_costs,
    open_tickets,
    own_labels,
    target_tracks,
    ticket_plan,
    usable,
)

Agent = Callable[[TtrState, int, MoveSet, Board, random.Random], TtrAction]

HUNGRY_SPARE_CARS = 10
"""Destination Hungry draws more tickets only while its open tickets leave at least this many cars spare."""
HUNGRY_MIN_CARS = 20
"""… and only with this many cars of its own, while every player still has `LATE_CARS` or more: later, a new
ticket is more likely a penalty than a gain."""
HUNGRY_SLACK = 5
"""Cars Destination Hungry leaves unplanned when it keeps tickets: a cut path costs a detour."""
HUNGRY_OPEN = 1
"""… and only while at most this many of its tickets are still unbuilt: it finishes what it holds first."""
LATE_CARS = 15
"""A player this close to running out of cars may end the game within a few turns."""
LONG_ROUTE = 5
"""Long Route claims an affordable track at least this long at once (on or near its tickets' paths)."""
SHORT_TRACK = 3
"""Long Route leaves path tracks shorter than this for last, unless nothing longer remains on its paths."""
PLANNER_RATIO = 0.5
"""The Ticket Planner keeps a ticket beyond the fewest when the cars it adds to the network are at most this share
of its points: it takes the tickets its network nearly serves already."""
BLOCK_MAX_LENGTH = 3
"""The blocker cuts a rival's path only with a track this short or shorter: a cut must be cheap."""
BLOCK_DETOUR = 4
"""… and only when the rival's path grows by at least this many cars more than the cut's length (or is lost)."""
BLOCK_EVIDENCE = 3
"""A ticket counts as a rival's likely goal when the rival's claims already save at least this many cars of it."""
BLOCK_GUESSES = 2
"""How many likely tickets per rival the blocker considers."""


def _fallback(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction | None:
    """The phases every agent plays alike: paying a tunnel it started, or the only move there is."""
    if state.phase is Phase.TUNNEL:
        return PayTunnel(locomotives=moves.pays[0]) if moves.pays else Withdraw()
    if moves.pass_only:
        return moves.pick(0, board)
    return None


def _lacks_locomotives(targets: Iterable[int], board: Board, hand: tuple[int, ...]) -> bool:
    """Whether a ferry the seat means to claim needs more locomotives than it holds (R-EU-5): the one reason to
    spend a whole turn on a face-up locomotive (R-T2), since no other card can stand in for one."""
    return any(board.track_ferry[t] > hand[LOCO] for t in targets)


def _draw_first(moves: MoveSet, targets: list[int], board: Board, hand: tuple[int, ...]) -> DrawCard:
    """The first pick: a needed face-up colour, else a face-up locomotive only when a planned ferry needs it, else
    the deck."""
    needed = needed_colors(targets, board, hand)
    if _lacks_locomotives(targets, board, hand):
        needed.append(LOCO)
    return draw(moves, needed, first=True, locomotives=False)


def _spend(state: TtrState, moves: MoveSet, targets: list[int], hand: tuple[int, ...]) -> bool:
    """Whether to claim off the plan: no plan left, a hand so big that waiting is not paying off, nothing to draw,
    or the last round (cards left in hand score nothing)."""
    return not targets or sum(hand) >= BIG_HAND or not moves.draws or ending(state)


def _more_tickets(state: TtrState, seat: int, moves: MoveSet, targets: list[int]) -> bool:
    """Whether to draw tickets: its own are done or lost, and it has cars enough to finish a new one."""
    return not targets and moves.tickets and state.cars[seat] >= NEW_TICKETS_MIN_CARS and not ending(state)


def _build(
    state: TtrState,
    seat: int,
    moves: MoveSet,
    board: Board,
    rng: random.Random,
    targets: list[int],
    by_track: dict[int, tuple[Payment, ...]],
    tickets: bool = True,
) -> TtrAction:
    """Build toward `targets` as most agents do: the longest affordable target track, else new tickets once the
    plan is done (when `tickets`), else spend the hand when waiting no longer pays, else draw."""
    hand = state.hands[seat]
    wanted = [t for t in targets if t in by_track]
    if wanted:
        return claim_longest(board, wanted, by_track, hand)
    if tickets and _more_tickets(state, seat, moves, targets):
        return DrawTickets()
    if by_track and _spend(state, moves, targets, hand):
        return claim_best_scoring(board, by_track, by_track, hand)
    if moves.draws:
        return _draw_first(moves, targets, board, hand)
    return moves.pick(rng.randrange(moves.count()), board)


def route_focus(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Route Focus: build the routes of its tickets, the most valuable ticket first; new tickets once they are done."""
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
    return _build(state, seat, moves, board, rng, targets, claims_by_track(moves, board, hand))


def destination_hungry(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Destination Hungry: takes tickets while they still pay, keeps every one its spare cars cover, builds them all."""
    if moves.keeps:
        return _keep_affordable(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = joint_plan(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    if moves.tickets and _hungry(state, seat, board):
        return DrawTickets()
    return _build(state, seat, moves, board, rng, targets, claims_by_track(moves, board, hand), tickets=False)


def _hungry(state: TtrState, seat: int, board: Board) -> bool:
    """Whether more tickets still pay: few unbuilt, cars to spare after them, and the game not near its end."""
    return (
        len(open_tickets(state, seat, board)) <= HUNGRY_OPEN
        and _spare_cars(state, seat, board) >= HUNGRY_SPARE_CARS
        and state.cars[seat] >= HUNGRY_MIN_CARS
        and min(state.cars) >= LATE_CARS
        and not ending(state)
    )


def _spare_cars(state: TtrState, seat: int, board: Board) -> int:
    """Cars left once the joint plan of its open tickets is built."""
    return state.cars[seat] - sum(board.track_len[t] for t in joint_plan(state, seat, board))


def _keep_affordable(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep every ticket the spare cars can pay for, with `HUNGRY_SLACK` cars left for detours (at least the
    minimum), the most points per car added to its joint plan first."""
    offer = state.offers[seat]
    costs, spare = marginal_costs(state, seat, board, offer)
    spare -= HUNGRY_SLACK
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (costs[t] / board.tickets[t][2], t))
    kept: list[int] = []
    for ticket in ranked:
        cost = costs[ticket]
        if len(kept) < minimum or cost <= spare:
            kept.append(ticket)
            spare -= min(cost, max(spare, 0))
    return _kept(moves, kept)


def _kept(moves: MoveSet, kept: Iterable[int]) -> KeepTickets:
    """The keep move for these tickets (the first allowed one if they are not a legal choice)."""
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
    if _more_tickets(state, seat, moves, targets):
        return DrawTickets()
    if by_track and _spend(state, moves, targets, hand):
        return claim_best_scoring(board, by_track, by_track, hand)
    if moves.draws:
        return _draw_first(moves, nearest, board, hand)
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
    """Long Route: keeps the longest tickets and builds them with long tracks: long tracks on or near their paths
    first, long tracks elsewhere once its tickets are done or lost; saves cards for long ones."""
    if moves.keeps:
        return _keep_longest(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = target_tracks(state, seat, board)
    near = _long_near(state, seat, board, targets)
    goals = targets + near if targets else _longest_free(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(goals, board, hand), first=False)
    by_track = claims_by_track(moves, board, hand)
    long = [t for t in (near if targets else by_track) if t in by_track and board.track_len[t] >= LONG_ROUTE]
    if long:
        track = max(long, key=lambda t: (board.track_len[t], t in targets, -t))
        return claim(board, track, by_track[track], hand)
    remaining = max((board.track_len[t] for t in targets), default=0)
    wanted = [t for t in targets if t in by_track and board.track_len[t] >= min(SHORT_TRACK, remaining)]
    if wanted:
        return claim_longest(board, wanted, by_track, hand)
    if _more_tickets(state, seat, moves, targets):
        return DrawTickets()
    if by_track and _spend(state, moves, targets, hand):
        return claim_longest(board, by_track, by_track, hand)
    if moves.draws:
        return _draw_first(moves, goals, board, hand)
    return moves.pick(rng.randrange(moves.count()), board)


def _long_near(state: TtrState, seat: int, board: Board, targets: list[int]) -> list[int]:
    """Free long tracks on the tickets' paths or touching a city of them or of the seat's own network."""
    cities = {board.track_a[t] for t in targets} | {board.track_b[t] for t in targets}
    cities |= {c for t, o in enumerate(state.owners) if o == seat for c in (board.track_a[t], board.track_b[t])}
    return [
        t
        for t in range(board.n_tracks)
        if state.owners[t] < 0
        and LONG_ROUTE <= board.track_len[t] <= state.cars[seat]
        and (t in targets or board.track_a[t] in cities or board.track_b[t] in cities)
        and usable(state, seat, board, t)
    ]


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
    ranked = sorted(offer, key=lambda t: (costs[t] >= min(UNREACHABLE, state.cars[seat]), -board.tickets[t][2], t))
    return _kept(moves, ranked[:minimum])


def ticket_planner(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Ticket Planner: plans all its tickets as one network, keeps a ticket by the cars it adds to that network,
    builds the network's longest tracks first, and draws new tickets once the network stands."""
    if moves.keeps:
        return _keep_by_network(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = network(state, seat, board, open_tickets(state, seat, board))
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    return _build(state, seat, moves, board, rng, targets, claims_by_track(moves, board, hand))


def network(state: TtrState, seat: int, board: Board, tickets: Iterable[int]) -> list[int]:
    """Free tracks joining these tickets as one network, greedily like a Steiner tree: each step adds the ticket
    cheapest to join to what is built and planned so far (planned tracks count as built), until the cars run out."""
    planned: list[int] = []
    left = state.cars[seat]
    todo = set(tickets)
    while todo:
        built = _as_built(state, seat, planned)
        joins = {t: cheapest_path(built, seat, board, *board.tickets[t][:2]) for t in todo}
        ticket = min(todo, key=lambda t: (joins[t][0], -board.tickets[t][2], t))
        cost, path = joins[ticket]
        todo.discard(ticket)
        if path is not None and cost <= left:
            planned.extend(path)
            left -= cost
    return planned


def _as_built(state: TtrState, seat: int, tracks: list[int]) -> TtrState:
    """The state as if the seat owned these free tracks too: a plan's tracks then cost nothing to reuse."""
    if not tracks:
        return state
    owners = list(state.owners)
    for t in tracks:
        owners[t] = seat
    return state.model_copy(update={"owners": tuple(owners)})


def _keep_by_network(state: TtrState, seat: int, moves: MoveSet, board: Board) -> KeepTickets:
    """Keep the tickets that add few cars to the network for their points (the cheapest allowed at the least)."""
    offer = state.offers[seat]
    planned = network(state, seat, board, open_tickets(state, seat, board))
    built = _as_built(state, seat, planned)
    spare = state.cars[seat] - sum(board.track_len[t] for t in planned)
    added = {}
    for t in offer:
        cost, path = cheapest_path(built, seat, board, *board.tickets[t][:2])
        added[t] = cost if path is not None else UNREACHABLE
    minimum = min(len(k) for k in moves.keeps)
    ranked = sorted(offer, key=lambda t: (added[t] - board.tickets[t][2] / 100, t))
    kept: list[int] = []
    for t in ranked:
        if len(kept) < minimum or (added[t] <= PLANNER_RATIO * board.tickets[t][2] and added[t] <= spare):
            kept.append(t)
            spare -= min(added[t], spare)
    return _kept(moves, kept)


def blocker(state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random) -> TtrAction:
    """Blocker: builds its own tickets like a sound player, but when a cheap track cuts a rival's likely path (read
    from the rival's claims alone) and costs the rival far more than the blocker, it claims that track first. Its
    guess of a rival's tickets is its own, not `hard`'s (`rivals.py`): a yardstick must not share hard's model."""
    if moves.keeps:
        return keep_cheapest(state, seat, moves, board)
    fixed = _fallback(state, seat, moves, board, rng)
    if fixed is not None:
        return fixed
    hand = state.hands[seat]
    targets = joint_plan(state, seat, board)
    if state.phase is Phase.SECOND_PICK:
        return draw(moves, needed_colors(targets, board, hand), first=False)
    by_track = claims_by_track(moves, board, hand)
    spare = state.cars[seat] - sum(board.track_len[t] for t in targets)
    cut = _best_cut(state, seat, board, [t for t in by_track if board.track_len[t] <= min(BLOCK_MAX_LENGTH, spare)])
    if cut is not None:
        return claim(board, cut, by_track[cut], hand)
    return _build(state, seat, moves, board, rng, targets, by_track)


def likely_tickets(state: TtrState, seat: int, rival: int, board: Board) -> list[int]:
    """The tickets a rival most likely holds, guessed from public facts alone: those whose cars its claims already
    save most (its tickets are hidden; the seat's own tickets and offer are ruled out), still unconnected."""
    mine = {*state.tickets[seat], *state.offers[seat]}
    labels = own_labels(state, rival, board)
    saved = {}
    for ticket, (a, b, _) in board.tickets.items():
        if ticket in mine or labels[a] == labels[b]:
            continue
        now, path = cheapest_path(state, rival, board, a, b)
        if path is None:
            continue
        fresh, _ = cheapest_path(state, rival, board, a, b, owned_free=False)
        if fresh - now >= BLOCK_EVIDENCE:
            saved[ticket] = fresh - now
    return sorted(saved, key=lambda t: (-saved[t], t))[:BLOCK_GUESSES]


def _best_cut(state: TtrState, seat: int, board: Board, cheap: list[int]) -> int | None:
    """The cheap track whose claim lengthens a rival's likely path most beyond its own length, if by enough."""
    if not cheap:
        return None
    best: tuple[int, int] | None = None
    for rival in range(state.n_players):
        if rival == seat:
            continue
        for ticket in likely_tickets(state, seat, rival, board):
            a, b, _ = board.tickets[ticket]
            now, path = cheapest_path(state, rival, board, a, b)
            for track in set(cheap) & set(path or ()):
                after, rest = cheapest_path(_as_built(state, seat, [track]), rival, board, a, b)
                detour = (UNREACHABLE if rest is None else after - now) - board.track_len[track]
                if detour >= BLOCK_DETOUR and (best is None or (detour, -track) > (best[0], -best[1])):
                    best = (detour, track)
    return None if best is None else best[1]


AGENTS: dict[str, Agent] = {
    "route_focus": route_focus,
    "destination_hungry": destination_hungry,
    "one_step_thinker": one_step_thinker,
    "long_route": long_route,
    "ticket_planner": ticket_planner,
    "blocker": blocker,
}
"""The playstyle agents by bot kind."""
