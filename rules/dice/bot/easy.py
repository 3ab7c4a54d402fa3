"""The easy player: a learner who builds the train in order, grabs the caboose and never dares a freight run."""

from __future__ import annotations

import random

from rules.dice.actions import Add, DiceAction, Roll, Stop
from rules.dice.bot.normal import CARGO_BEST_FIRST
from rules.dice.faces import Face
from rules.dice.state import DiceState
from rules.dice.train import score_train

E, C, K = Face.LOCOMOTIVE, Face.COAL, Face.CABOOSE
STOP_CHANCE = 0.5
"""How often the learner stops as soon as the train scores anything, rather than rolling for more."""


def choose_action(state: DiceState, legal: list[DiceAction], rng: random.Random) -> DiceAction:
    """A learner's move among `legal` (never empty) for the player in turn."""
    turn = state.turn
    assert turn is not None, "a legal move implies a turn in play"
    addable = {action.faces[0] for action in legal if isinstance(action, Add)}
    if E in addable and E not in turn.train:
        return Add(faces=(E,))
    if C in addable:
        return Add(faces=(C,))
    for face in CARGO_BEST_FIRST:
        if face in addable:
            return Add(faces=(face,))
    if K in addable:
        return Add(faces=(K,))
    can_stop = any(isinstance(action, Stop) for action in legal)
    scores = score_train(turn.train, turn.banked).points > 0
    if can_stop and ((scores and rng.random() < STOP_CHANCE) or not any(isinstance(a, Roll) for a in legal)):
        return Stop()
    if any(isinstance(action, Roll) for action in legal):
        return Roll()
    return Stop() if can_stop else legal[0]
