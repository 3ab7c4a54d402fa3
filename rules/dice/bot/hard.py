"""The hard player: plays each turn exactly for the best chance to win the game (turn model × winning model)."""

from __future__ import annotations

from rules.caches import BoundedCache
from rules.dice.actions import Add, DiceAction, Freight, Roll, Stop
from rules.dice.bot.turn_model import Move, TurnSolver, face_of, node_of
from rules.dice.bot.winning import win_utility
from rules.dice.state import DiceState
from rules.engine import Seat

_SOLVERS: BoundedCache[tuple[float, ...], TurnSolver] = BoundedCache("rules.dice.bot.hard.solvers", 8)
"""Solved turns by utility: a turn's later moves reuse the solve of its first (one utility per turn)."""


def solver_for(state: DiceState, seat: Seat) -> TurnSolver:
    """The turn solver for `seat`'s turn now (memoised: every move of one turn shares it)."""
    utility = tuple(win_utility(state, seat))
    solver = _SOLVERS.get(utility)
    if solver is None:
        solver = _SOLVERS.put(utility, TurnSolver(utility))
    return solver


def action_of(move: Move) -> DiceAction:
    """The engine's action for a model move."""
    kind, face = move
    if kind == "add":
        return Add(faces=(face_of(face),))
    simple: dict[str, DiceAction] = {"roll": Roll(), "freight": Freight(), "stop": Stop()}
    return simple[kind]


def choose_action(state: DiceState, seat: Seat, legal: list[DiceAction]) -> DiceAction | None:
    """The best move for the chance to win, or None if the model disagrees with the engine (never expected)."""
    assert state.turn is not None, "a legal move implies a turn in play"
    move, _ = solver_for(state, seat).best(node_of(state.turn))
    action = action_of(move)
    codes = {legal_action.encode() for legal_action in legal}
    return action if action.encode() in codes else None
