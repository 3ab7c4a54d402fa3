"""Hand-built dice states, so a rule test states exactly the dice and the train it needs."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceEngine, DiceOptions, DiceState, Face
from rules.dice.state import OpeningRoll, Turn
from rules.engine import Event
from rules.rng import Rng

ENGINE = DiceEngine()


def faces(letters: str) -> tuple[Face, ...]:
    """Return the faces named by their letters, e.g. `faces("EECTTB")`."""
    return tuple(Face(letter) for letter in letters)


def turn(seat: int = 0, *, showing: str = "", train: str = "", **fields: Any) -> Turn:
    """Return a turn in play with the given dice showing and train (six dice in all)."""
    assert len(showing) + len(train) == 6, "a turn has six dice"
    return Turn(seat=seat, showing=faces(showing), train=faces(train), **fields)


def game(current: Turn, *, n_players: int = 2, options: DiceOptions | None = None, **fields: Any) -> DiceState:
    """Return a game in `current`'s turn, seat 0 having started, with any other state fields given."""
    fields.setdefault("rng", Rng(seed=0))
    return DiceState(
        options=options or DiceOptions(),
        n_players=n_players,
        opening=(tuple(OpeningRoll(seat=s, face=Face.CABOOSE if s else Face.LOCOMOTIVE) for s in range(n_players)),),
        first=0,
        turn=current,
        **fields,
    )


def play(state: DiceState, *codes: str) -> tuple[DiceState, list[Event]]:
    """Apply encoded moves, each by the player in turn; return the last state and all events."""
    events: list[Event] = []
    for code in codes:
        assert state.turn is not None, f"the game is over before {code}"
        state, more = ENGINE.apply(state, state.turn.seat, ENGINE.parse_action(code))
        events += more
    return state, events


def names(events: list[Event]) -> list[str]:
    """Return the events' short names (`dice.event.rolled` → `rolled`)."""
    return [event.key.removeprefix("dice.event.") for event in events]


def find(events: list[Event], name: str) -> Event:
    """Return the only event called `name`."""
    found = [event for event in events if event.key == f"dice.event.{name}"]
    assert len(found) == 1, names(events)
    return found[0]


def legal(state: DiceState) -> list[str]:
    """Return the encoded legal moves of the player in turn."""
    assert state.turn is not None
    return [action.encode() for action in ENGINE.legal_actions(state, state.turn.seat)]
