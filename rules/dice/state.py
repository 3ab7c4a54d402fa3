"""The whole state of a dice game: serializable, frozen, and holding its own random generator."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.dice.faces import Face
from rules.dice.options import DiceOptions, GameMode
from rules.dice.train import Train
from rules.engine import Seat
from rules.rng import Rng

MAX_ROLLS = 3
"""Ordinary rolls per turn (R-D-3); freight rolls do not count (R-D-8)."""


class OpeningRoll(BaseModel):
    """One player's die in the opening roll-off (R-D-2)."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    face: Face


class Outcome(StrEnum):
    """How a turn ended."""

    SCORED = "scored"
    BONUS = "bonus"
    INCOMPLETE = "incomplete"
    CRASHED = "crashed"


class TurnRecord(BaseModel):
    """A finished turn: who, in which round, the train and the dice left showing as it ended, and its points."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    round: int
    points: int
    outcome: Outcome
    train: Train
    showing: tuple[Face, ...] = ()
    banked: int = 0


class Turn(BaseModel):
    """The turn being played: the dice showing, the train so far, rolls used and the freight bank."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    showing: tuple[Face, ...]
    train: Train = ()
    rolls: int = 1
    freight: bool = False
    banked: int = 0
    added_since_roll: int = 0


class DiceState(BaseModel):
    """A dice game: options, generator, the opening, the turn in play and every finished turn."""

    model_config = ConfigDict(frozen=True)

    options: DiceOptions
    n_players: int
    rng: Rng
    opening: tuple[tuple[OpeningRoll, ...], ...]
    first: Seat
    round: int = 1
    turn: Turn | None = None
    history: tuple[TurnRecord, ...] = ()
    last_round: bool = False
    tie_break: tuple[Seat, ...] = ()
    bar: int | None = None
    eliminated: tuple[Seat, ...] = ()

    @property
    def over(self) -> bool:
        """Whether the game has ended (no turn is in play)."""
        return self.turn is None

    def total(self, seat: Seat) -> int:
        """Return the sum of a player's turn scores."""
        return sum(record.points for record in self.history if record.seat == seat)

    def best(self, seat: Seat) -> int:
        """Return a player's best single train."""
        return max((record.points for record in self.history if record.seat == seat), default=0)

    def in_play(self, seat: Seat) -> bool:
        """Whether `seat` still takes turns: not eliminated, and among the tied leaders during a tie-break."""
        return seat not in self.eliminated and (not self.tie_break or seat in self.tie_break)

    def standing(self, seat: Seat) -> int:
        """Return what ranks a player: their total in a race, their best train in elimination."""
        return self.best(seat) if self.options.mode is GameMode.ELIMINATION else self.total(seat)

    def leaders(self) -> tuple[Seat, ...]:
        """Return the seats with the highest standing, in seat order."""
        scores = [self.standing(seat) for seat in range(self.n_players)]
        return tuple(seat for seat, points in enumerate(scores) if points == max(scores))

    def winners(self) -> tuple[Seat, ...]:
        """Return the winner(s) once over (the last one in, or the top totals after the tie rule), else ()."""
        if not self.over:
            return ()
        if self.options.mode is GameMode.ELIMINATION:
            return tuple(seat for seat in range(self.n_players) if seat not in self.eliminated)
        return self.leaders()
