"""What the player in turn may do with the dice and the train (R-D-3 … R-D-8): pure functions of a `Turn`."""

from __future__ import annotations

from collections import Counter

from rules.dice.faces import Face
from rules.dice.reasons import DiceReason
from rules.dice.state import MAX_ROLLS, Turn
from rules.dice.train import add_order, add_refusal, is_freight_ready, with_car
from rules.engine import IllegalAction


def roll_refusal(turn: Turn) -> DiceReason | None:
    """Return why the player may not roll now, or None (R-D-3; in freight mode, R-D-8)."""
    if not turn.showing:
        return DiceReason.NOTHING_TO_ROLL
    if turn.freight:
        return None if turn.added_since_roll else DiceReason.ADD_BEFORE_ROLLING
    return None if turn.rolls < MAX_ROLLS else DiceReason.NO_ROLLS_LEFT


def stop_refusal(turn: Turn) -> DiceReason | None:
    """Return why the player may not stop now, or None: a freight round ends only full or with the caboose."""
    return DiceReason.FREIGHT_UNFINISHED if turn.freight and turn.showing else None


def freight_refusal(turn: Turn) -> DiceReason | None:
    """Return why the player may not bank and roll the cargo again, or None (R-D-8)."""
    return None if is_freight_ready(turn.train) else DiceReason.NOT_FREIGHT_TRAIN


def with_added(turn: Turn, faces: tuple[Face, ...]) -> Turn:
    """Return the turn with `faces` moved from the showing dice into the train, or raise `IllegalAction`."""
    showing = Counter(turn.showing)
    for face, wanted in Counter(faces).items():
        if showing[face] < wanted:
            raise IllegalAction(DiceReason.NOT_SHOWING, face=face.message)
    train = turn.train
    for face in add_order(train, faces):
        refusal = add_refusal(train, face)
        if refusal is not None:
            raise IllegalAction(refusal, face=face.message)
        train = with_car(train, face)
    left = list(turn.showing)
    for face in faces:
        left.remove(face)
    return turn.model_copy(
        update={
            "train": train,
            "showing": tuple(left),
            "added_since_roll": turn.added_since_roll + len(faces),
        }
    )
