"""Ticket to Ride bot players: the levels (`easy`, `normal`, `hard`), the four playstyle agents, `random`, the coach.

Every kind reads only what its seat may see: the board, the face-up row, pile sizes and the discards (every card
reaches them face up), the public figures of each player, and its own hand, tickets and ticket offer; the `hard`
player samples the rest. Every kind is deterministic for a given `rng` and always returns a legal move.
"""

from __future__ import annotations

import random

from rules.engine import DEFAULT_BUDGET, LEGACY_KINDS, Budget, Hint, Level
from rules.ttr.actions import TtrAction
from rules.ttr.board import board_for
from rules.ttr.moves import move_set
from rules.ttr.state import TtrState

from .agents import AGENTS
from .coach import reason
from .heuristic import easy, normal
from .search import Rules, hard

PERSONALITIES: tuple[str, ...] = tuple(AGENTS)
"""The playstyle agents a lobby may offer as personalities, after the levels."""
KINDS: tuple[str, ...] = (*Level, *PERSONALITIES, "random")
"""Every bot kind `choose` plays (plus the legacy names of `LEGACY_KINDS`)."""


def choose(
    rules: Rules, state: TtrState, seat: int, rng: random.Random, kind: str, budget: Budget = DEFAULT_BUDGET
) -> TtrAction:
    """Return a legal move for a bot of this kind in `seat`; `hard` plays its samples out by `rules`."""
    kind = LEGACY_KINDS.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}")
    moves = move_set(state, seat)
    board = board_for(state.map_id)
    n = moves.count()
    if n == 0:
        raise ValueError(f"seat {seat} has nothing to do now")
    if kind == "random":
        return moves.pick(rng.randrange(n), board)
    if kind == Level.EASY:
        return easy(state, seat, moves, board, rng)
    if kind == Level.NORMAL:
        return normal(state, seat, moves, board, rng)
    if kind == Level.HARD:
        return hard(rules, state, seat, moves, board, rng, budget)
    return AGENTS[kind](state, seat, moves, board, rng)


def hint(
    rules: Rules, state: TtrState, seat: int, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> Hint[TtrAction]:
    """What the `hard` player would do in `seat` now, and why in one translatable sentence."""
    action = choose(rules, state, seat, rng, Level.HARD, budget)
    return Hint(action=action, reason=reason(state, seat, action))
