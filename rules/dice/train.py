"""The train a player builds: which car may join it (R-D-4), its order, and what it scores (R-D-5 … R-D-8)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from rules.dice.faces import CABOOSE_POINTS, CARGO_POINTS, FACES, Face
from rules.dice.reasons import DiceReason
from rules.engine import Message

Train = tuple[Face, ...]
"""The cars in order: locomotive(s), coal car, cargo in the order added, caboose last."""

BONUS_POINTS = 25
E, C, K = Face.LOCOMOTIVE, Face.COAL, Face.CABOOSE


def add_refusal(train: Train, face: Face) -> DiceReason | None:
    """Return why `face` cannot join `train` now, or None if it can (R-D-4)."""
    if K in train:
        # The caboose ends the turn, so the only car ever offered after it is a second caboose.
        return DiceReason.SECOND_CABOOSE
    locomotives = train.count(E)
    if face is E:
        if locomotives == 0:
            return None
        if locomotives >= 2:
            return DiceReason.THIRD_LOCOMOTIVE
        return None if C in train else DiceReason.NEEDS_COAL
    if locomotives == 0:
        return DiceReason.NEEDS_LOCOMOTIVE
    if face is C:
        return DiceReason.SECOND_COAL if C in train else None
    return None if C in train else DiceReason.NEEDS_COAL


def can_add(train: Train, face: Face) -> bool:
    """Whether `face` may join `train` now."""
    return add_refusal(train, face) is None


def with_car(train: Train, face: Face) -> Train:
    """Return `train` with `face` in its place: a second locomotive at the front, any other car behind."""
    return (face, *train) if face is E else (*train, face)


def addable_faces(train: Train, showing: Iterable[Face]) -> list[Face]:
    """Return each distinct showing face that may join `train`, in the rules' face order."""
    present = set(showing)
    return [face for face in FACES if face in present and can_add(train, face)]


def add_order(train: Train, faces: Iterable[Face]) -> list[Face]:
    """Order a multi-car add so each car can follow the one before: E, then C, the rest, the caboose last."""
    rank = {C: 1, K: 3}
    ordered = sorted(faces, key=lambda face: rank.get(face, 2))
    if E not in train and E in ordered:
        # Only the leading locomotive goes first; a second one needs the coal car before it.
        ordered.remove(E)
        ordered.insert(0, E)
    return ordered


def is_freight_ready(train: Train) -> bool:
    """Whether the train is 2 E + 1 C + 3 cargo, all six dice, no caboose: it may go freight (R-D-8)."""
    counts = Counter(train)
    return len(train) == 6 and counts[E] == 2 and counts[C] == 1 and counts[K] == 0


def cargo_points(train: Train) -> int:
    """Return the sum of the cargo cars in `train` (the caboose excluded)."""
    return sum(CARGO_POINTS.get(face, 0) for face in train)


class TrainScore(BaseModel):
    """What a train scores if the turn ended now, with the parts that explain it."""

    model_config = ConfigDict(frozen=True)

    points: int
    cargo: int
    banked: int = 0
    caboose: bool = False
    bonus: bool = False
    complete: bool = True

    @property
    def message(self) -> Message:
        """How the points were made, e.g. `dice.score.caboose` (2 × (cargo + 1))."""
        if not self.complete:
            key = "incomplete"
        elif self.bonus:
            key = "bonus"
        elif self.banked:
            key = "freight_caboose" if self.caboose else "freight"
        else:
            key = "caboose" if self.caboose else "cargo"
        return Message(
            key=f"dice.score.{key}",
            params={"points": self.points, "cargo": self.cargo, "banked": self.banked},
        )


def score_train(train: Train, banked: int = 0) -> TrainScore:
    """Score a finished train (R-D-5 … R-D-8): cargo, doubled with a caboose, or 25 for the bonus train."""
    cargo = cargo_points(train)
    caboose = K in train
    complete = E in train and C in train and (cargo > 0 or banked > 0 or caboose)
    bonus = sorted(train) == sorted(FACES)
    if not complete:
        points = 0
    elif bonus:
        points = BONUS_POINTS
    elif caboose:
        points = 2 * (banked + cargo + CABOOSE_POINTS)
    else:
        points = banked + cargo
    return TrainScore(points=points, cargo=cargo, banked=banked, caboose=caboose, bonus=bonus, complete=complete)
