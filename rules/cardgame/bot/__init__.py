"""Bot players of the card game: `easy`, `normal` (a heuristic), `hard` (determinized rollouts), `random`.

Every level reads only what its seat may know: its hand and tickets, every yard and the face-up row, the pile
sizes, and the stacks as a perfect memory holds them (every stacked card passed face up through a yard).
"""

from __future__ import annotations

import random

from rules.cardgame.actions import CardGameAction
from rules.cardgame.bot import easy, hard, normal
from rules.cardgame.bot.hard import Rules
from rules.cardgame.bot.hints import hint
from rules.cardgame.state import CardGameState
from rules.engine import DEFAULT_BUDGET, LEGACY_KINDS, Budget, CommonReason, IllegalAction, Level

__all__ = ["KINDS", "choose", "hint"]

KINDS = (Level.EASY.value, Level.NORMAL.value, Level.HARD.value, "random", *LEGACY_KINDS)
"""Every bot kind `choose` accepts."""


def choose(
    rules: Rules, state: CardGameState, seat: int, rng: random.Random, kind: str, budget: Budget = DEFAULT_BUDGET
) -> CardGameAction:
    """Return a legal move for a bot of this kind in `seat`; `hard` plays its samples out by `rules`."""
    kind = LEGACY_KINDS.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}")
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction(CommonReason.NOT_YOUR_TURN)
    if kind == "random":
        return rng.choice(legal)
    if kind == Level.EASY:
        return easy.choose_action(state, seat, legal, rng)
    if kind == Level.HARD:
        return hard.choose_action(rules, state, seat, legal, rng, budget)
    return normal.choose_action(state, seat, legal, rng)
