"""The easy player: the normal player's aims, with a learner's slips: moves on a whim and a ticket too many."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.cardgame.actions import CardGameAction, KeepTickets
from rules.cardgame.bot import normal
from rules.cardgame.state import CardGameState

SLIP = 0.6
"""How often the learner makes any legal move at all instead of the considered one."""


def choose_action(
    state: CardGameState, seat: int, legal: Sequence[CardGameAction], rng: random.Random
) -> CardGameAction:
    """A learner's move: usually the normal one, sometimes a whim; greedy with tickets (one more than is wise)."""
    considered = normal.choose_action(state, seat, legal, rng)
    if isinstance(considered, KeepTickets):
        spare = sorted((t for t in state.players[seat].offered if t not in considered.tickets), key=normal.ticket_rate)
        if not spare:
            return considered
        greedy = tuple(sorted((*considered.tickets, spare[-1])))
        return next((a for a in legal if isinstance(a, KeepTickets) and a.tickets == greedy), considered)
    if rng.random() < SLIP:
        return rng.choice(legal)
    return considered
