"""The coach's advice in «Поезд»: the hard player's move and one sentence why, with the chances to win."""

from __future__ import annotations

import random

from rules.dice.actions import DiceAction
from rules.dice.bot.hard import action_of, solver_for
from rules.dice.bot.turn_model import FREIGHT, ROLL, STOP, K, cargo_of, face_of, moves, node_of, points
from rules.dice.state import DiceState
from rules.engine import DEFAULT_BUDGET, Budget, CommonReason, Hint, IllegalAction, Message, Seat


def hint(state: DiceState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Hint[DiceAction]:
    """What the hard player would do in `seat` now, and why: the move's chance to win against the next best."""
    turn = state.turn
    if turn is None or turn.seat != seat:
        raise IllegalAction(CommonReason.GAME_OVER if state.over else CommonReason.NOT_YOUR_TURN)
    solver = solver_for(state, seat)
    node = node_of(turn)
    move, value = solver.best(node)
    train, _, _, _, banked, _ = node
    others = [solver.move_value(node, other) for other in moves(node) if other != move]
    params: dict[str, object] = {"percent": _percent(value)}
    if others:
        params["other"] = _percent(max(others))
    stop_points = points(train, banked)
    if move == STOP:
        key = "stop" if others else "stop_only"
        params["points"] = stop_points
    elif move[0] == "add" and move[1] == K:
        key, params["points"] = "caboose", points((*train[:K], 1), banked)
    elif move[0] == "add":
        key, params["face"] = "add", face_of(move[1]).message
    elif move == FREIGHT:
        key, params["cargo"], params["points"] = "freight", cargo_of(train), stop_points
    elif move == ROLL and STOP in moves(node):
        key, params["points"] = "roll", stop_points
        params["other"] = _percent(solver.move_value(node, STOP))
    else:
        key = "roll_on"
    return Hint(action=action_of(move), reason=Message(key=f"dice_hint.{key}", params=params))


def _percent(value: float) -> int:
    """A chance as a whole percentage, 0 … 100."""
    return max(0, min(100, round(100 * value)))
