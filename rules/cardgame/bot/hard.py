"""The hard player: determinized rollouts over the normal player's best few candidate moves.

What the seat cannot see (others' hands and tickets, the deck's order, the ticket deck, the generator) is dealt
again from the CANONICAL multiset of unseen cards and tickets, shuffled by the bot's rng: two states that differ
only in hidden parts give the same samples and so the same move. Each candidate is played out to the end in the
same samples (common random numbers) by the normal player in every seat, and scored by win share plus a little
of the final margin. When another candidate beats the normal move in those samples, the two are played out in more
samples before the search trusts it. A fixed number of samples keeps the move deterministic; the CPU budget only
cuts it short.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.cardgame.actions import CardGameAction, DrawCard, DrawTickets, KeepTickets, PlayGroup, PlayThree
from rules.cardgame.bot import normal
from rules.cardgame.cards import LOCOMOTIVE, LOCOMOTIVES, N_COLORS, N_KINDS, PER_COLOR, cards_of
from rules.cardgame.state import CardGameState, Phase
from rules.cardgame.tickets import load_data
from rules.engine import Budget, GameEngine
from rules.rng import Rng

SAMPLES = 6
"""Determinizations per turn decision; every candidate is played out once in each."""
KEEP_SAMPLES = 10
"""Determinizations per ticket choice: rarer and weightier than a turn's move, so worth more samples."""
CONFIRM_SAMPLES = 14
"""More determinizations for the normal player's move and the best other when the first ones favour the other: a
change of move then rests on 20 samples, not 6 (paid for only at contested decisions). Against normal, over games
120-239 of `bench.levels`: 52.5 % wins with none, 62.5 % with 10, 75.4 % with 14."""
DEVIATE_BY = 0.08
"""The search overrules the normal player only when a candidate beats its move by this much mean utility: with few
samples, smaller differences are mostly noise, and following noise would play worse than the heuristic."""
CANDIDATES = 4
"""At most this many candidate moves are searched (the normal player's choice always among them)."""
MARGIN_WEIGHT = 0.01
"""Utility of each point of final margin over the best rival, besides the win share (breaks ties of few samples)."""
MARGIN_CAP = 40
ROLLOUT_STEPS = 2000
"""A safety bound on a rollout's length; real games end long before."""
FULL_DECK = (PER_COLOR,) * N_COLORS + (LOCOMOTIVES,)

Rules = GameEngine[CardGameState, CardGameAction, Any]
"""The rules a sample is played out by: the engine that asks for the move passes itself (it imports the bots)."""


@dataclass(frozen=True)
class Searched:
    """The search's verdict: the move, its mean utility and win share, and the normal player's move for contrast."""

    action: CardGameAction
    value: float
    wins: float
    games: int
    normal: CardGameAction


def unseen_cards(state: CardGameState, seat: int) -> list[int]:
    """The train cards `seat` cannot place (others' hands and the deck), as a sorted list: a canonical multiset."""
    counts = list(FULL_DECK)
    for kind in range(N_KINDS):
        counts[kind] -= state.players[seat].hand[kind] + state.discard[kind]
    for card in state.face_up:
        counts[card] -= 1
    for player in state.players:
        for kind in range(N_KINDS):
            counts[kind] -= player.stack[kind]
        for color in range(N_COLORS):
            counts[color] -= player.yard[color] - player.yard_locomotives[color]
            counts[LOCOMOTIVE] -= player.yard_locomotives[color]
    return cards_of([max(0, count) for count in counts])


def unseen_tickets(state: CardGameState, seat: int) -> list[int]:
    """The tickets `seat` cannot place (others' tickets and offers, the ticket deck), sorted."""
    known = set(state.players[seat].tickets) | set(state.players[seat].offered)
    for record in state.first_scoring or ():
        known.update(score.ticket for score in record.completed)
    return [ticket.id for ticket in load_data().tickets if ticket.id not in known]


def determinize(state: CardGameState, seat: int, rng: random.Random) -> CardGameState:
    """A full state agreeing with everything `seat` sees, hidden parts dealt from the canonical unseen pools."""
    cards = unseen_cards(state, seat)
    tickets = unseen_tickets(state, seat)
    rng.shuffle(cards)
    rng.shuffle(tickets)
    players = []
    for other, player in enumerate(state.players):
        if other == seat:
            players.append(player)
            continue
        hand = [0] * N_KINDS
        for card in cards[: sum(player.hand)]:
            hand[card] += 1
        del cards[: sum(player.hand)]
        held, offered = len(player.tickets), len(player.offered)
        dealt = tuple(tickets[: held + offered])
        del tickets[: held + offered]
        players.append(
            player.model_copy(update={"hand": tuple(hand), "tickets": dealt[:held], "offered": dealt[held:]})
        )
    return state.model_copy(
        update={
            "players": tuple(players),
            "deck": tuple(cards[: len(state.deck)]),
            "ticket_deck": tuple(tickets[: len(state.ticket_deck)]),
            "rng": Rng(seed=rng.getrandbits(62)),
        }
    )


def candidates(
    state: CardGameState, seat: int, legal: Sequence[CardGameAction], rng: random.Random
) -> list[CardGameAction]:
    """The normal player's move first, then the other moves a good player would weigh, at most `CANDIDATES`."""
    first = normal.choose_action(state, seat, legal, rng)
    found: list[CardGameAction] = [first]
    if isinstance(first, KeepTickets):
        found += _keep_variants(state, seat, first, legal)
    else:
        deficit = normal.ticket_deficit(state, seat)
        plays = sorted(
            (a for a in legal if isinstance(a, PlayGroup | PlayThree)),
            key=lambda play: -normal.most_valuable_play(state, seat, deficit, [play])[1],
        )
        found += plays[:2]
        found += [a for a in legal if isinstance(a, DrawCard) and a.kind is None]
        found += [a for a in legal if isinstance(a, DrawTickets)]
        found += [a for a in legal if isinstance(a, DrawCard) and a.kind == LOCOMOTIVE]
    unique: list[CardGameAction] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    return unique[:CANDIDATES]


def _keep_variants(
    state: CardGameState, seat: int, chosen: KeepTickets, legal: Sequence[CardGameAction]
) -> list[CardGameAction]:
    """Other ticket choices near the normal one: one ticket fewer, one more, the best rate alone."""
    offered = state.players[seat].offered
    by_rate = sorted(offered, key=lambda t: -normal.ticket_rate(t))
    kept = list(chosen.tickets)
    variants = []
    if kept:
        worst = min(kept, key=normal.ticket_rate)
        variants.append(tuple(sorted(t for t in kept if t != worst)))
    extra = [t for t in by_rate if t not in kept]
    if extra:
        variants.append(tuple(sorted([*kept, extra[0]])))
    variants.append((by_rate[0],))
    allowed = {a.tickets: a for a in legal if isinstance(a, KeepTickets)}
    return [allowed[v] for v in variants if v in allowed]


def rollout(rules: Rules, state: CardGameState, seat: int, rng: random.Random) -> tuple[float, int]:
    """Play the game out by `rules` with the normal player in every seat: `seat`'s win share and margin over the
    best rival."""
    for _ in range(ROLLOUT_STEPS):
        if state.phase is Phase.OVER:
            break
        actor = min(rules.to_act(state))
        legal = rules.legal_actions(state, actor)
        state, _ = rules.apply(state, actor, normal.choose_action(state, actor, legal, rng))
    result = rules.result(state)
    if result is None:
        return 0.0, 0
    totals = {player.seat: player.total for player in result.players}
    best_rival = max(total for other, total in totals.items() if other != seat)
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    return share, totals[seat] - best_rival


def search(
    rules: Rules,
    state: CardGameState,
    seat: int,
    legal: Sequence[CardGameAction],
    rng: random.Random,
    budget: Budget,
) -> Searched:
    """Play every candidate out in the same samples, then normal's move and the best other in more samples; the
    other is chosen only if it beats normal's move clearly over all the samples both were played in."""
    deadline = time.process_time() + budget.seconds
    moves = candidates(state, seat, legal, rng)
    # Per candidate, (utility, win share) in each sample it was played in; samples are shared, in order.
    results: list[list[tuple[float, float]]] = [[] for _ in moves]

    def sample(picked: Sequence[int], samples: int) -> bool:
        """Play the picked candidates out in `samples` more samples; False once the budget is spent."""
        began = time.process_time()
        for done in range(1, samples + 1):
            world = determinize(state, seat, rng)
            seed = rng.getrandbits(32)
            for i in picked:
                after, _ = rules.apply(world, seat, moves[i])
                share, margin = rollout(rules, after, seat, random.Random(seed))
                results[i].append((share + MARGIN_WEIGHT * max(-MARGIN_CAP, min(MARGIN_CAP, margin)), share))
            now = time.process_time()
            if now + (now - began) / done > deadline:
                return False  # another sample would overrun the budget
        return True

    def gain(i: int) -> float:
        """How much more utility candidate `i` had than normal's move, on average over the samples of both."""
        pairs = list(zip(results[i], results[0], strict=False))
        return sum(mine[0] - normal_one[0] for mine, normal_one in pairs) / max(1, len(pairs))

    best = 0
    if len(moves) > 1:
        finished = sample(range(len(moves)), KEEP_SAMPLES if isinstance(moves[0], KeepTickets) else SAMPLES)
        best = max(range(1, len(moves)), key=lambda i: (gain(i), -i))
        if finished and gain(best) > 0:
            sample((0, best), CONFIRM_SAMPLES)
        if gain(best) < DEVIATE_BY:
            best = 0
    mine = results[best]
    return Searched(
        action=moves[best],
        value=sum(u for u, _ in mine) / max(1, len(mine)),
        wins=sum(w for _, w in mine) / max(1, len(mine)),
        games=len(mine),
        normal=moves[0],
    )


def choose_action(
    rules: Rules,
    state: CardGameState,
    seat: int,
    legal: Sequence[CardGameAction],
    rng: random.Random,
    budget: Budget,
) -> CardGameAction:
    """The hard player's move: searched at real decisions, the normal one where the choice is forced."""
    return search(rules, state, seat, legal, rng, budget).action
