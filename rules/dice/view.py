"""What the dice game shows: everything the pictures and the bot's messages need, and never the generator."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.dice.actions import DiceAction
from rules.dice.faces import Face
from rules.dice.options import DiceOptions
from rules.dice.state import MAX_ROLLS, DiceState, OpeningRoll, TurnRecord
from rules.dice.train import Train, TrainScore, score_train
from rules.engine import Seat


class PlayerLine(BaseModel):
    """One player's line: total, best train, the one that ranks them, every finished turn, still in or not."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    total: int
    best: int
    standing: int
    turns: tuple[TurnRecord, ...]
    eliminated: bool
    in_play: bool


class TurnView(BaseModel):
    """The turn in play: dice showing, the train in order, what stopping would score, rolls, freight bank."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    showing: tuple[Face, ...]
    train: Train
    score: TrainScore
    rolls: int
    max_rolls: int = MAX_ROLLS
    freight: bool
    banked: int


class DiceView(BaseModel):
    """The view of a dice game: everything is public except the seed and generator, which never leave."""

    model_config = ConfigDict(frozen=True)

    options: DiceOptions
    players: tuple[PlayerLine, ...]
    opening: tuple[tuple[OpeningRoll, ...], ...]
    first: Seat
    round: int
    last_round: bool
    tie_break: tuple[Seat, ...]
    bar: int | None
    turn: TurnView | None
    previous: TurnRecord | None
    legal: tuple[DiceAction, ...]
    """The moves of the player to act, as the engine's actions (adds first, then roll, freight, stop)."""
    over: bool
    winners: tuple[Seat, ...]
    leaders: tuple[Seat, ...]

    @property
    def legal_moves(self) -> list[DiceAction]:
        """The legal moves, in the shape every game's view gives them."""
        return list(self.legal)


def build_view(state: DiceState, legal: Sequence[DiceAction]) -> DiceView:
    """Return the view of `state`; `legal` holds the moves of the player to act."""
    turn = state.turn
    return DiceView(
        options=state.options,
        players=tuple(
            PlayerLine(
                seat=seat,
                total=state.total(seat),
                best=state.best(seat),
                standing=state.standing(seat),
                turns=tuple(record for record in state.history if record.seat == seat),
                eliminated=seat in state.eliminated,
                in_play=state.in_play(seat),
            )
            for seat in range(state.n_players)
        ),
        opening=state.opening,
        first=state.first,
        round=state.round,
        last_round=state.last_round,
        tie_break=state.tie_break,
        bar=state.bar,
        turn=None
        if turn is None
        else TurnView(
            seat=turn.seat,
            showing=turn.showing,
            train=turn.train,
            score=score_train(turn.train, turn.banked),
            rolls=turn.rolls,
            freight=turn.freight,
            banked=turn.banked,
        ),
        previous=state.history[-1] if state.history else None,
        legal=tuple(legal),
        over=state.over,
        winners=state.winners(),
        leaders=state.leaders(),
    )
