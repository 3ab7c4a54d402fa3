"""«Поезд»'s part of the engine contract: its invariant, its scramble and the tables to play out."""

from __future__ import annotations

from rules.dice.state import MAX_ROLLS, DiceState
from tests.rules.contract import ContractCase, only_the_future


def invariant(state: DiceState) -> None:
    """Six dice per turn, at most three ordinary rolls, no negative score, each seat knocked out once at most."""
    turn = state.turn
    if turn is not None:
        assert len(turn.train) + len(turn.showing) <= 6
        assert 1 <= turn.rolls <= MAX_ROLLS and turn.banked >= 0
        assert turn.seat not in state.eliminated
    assert all(record.points >= 0 for record in state.history)
    assert len(set(state.eliminated)) == len(state.eliminated) < state.n_players
    assert set(state.tie_break) <= set(range(state.n_players))


CASE = ContractCase(
    invariant=invariant,
    scramble=only_the_future,  # nothing is hidden from anyone but the dice still to be rolled
    configs=[
        (2, {"target": 30}),
        (3, {"mode": "elimination"}),
        (4, {"target": 10, "tie": "play_on"}),
        (6, {"target": 20}),
    ],
)
