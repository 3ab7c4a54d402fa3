"""Bot players of «Поезд»: `easy`, `normal` (a plain heuristic), `hard` (plays for the chance to win), `random`.

Everything in this game is public, so every level reads the whole state; none reads the generator's future.
"""

from __future__ import annotations

import random

from rules.dice.actions import DiceAction
from rules.dice.bot import easy, hard, normal
from rules.dice.bot.hints import hint
from rules.dice.bot.winning import race_tables
from rules.dice.options import DiceOptions
from rules.dice.state import DiceState
from rules.engine import DEFAULT_BUDGET, LEGACY_KINDS, Budget, CommonReason, IllegalAction, Level

__all__ = ["KINDS", "choose", "hint", "warm"]

KINDS = (Level.EASY.value, Level.NORMAL.value, Level.HARD.value, "random", *LEGACY_KINDS)
"""Every bot kind `choose` accepts."""


def choose(
    state: DiceState,
    seat: int,
    legal: list[DiceAction],
    rng: random.Random,
    kind: str,
    budget: Budget = DEFAULT_BUDGET,
) -> DiceAction:
    """Return one of the `legal` moves for a bot of this kind in `seat`; the exact hard solve fits any sane
    budget."""
    kind = LEGACY_KINDS.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}")
    if not legal:
        raise IllegalAction(CommonReason.GAME_OVER if state.over else CommonReason.NOT_YOUR_TURN)
    if kind == "random":
        return rng.choice(legal)
    if kind == Level.EASY:
        return easy.choose_action(state, legal, rng)
    if kind == Level.HARD:
        action = hard.choose_action(state, seat, legal)
        if action is not None:
            return action
    return normal.choose_action(state, legal, rng)


def warm() -> None:
    """Build the hard player's race tables for the printed target, so its first move is not slow."""
    race_tables(DiceOptions().target)
