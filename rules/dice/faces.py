"""The six faces of a «Поезд» die (R-D-1): what each car is worth and how it counts in the opening roll."""

from __future__ import annotations

from enum import StrEnum

from rules.engine import Message


class Face(StrEnum):
    """A die face; the value is the one-letter code used in action texts (`add:T`)."""

    LOCOMOTIVE = "E"
    COAL = "C"
    TANKER = "T"
    HOPPER = "H"
    BOXCAR = "B"
    CABOOSE = "K"

    @property
    def message(self) -> Message:
        """The face's translatable name (`dice.face.T`)."""
        return _NAMES[self]


_NAMES = {face: Message(key=f"dice.face.{face.value}") for face in Face}

DICE = 6
"""Dice in the game (R-D-1)."""

FACES: tuple[Face, ...] = tuple(Face)
"""Every face, in the order the rules list them (and in which the UI offers them)."""

CARGO_POINTS: dict[Face, int] = {Face.TANKER: 4, Face.HOPPER: 3, Face.BOXCAR: 2}
"""Points of the cargo cars (R-D-1); the caboose counts 1 but only ever doubled (R-D-5)."""

CABOOSE_POINTS = 1

PIPS: dict[Face, int] = {
    Face.CABOOSE: 1,
    Face.BOXCAR: 2,
    Face.HOPPER: 3,
    Face.TANKER: 4,
    Face.COAL: 5,
    Face.LOCOMOTIVE: 6,
}
"""The face's number on the die, which decides the opening roll (R-D-2 ruling)."""


def face_messages(faces: tuple[Face, ...] | list[Face]) -> list[str | int | Message]:
    """Return faces as a list of translatable names, for an event or action parameter."""
    return [face.message for face in faces]
