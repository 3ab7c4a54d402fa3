"""The `hard` player: determinized rollouts over the heuristic's best few moves.

What the seat cannot see (other hands, the deck's order, other tickets and offers, the ticket deck, the seed) is
rebuilt from what it can: the unseen cards are the 110 minus its hand, the face-up row, the discards (public: every
card reaches them face up, a claim's payment, a tunnel's reveal or a reset row) and a pending tunnel's reveal, listed
in a canonical order and then shuffled with the bot's `rng`; the unseen tickets likewise, each rival's drawn by how
well they fit the routes it built (`rivals.py`). So a state whose hidden parts differ but look alike from the seat
gives the same move. Each sampled world is played to the end by the `normal` player from every candidate move (the
same world and seed for each candidate: common random numbers), or in the second half of the worlds only from those
that gained on the `normal` move in the first half. The `normal` move stands unless another gains clearly more than
sampling noise, world by world: with a few dozen playouts a plain "best mean" picks noise, and measured, lost to
`normal` itself 2 games in 20. The last turn needs no sampling: the seat's own final score is known for every move
then.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence

from rules.engine import Budget, GameEngine
from rules.rng import Rng
from rules.ttr.actions import DECK, BuildStation, Claim, DrawCard, DrawTickets, KeepTickets, TtrAction
from rules.ttr.board import CARD_NAMES, Board, board_for
from rules.ttr.cards import DECK_COMPOSITION, Payment
from rules.ttr.moves import MoveSet, move_set
from rules.ttr.options import TtrOptions
from rules.ttr.scoring import final_scores
from rules.ttr.state import Phase, TtrState

from .heuristic import normal
from .plan import claim, claim_best_ending, claims_by_track, joint_plan, offer_costs, own_score
from .rivals import deepest_cut, ticket_weights

Rules = GameEngine[TtrState, TtrAction, TtrOptions]
"""The rules a playout follows: the engine that asks for the move passes itself (the engine imports the bots)."""

DECISION_SECONDS = 0.45
"""The CPU time a decision's playouts are sized for at the calibrated budget. Measured at 1 s a move: the searched
decisions took 0.34 s at the median and 0.80 s at p99 (`bench.levels`, USA, 2 processes on 2 cores); sized by a
fixed count of cars instead, USA decisions got about half the worlds they can afford, and hard won 57 % of games 0-117
against `normal` on USA where it now wins 72 %."""
ROLLOUT_MS = {"usa": 0.0353, "europe": 0.0544}
"""A playout's CPU milliseconds per (cars still in play) ** `ROLLOUT_GROWTH`, per map, fitted over 347 decisions of
2- to 5-player games on a 2-core machine (the player count adds nothing once the cars are counted; Europe's stations,
tunnels and ferries cost more; `bench.search_choices` prints how a machine's playouts compare). Raised 28 % (USA) and
18 % (Europe) when `normal` began counting the longest path, as its playouts measured dearer by that much (the
`cost` column of `bench.search_choices --games 3 --every 4 --worlds 4`, before and after, 240 decisions). A map not
listed is costed as the dearest."""
ROLLOUT_GROWTH = 1.25
CALIBRATED_SECONDS = 1.0
"""The budget the world counts above and below are for; a smaller one scales them down (to 2 worlds at least)."""
MIN_WORLDS = 6
MAX_WORLDS = 60
MAX_CANDIDATES = 5
MIN_GAIN = 3.0
"""Points a candidate must gain on average over the heuristic's move to replace it."""
CONFIDENCE = 1.5
"""Standard errors of the paired gain a candidate must clear (its gain must not be sampling noise)."""
MIN_EVIDENCE = 4
"""Worlds a candidate must be played out in before it may replace the heuristic's move: the spread of two or three
gains says nothing (a small budget early in a 4-player game buys only 2: at 0.25 s a move, hard won 20 % and 30 % of
two Europe 4-player tables, 20 games each, where `normal` won 35 % and 41 % of 100)."""
MAX_KEEPS = 5
"""Ticket choices tried: the heuristic's cheapest subsets."""
ROLLOUT_TURNS = 400
"""A safety bound on a playout's length (sensible games end in under 200 turns)."""
WIN_BONUS = 20.0
"""A playout's value: the final margin over the best opponent, plus this when it wins."""


def hard(
    rules: Rules, state: TtrState, seat: int, moves: MoveSet, board: Board, rng: random.Random, budget: Budget
) -> TtrAction:
    """The candidate move whose playouts (played by `rules`) end best; the `normal` move when there is nothing to
    choose."""
    started = time.process_time()
    fallback = normal(state, seat, moves, board, rng)
    if state.final_turns >= 0 and state.phase is Phase.TURN and not moves.pass_only:
        return last_turn(state, seat, moves, board, fallback)
    candidates = searched_moves(state, seat, moves, board, fallback)
    if len(candidates) == 1:
        return fallback
    return best_by_rollouts(rules, state, seat, candidates, rng, budget, started)[0]


def searched_moves(state: TtrState, seat: int, moves: MoveSet, board: Board, fallback: TtrAction) -> list[TtrAction]:
    """The moves the search plays out: only the heuristic's where nothing else is worth a playout (a second pick, a
    tunnel's payment, a forced pass, the last round, which `last_turn` counts exactly), else a few candidates."""
    last_round = state.final_turns >= 0 and state.phase is Phase.TURN
    if state.phase in (Phase.SECOND_PICK, Phase.TUNNEL) or moves.pass_only or last_round:
        return [fallback]
    return candidate_moves(state, seat, moves, board, fallback)


def last_turn(state: TtrState, seat: int, moves: MoveSet, board: Board, fallback: TtrAction) -> TtrAction:
    """The seat's last turn (the last round has begun): the claim or station that ends with its own score highest,
    counted exactly (routes, its tickets, stations and the longest path are all on the board); cards drawn now are
    worth nothing. The heuristic's move when nothing scores more."""
    hand = state.hands[seat]
    best, best_total = fallback, own_score(state, seat).total
    for track, pays in claims_by_track(moves, board, hand).items():
        owners = (*state.owners[:track], seat, *state.owners[track + 1 :])
        total = own_score(state, seat, owners=owners).total
        if total > best_total:
            best, best_total = claim(board, track, pays, hand), total
    if moves.station_payments:
        color, locos = min(moves.station_payments, key=lambda p: (p[1], -hand[p[0]], p[0]))
        for city in moves.station_cities:
            stations = (*state.stations[:city], seat, *state.stations[city + 1 :])
            total = own_score(state, seat, stations=stations).total
            if total > best_total:
                best = BuildStation(city=board.city_ids[city], color=CARD_NAMES[color], locomotives=locos)
                best_total = total
    return best


def candidate_moves(state: TtrState, seat: int, moves: MoveSet, board: Board, fallback: TtrAction) -> list[TtrAction]:
    """The heuristic's move first, then a few other sensible ones: claims on the plan, tickets, drawing, a claim that
    cuts a rival's way, the claim worth most if the game ended now."""
    out: list[TtrAction] = [fallback]

    def add(action: TtrAction) -> None:
        if action not in out and len(out) < MAX_CANDIDATES:
            out.append(action)

    if moves.keeps:
        costs = offer_costs(state, seat, board, state.offers[seat])
        ranked = sorted(moves.keeps, key=lambda keep: (sum(costs[t] for t in keep) / len(keep), -len(keep), keep))
        for keep in ranked[:MAX_KEEPS]:
            if len(out) < MAX_KEEPS:
                action = KeepTickets(tickets=keep)
                if action not in out:
                    out.append(action)
        return out
    hand = state.hands[seat]
    by_track = claims_by_track(moves, board, hand)
    targets = joint_plan(state, seat, board)
    for track in sorted((t for t in targets if t in by_track), key=lambda t: (-board.track_len[t], t))[:2]:
        add(claim(board, track, by_track[track], hand))
    if moves.tickets:
        add(DrawTickets())
    if moves.draws and not isinstance(fallback, DrawCard):
        add(DrawCard(source=DECK) if DECK in moves.draws else DrawCard(source=moves.draws[0]))
    cut = cut_claim(state, seat, board, by_track)
    if cut is not None:
        add(cut)
    if by_track:
        add(claim_best_ending(state, seat, board, by_track, hand))
    return out


def cut_claim(state: TtrState, seat: int, board: Board, by_track: dict[int, tuple[Payment, ...]]) -> Claim | None:
    """A claim that cuts the way a rival seems to be building (from its routes alone), if one cuts deep enough."""
    cut = deepest_cut(state, seat, list(by_track))
    return None if cut is None else claim(board, cut[0], by_track[cut[0]], state.hands[seat])


def best_by_rollouts(
    rules: Rules,
    state: TtrState,
    seat: int,
    candidates: Sequence[TtrAction],
    rng: random.Random,
    budget: Budget,
    started: float | None = None,
) -> tuple[TtrAction, list[float]]:
    """Play every candidate out in the same sampled worlds; return the pick and each one's mean gain over the first.
    The budget runs from `started` (the process time the move's thinking began), else from now.

    Half the worlds play every candidate; the rest play only the first (the heuristic's move) and those that gained on
    it so far, so the likely picks are judged over more worlds. A candidate replaces the first only when its mean gain,
    paired world by world, is clearly more than noise: `MIN_GAIN` points and `CONFIDENCE` standard errors.
    """
    deadline = (time.process_time() if started is None else started) + budget.seconds
    worlds = world_count(state, len(candidates), budget)
    half = min(worlds, max(MIN_EVIDENCE, worlds // 2))
    gains: list[list[float]] = [[] for _ in candidates]
    live = list(range(len(candidates)))
    played = 0
    while played < worlds and len(live) > 1:
        began = time.process_time()
        world = determinize(state, seat, rng)
        seed = rng.getrandbits(32)
        values = {i: rollout(rules, world, seat, candidates[i], seed) for i in live}
        for i, v in values.items():
            gains[i].append(v - values[0])
        played += 1
        if played == half:
            live = [0, *(i for i in live[1:] if statistics.fmean(gains[i]) >= 0)]
            worlds = min(MAX_WORLDS, half + (worlds - half) * len(candidates) // len(live))
        now = time.process_time()
        if now + (now - began) > deadline:  # another world like this one would overrun the budget
            break
    means = [statistics.fmean(g) for g in gains]
    best = 0
    for i in range(1, len(candidates)):
        g = gains[i]
        if len(g) < MIN_EVIDENCE:
            continue
        spread = statistics.stdev(g) / math.sqrt(len(g))
        if means[i] >= MIN_GAIN and means[i] >= CONFIDENCE * spread and means[i] > means[best]:
            best = i
    return candidates[best], means


def world_count(state: TtrState, candidates: int, budget: Budget) -> int:
    """Sampled worlds for this decision: as many as `DECISION_SECONDS` pays for at this length of game left, a fixed
    number for a given budget (so the move does not depend on how fast the machine is). A budget above the calibrated
    one plays as many as that one: the rest is a margin for a slow machine."""
    scale = min(1.0, budget.seconds / CALIBRATED_SECONDS)
    fits = int(DECISION_SECONDS * scale / (candidates * rollout_seconds(state)))
    return max(max(2, round(MIN_WORLDS * scale)), min(round(MAX_WORLDS * scale), fits))


def rollout_seconds(state: TtrState) -> float:
    """The CPU seconds one playout from here is expected to take (`ROLLOUT_MS`)."""
    return ROLLOUT_MS.get(state.map_id, max(ROLLOUT_MS.values())) / 1000 * remaining_length(state) ** ROLLOUT_GROWTH


def remaining_length(state: TtrState) -> int:
    """How much game is left to play out: the cars still in play (at least a few per player)."""
    return max(sum(state.cars), 4 * state.n_players)


def rollout(rules: Rules, world: TtrState, seat: int, action: TtrAction, seed: int) -> float:
    """Play `action`, then `normal` for everyone to the end; the playout's worth to the seat (`value`)."""
    return value(playout(rules, world, seat, action, seed), seat)


def playout(rules: Rules, world: TtrState, seat: int, action: TtrAction, seed: int) -> TtrState:
    """The state after `action` and then `normal` for everyone to the end (or `ROLLOUT_TURNS` turns)."""
    rng = random.Random(seed)
    state, _ = rules.apply(world, seat, action)
    for _ in range(ROLLOUT_TURNS):
        if state.phase is Phase.OVER:
            break
        actor = _actor(state)
        moves = move_set(state, actor)
        state, _ = rules.apply(state, actor, normal(state, actor, moves, board_for(state.map_id), rng))
    return state


def _actor(state: TtrState) -> int:
    """Who acts next in a playout: during the opening the lowest seat still choosing, else the current seat."""
    if state.phase is Phase.OPENING:
        return next(s for s, offer in enumerate(state.offers) if offer)
    return state.current


def value(state: TtrState, seat: int) -> float:
    """A finished (or cut-off) playout's worth to the seat: its margin over the best other, a bonus for a win."""
    totals = totals_of(state)
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = totals[seat] - best_other
    return margin + (WIN_BONUS if margin > 0 else WIN_BONUS / 2 if margin == 0 else 0.0)


def totals_of(state: TtrState) -> list[int]:
    """Each seat's total: its final score once the game is over, its route points in a playout cut off before."""
    return [s.total for s in final_scores(state)] if state.phase is Phase.OVER else list(state.route_points)


def determinize(state: TtrState, seat: int, rng: random.Random) -> TtrState:
    """A full state the seat cannot tell from the real one: hidden parts sampled from a canonical order with `rng`."""
    board = board_for(state.map_id)
    counts = list(DECK_COMPOSITION)
    seen = [*state.market, *state.discard, *(state.tunnel.revealed if state.tunnel is not None else ())]
    for card in seen:
        counts[card] -= 1
    for card, n in enumerate(state.hands[seat]):
        counts[card] -= n
    unseen = [card for card, n in enumerate(counts) for _ in range(max(0, n))]
    rng.shuffle(unseen)
    hands = list(state.hands)
    for other in range(state.n_players):
        if other == seat:
            continue
        size = sum(state.hands[other])
        hand = [0] * len(CARD_NAMES)
        for card in unseen[:size]:
            hand[card] += 1
        del unseen[:size]
        hands[other] = tuple(hand)
    deck = tuple(unseen[: len(state.deck)])
    known = {*state.tickets[seat], *state.offers[seat]}
    regular = set(board.regular_ticket_ids)
    pool = sorted(t for t in board.tickets if t not in known)
    rng.shuffle(pool)
    # Each rival's tickets first, the likelier the better they fit its routes; the ticket deck must still fill up
    # with regular tickets, so the rivals take no more of those than the deck can spare.
    spare_regular = sum(t in regular for t in pool) - len(state.ticket_deck)
    tickets = list(state.tickets)
    for other in range(state.n_players):
        if other != seat:
            weights = ticket_weights(state.map_id, state.owners, other, pool)
            tickets[other] = _take_weighted(pool, weights, len(state.tickets[other]), regular, spare_regular, rng)
            spare_regular -= sum(t in regular for t in tickets[other])
    ticket_deck = tuple([t for t in pool if t in regular][: len(state.ticket_deck)])
    in_deck = set(ticket_deck)
    pool = [t for t in pool if t not in in_deck]
    offers = list(state.offers)
    for other in range(state.n_players):
        if other != seat:
            offers[other] = _take(pool, len(state.offers[other]))
    return state.model_copy(
        update={
            "deck": deck,
            "hands": tuple(hands),
            "tickets": tuple(tickets),
            "offers": tuple(offers),
            "ticket_deck": ticket_deck,
            "rng": Rng(seed=rng.getrandbits(62)),
        }
    )


def _take_weighted(
    pool: list[int], weights: Sequence[float], n: int, regular: set[int], spare_regular: int, rng: random.Random
) -> tuple[int, ...]:
    """Remove and return `n` tickets of the pool drawn by weight (at most `spare_regular` of them regular)."""
    keyed = sorted(((rng.random() ** (1.0 / w), t) for t, w in zip(pool, weights, strict=True)), reverse=True)
    taken: list[int] = []
    for _, ticket in keyed:
        if len(taken) == n:
            break
        if ticket in regular:
            if spare_regular <= 0:
                continue
            spare_regular -= 1
        taken.append(ticket)
    chosen = set(taken)
    pool[:] = [t for t in pool if t not in chosen]
    return tuple(taken)


def _take(pool: list[int], n: int) -> tuple[int, ...]:
    """Remove and return the first `n` tickets of the pool."""
    taken = tuple(pool[:n])
    del pool[:n]
    return taken
