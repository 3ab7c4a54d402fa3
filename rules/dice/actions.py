"""The moves of «Поезд», each with a short stable text: `roll`, `add:T`, `add:ECT`, `stop`, `freight`."""

from __future__ import annotations

from pydantic import Field

from rules.dice.faces import Face, face_messages
from rules.engine import Action, CommonReason, IllegalAction, Message


class Roll(Action):
    """Roll every die not in the train (R-D-3), or the remaining freight dice (R-D-8)."""

    def encode(self) -> str:
        """Return `roll`."""
        return "roll"

    def describe(self) -> Message:
        """Return the translatable 'roll again'."""
        return Message(key="dice.action.roll")


class Add(Action):
    """Add showing dice to the train; several at once are put in a valid order (R-D-4)."""

    faces: tuple[Face, ...] = Field(min_length=1, max_length=6)

    def encode(self) -> str:
        """Return `add:` and the face letters, e.g. `add:ECT`."""
        return "add:" + "".join(face.value for face in self.faces)

    def describe(self) -> Message:
        """Return the translatable 'add <cars>'."""
        return Message(key="dice.action.add", params={"faces": face_messages(self.faces)})


class Stop(Action):
    """End the turn and score the train (R-D-6)."""

    def encode(self) -> str:
        """Return `stop`."""
        return "stop"

    def describe(self) -> Message:
        """Return the translatable 'stop and score'."""
        return Message(key="dice.action.stop")


class Freight(Action):
    """Bank the three cargo cars of a two-locomotive train and roll them again (R-D-8)."""

    def encode(self) -> str:
        """Return `freight`."""
        return "freight"

    def describe(self) -> Message:
        """Return the translatable 'bank the cargo and roll it again'."""
        return Message(key="dice.action.freight")


DiceAction = Roll | Add | Stop | Freight
"""Any move of the dice game."""

_SIMPLE: dict[str, DiceAction] = {"roll": Roll(), "stop": Stop(), "freight": Freight()}


def parse_action(text: str) -> DiceAction:
    """Read an action from its `encode()` text, or raise `IllegalAction(MALFORMED_ACTION)`."""
    if text in _SIMPLE:
        return _SIMPLE[text]
    verb, _, letters = text.partition(":")
    if verb != "add" or not 1 <= len(letters) <= 6:
        raise IllegalAction(CommonReason.MALFORMED_ACTION)
    try:
        return Add(faces=tuple(Face(letter) for letter in letters))
    except ValueError:
        raise IllegalAction(CommonReason.MALFORMED_ACTION) from None
