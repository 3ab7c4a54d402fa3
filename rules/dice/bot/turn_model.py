"""One «Поезд» turn as a small Markov decision process: compact states, exact dice odds, and the best play.

A node is (train counts by face, dice showing sorted, rolls used, freight, banked, added since the freight roll):
plain ints and tuples, so thousands of them are solved in a blink where the engine's models would crawl. The
model follows R-D-3 … R-D-8 exactly as `rules.dice.train` and `rules.dice.turn` word them; a test checks that the
moves it offers are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from rules.dice.faces import FACES, Face
from rules.dice.state import MAX_ROLLS, Turn

E, C, T, H, B, K = range(6)
"""Faces as indexes into `FACES` (locomotive, coal car, tanker, hopper, boxcar, caboose)."""
CARGO = (0, 0, 4, 3, 2, 0)
BONUS = (1, 1, 1, 1, 1, 1)
BANK_CAP = 100
"""The model stops offering freight beyond this bank: the odds of ever getting there are negligible."""

Counts = tuple[int, ...]
Node = tuple[Counts, tuple[int, ...], int, bool, int, bool]
Move = tuple[str, int]
"""("add", face), ("roll", -1), ("freight", -1) or ("stop", -1)."""

ROLL: Move = ("roll", -1)
FREIGHT: Move = ("freight", -1)
STOP: Move = ("stop", -1)
FREIGHT_START: Counts = (2, 1, 0, 0, 0, 0)


@cache
def outcomes(dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every distinct roll of `dice` dice (sorted faces) and its probability."""
    result = []
    for faces in combinations_with_replacement(range(6), dice):
        ways = factorial(dice)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        result.append((faces, ways / 6**dice))
    return tuple(result)


def can_add(train: Counts, face: int) -> bool:
    """Whether `face` may join the train (R-D-4): E, then C, then cargo, a second E or the caboose."""
    if train[K]:
        return False
    if face == E:
        return train[E] == 0 or (train[E] == 1 and train[C] == 1)
    if train[E] == 0:
        return False
    if face == C:
        return train[C] == 0
    return train[C] == 1


def points(train: Counts, banked: int) -> int:
    """What the train scores if the turn ends now (R-D-5 … R-D-8)."""
    cargo = sum(CARGO[f] * train[f] for f in (T, H, B))
    if not (train[E] and train[C] and (cargo or banked or train[K])):
        return 0
    if train == BONUS:
        return 25
    if train[K]:
        return 2 * (banked + cargo + 1)
    return banked + cargo


def freight_ready(train: Counts) -> bool:
    """Two locomotives, the coal car and three cargo cars: all six dice (R-D-8)."""
    return train[E] == 2 and train[C] == 1 and train[K] == 0 and sum(train) == 6


def cargo_of(train: Counts) -> int:
    """The cargo cars' points."""
    return sum(CARGO[f] * train[f] for f in (T, H, B))


def node_of(turn: Turn) -> Node:
    """The model's node for an engine turn."""
    index = {face: i for i, face in enumerate(FACES)}
    counts = [0] * 6
    for face in turn.train:
        counts[index[face]] += 1
    showing = tuple(sorted(index[face] for face in turn.showing))
    return _normal(tuple(counts), showing, turn.rolls, turn.freight, turn.banked, turn.added_since_roll > 0)


def face_of(index: int) -> Face:
    """The engine's face for a model face index."""
    return FACES[index]


def _normal(train: Counts, showing: tuple[int, ...], rolls: int, freight: bool, banked: int, added: bool) -> Node:
    """A node with the fields that do not matter in its mode zeroed, so equal situations share one memo entry."""
    if freight:
        return train, showing, 0, True, banked, added
    return train, showing, rolls, False, 0, False


def moves(node: Node) -> list[Move]:
    """The moves the rules allow at `node`, in the engine's order: adds by face, roll, freight, stop."""
    train, showing, rolls, freight, _, added = node
    result: list[Move] = [("add", f) for f in sorted(set(showing)) if can_add(train, f)]
    if showing and (added if freight else rolls < MAX_ROLLS):
        result.append(ROLL)
    if freight_ready(train):
        result.append(FREIGHT)
    if not (freight and showing):
        result.append(STOP)
    return result


class TurnSolver:
    """Best play of a turn for a utility over the turn's final points (`utility[p]`, the last entry beyond)."""

    def __init__(self, utility: Sequence[float]) -> None:
        self.utility = list(utility)
        self._top = len(self.utility) - 1
        self._values: dict[Node, float] = {}
        self._rolls: dict[tuple[Counts, int, int, bool, int], float] = {}

    def worth(self, score: int) -> float:
        """The utility of ending the turn with `score` points."""
        return self.utility[min(score, self._top)]

    def value(self, node: Node) -> float:
        """Expected utility of `node` under best play."""
        known = self._values.get(node)
        if known is None:
            known = max(self.move_value(node, move) for move in moves(node))
            self._values[node] = known
        return known

    def move_value(self, node: Node, move: Move) -> float:
        """Expected utility of making `move` at `node` and playing best afterwards."""
        train, showing, rolls, freight, banked, _ = node
        kind, face = move
        if kind == "add":
            grown = _with(train, face)
            if face == K:
                return self.worth(points(grown, banked))
            left = list(showing)
            left.remove(face)
            return self.value(_normal(grown, tuple(left), rolls, freight, banked, True))
        if kind == "stop":
            return self.worth(points(train, banked))
        if kind == "roll":
            return self.roll_value(train, len(showing), rolls if freight else rolls + 1, freight, banked)
        if banked >= BANK_CAP:
            return float("-inf")
        return self.roll_value(FREIGHT_START, 3, rolls, True, banked + cargo_of(train))

    def roll_value(self, train: Counts, dice: int, rolls: int, freight: bool, banked: int) -> float:
        """Expected utility of rolling `dice` dice; in freight a roll that adds nothing crashes (R-D-8)."""
        key = (train, dice, rolls, freight, banked)
        known = self._rolls.get(key)
        if known is not None:
            return known
        total = 0.0
        for faces, chance in outcomes(dice):
            if freight and not any(can_add(train, f) for f in faces):
                total += chance * self.worth(0)
            else:
                total += chance * self.value(_normal(train, faces, rolls, freight, banked, False))
        self._rolls[key] = total
        return total

    def best(self, node: Node) -> tuple[Move, float]:
        """The best move at `node` and its value (the first in the rules' order on a tie)."""
        scored = [(self.move_value(node, move), -i, move) for i, move in enumerate(moves(node))]
        value, _, move = max(scored)
        return move, value

    def distribution(self, node: Node, memo: dict[object, dict[int, float]] | None = None) -> dict[int, float]:
        """The turn's final points under this solver's best play from `node`, as {points: probability}."""
        memo = {} if memo is None else memo
        if node in memo:
            return memo[node]
        train, showing, rolls, freight, banked, _ = node
        move, _ = self.best(node)
        kind, face = move
        result: dict[int, float]
        if kind == "stop":
            result = {points(train, banked): 1.0}
        elif kind == "add" and face == K:
            result = {points(_with(train, K), banked): 1.0}
        elif kind == "add":
            left = list(showing)
            left.remove(face)
            result = self.distribution(_normal(_with(train, face), tuple(left), rolls, freight, banked, True), memo)
        elif kind == "roll":
            result = self._roll_distribution(
                train, len(showing), rolls if freight else rolls + 1, freight, banked, memo
            )
        else:
            result = self._roll_distribution(FREIGHT_START, 3, rolls, True, banked + cargo_of(train), memo)
        memo[node] = result
        return result

    def _roll_distribution(
        self, train: Counts, dice: int, rolls: int, freight: bool, banked: int, memo: dict[object, dict[int, float]]
    ) -> dict[int, float]:
        """The turn's final points after rolling `dice` dice, under best play."""
        key = ("roll", train, dice, rolls, freight, banked)
        if key in memo:
            return memo[key]
        result: dict[int, float] = {}
        for faces, chance in outcomes(dice):
            if freight and not any(can_add(train, f) for f in faces):
                result[0] = result.get(0, 0.0) + chance
                continue
            for score, p in self.distribution(_normal(train, faces, rolls, freight, banked, False), memo).items():
                result[score] = result.get(score, 0.0) + chance * p
        memo[key] = result
        return result


def _with(train: Counts, face: int) -> Counts:
    """The train with one more car of `face`."""
    grown = list(train)
    grown[face] += 1
    return tuple(grown)


@cache
def turn_distribution() -> tuple[tuple[int, float], ...]:
    """Points of a whole turn played to maximise its expected points: the model of every rival's turn."""
    solver = TurnSolver([float(p) for p in range(BANK_CAP * 2 + 40)])
    memo: dict[object, dict[int, float]] = {}
    total: dict[int, float] = {}
    for faces, chance in outcomes(6):
        for score, p in solver.distribution(_normal((0,) * 6, faces, 1, False, 0, False), memo).items():
            total[score] = total.get(score, 0.0) + chance * p
    return tuple(sorted(total.items()))
