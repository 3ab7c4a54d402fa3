"""The normal player (once "sensible"): aims its yard at its tickets' colours, robs when it pays, draws tickets wisely.

It reads only what its seat may know: its hand and tickets, every yard and the face-up row, the deck sizes, and
its own stack, which it knows only as any player with a perfect memory would (every card in a stack passed
face up through that player's yard).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from rules.cardgame.actions import CardGameAction, DrawCard, DrawTickets, KeepTickets, PlayGroup, PlayThree
from rules.cardgame.cards import LOCOMOTIVE, N_COLORS
from rules.cardgame.plays import holder
from rules.cardgame.state import CardGameState, Phase
from rules.cardgame.tickets import load_data, ticket_needs

PLAY_THRESHOLD = 1.5
"""A play must be worth one or two useful cards in the yard before the bot prefers it to drawing."""
ROB_WEIGHT = 0.6
"""Value of each card taken from an opponent's yard (they lose it from their future stack)."""
LOCOMOTIVE_COST = 0.7
"""A locomotive spent on a group is worth keeping for later robberies, so spending one costs this much."""
SURPLUS_WEIGHT = 0.5
"""Value of a yard card beyond what the tickets need now (it may serve a ticket drawn later)."""


def choose_action(
    state: CardGameState, seat: int, legal: Sequence[CardGameAction], rng: random.Random
) -> CardGameAction:
    """Pick a legal action for `seat` by the heuristics above; `legal` is non-empty."""
    if isinstance(legal[0], KeepTickets):
        return _keep(state, seat, legal)
    deficit = ticket_deficit(state, seat)
    draws = [a for a in legal if isinstance(a, DrawCard)]
    if state.phase is Phase.SECOND_PICK:
        return _draw(state, seat, deficit, draws, rng)
    plays = [a for a in legal if isinstance(a, PlayGroup | PlayThree)]
    best_play, value = most_valuable_play(state, seat, deficit, plays)
    if best_play is not None and (value >= PLAY_THRESHOLD or not draws):
        return best_play
    if _wants_tickets(state, seat, deficit) and any(isinstance(a, DrawTickets) for a in legal):
        return DrawTickets()
    if draws:
        return _draw(state, seat, deficit, draws, rng)
    if best_play is not None:
        return best_play
    return legal[0]


def ticket_deficit(state: CardGameState, seat: int) -> list[int]:
    """Cards per colour the seat's tickets still need beyond its stack and yard (locomotives there count)."""
    player = state.players[seat]
    wanted = _wanted(player.tickets)
    deficit = [
        max(0, wanted[c] - player.stack[c] - player.yard[c] + player.yard_locomotives[c]) for c in range(N_COLORS)
    ]
    spare = player.stack[LOCOMOTIVE] + sum(player.yard_locomotives)
    for color in sorted(range(N_COLORS), key=lambda c: deficit[c]):
        covered = min(spare, deficit[color])
        deficit[color] -= covered
        spare -= covered
    return deficit


@lru_cache(maxsize=4096)
def _wanted(tickets: tuple[int, ...]) -> tuple[int, ...]:
    """Cards per colour these tickets need in all (memoised: a seat's tickets change a few times a game)."""
    needs = ticket_needs()
    return tuple(sum(needs[ticket][color] for ticket in tickets) for color in range(N_COLORS))


def most_valuable_play(
    state: CardGameState, seat: int, deficit: list[int], plays: Sequence[PlayGroup | PlayThree]
) -> tuple[PlayGroup | PlayThree | None, float]:
    """Return the most valuable play and its value: useful cards, robbed cards, locomotives spent."""
    yards = [p.yard for p in state.players]
    best: PlayGroup | PlayThree | None = None
    best_value = float("-inf")
    for play in plays:
        if isinstance(play, PlayGroup):
            useful = min(play.cards + play.locomotives, deficit[play.color])
            surplus = play.cards + play.locomotives - useful
            victim = holder(yards, play.color, seat)
            robbed = yards[victim][play.color] if victim is not None else 0
            value = useful + SURPLUS_WEIGHT * surplus + ROB_WEIGHT * robbed - LOCOMOTIVE_COST * play.locomotives
        else:
            # Single cards are easy prey for robbers: count them a little below their face value.
            value = sum(0.8 if deficit[c] else 0.1 for c in play.colors)
        if value > best_value:
            best, best_value = play, value
    return best, best_value


def _wants_tickets(state: CardGameState, seat: int, deficit: list[int]) -> bool:
    """Draw tickets when the current ones are covered by hand, yard and stack, and the deck has time left.

    Locomotives in hand are not counted: they are the reserve for robberies and surprises.
    """
    hand = state.players[seat].hand
    missing = sum(max(0, deficit[c] - hand[c]) for c in range(N_COLORS))
    return missing == 0 and state.last_turns_left is None and len(state.deck) > 6 * state.n_players


def _draw(
    state: CardGameState, seat: int, deficit: list[int], draws: Sequence[DrawCard], rng: random.Random
) -> DrawCard:
    """Take a face-up card of a needed colour (a locomotive when much is missing), else draw blind."""
    hand = state.players[seat].hand
    missing = [max(0, deficit[c] - hand[c]) for c in range(N_COLORS)]
    best: DrawCard | None = None
    best_value = 0.5 + rng.random() * 0.1
    for draw in draws:
        if draw.kind is None:
            continue
        value = 2.2 if draw.kind == LOCOMOTIVE and sum(missing) >= 4 else 0.0
        if draw.kind != LOCOMOTIVE:
            value = 1.0 if missing[draw.kind] else 0.3 * (hand[draw.kind] == 1)
        if value > best_value:
            best, best_value = draw, value
    if best is not None:
        return best
    deck = [d for d in draws if d.kind is None]
    return deck[0] if deck else draws[0]


def _keep(state: CardGameState, seat: int, legal: Sequence[CardGameAction]) -> KeepTickets:
    """Keep the offered tickets worth their cards: high points per card, within a budget of cards."""
    player = state.players[seat]
    needs = ticket_needs()
    surplus = _surplus(state, seat)
    opening = state.phase is Phase.OPENING
    budget = 8 if opening else max(0, len(state.deck) // (4 * state.n_players) - 2)
    if state.last_turns_left is not None and not (state.n_players == 4 and state.deck_number == 1):
        budget = -1  # no time left: only tickets already covered
    ranked = sorted(player.offered, key=lambda t: -ticket_rate(t))
    kept: list[int] = []
    for ticket in ranked:
        cost = sum(max(0, need - surplus[c]) for c, need in enumerate(needs[ticket]))
        if cost <= budget or cost == 0:
            kept.append(ticket)
            budget -= cost
            for c, need in enumerate(needs[ticket]):
                surplus[c] = max(0, surplus[c] - need)
    if not kept and budget >= 0:
        # Keep one even so: a bot that drew tickets and kept none could draw again and stall the game.
        kept = [min(player.offered, key=lambda t: (sum(needs[t]), -ticket_rate(t)))]
    choice = tuple(sorted(kept))
    for action in legal:
        if isinstance(action, KeepTickets) and action.tickets == choice:
            return action
    return KeepTickets(tickets=choice)


def _surplus(state: CardGameState, seat: int) -> list[int]:
    """Cards per colour in hand, yard and stack beyond what the seat's current tickets need."""
    player = state.players[seat]
    needs = ticket_needs()
    have = [player.hand[c] + player.yard[c] + player.stack[c] for c in range(N_COLORS)]
    for ticket in player.tickets:
        for c, need in enumerate(needs[ticket]):
            have[c] -= need
    return [max(0, h) for h in have]


def ticket_rate(ticket: int) -> float:
    """Points per card a ticket pays."""
    return load_data().ticket(ticket).points / sum(ticket_needs()[ticket])
