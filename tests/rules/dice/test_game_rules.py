"""The game around the turns: the opening roll-off, seat order, the end of a race and elimination (R-D-2, 9, 10)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from rules.dice import DiceOptions, GameMode, TieRule
from rules.dice.faces import PIPS
from rules.dice.state import Outcome, Turn, TurnRecord

from .helpers import ENGINE, faces, find, game, names, play, turn

Dice = Callable[..., None]
ELIMINATION = DiceOptions(mode=GameMode.ELIMINATION)


def scored(seat: int, points: int, round_: int = 1) -> TurnRecord:
    """Return a finished scoring turn worth `points` (the train is only a plausible picture of it)."""
    return TurnRecord(seat=seat, round=round_, points=points, outcome=Outcome.SCORED, train=faces("ECT"))


def worth_13(seat: int) -> Turn:
    """Return a turn one Boxcar away from a full train worth 13 (T, T, H, B)."""
    return turn(seat, showing="B", train="ECTTH")


@pytest.mark.parametrize("seed", range(40))
def test_r_d_2_highest_opening_roll_starts_and_ties_roll_again(seed: int) -> None:
    state = ENGINE.new_game(DiceOptions(), 6, seed)
    rounds = state.opening
    assert [roll.seat for roll in rounds[0]] == list(range(6))
    for earlier, later in itertools.pairwise(rounds):
        top = max(PIPS[roll.face] for roll in earlier)
        assert [roll.seat for roll in later] == [roll.seat for roll in earlier if PIPS[roll.face] == top]
    top = max(PIPS[roll.face] for roll in rounds[-1])
    assert [roll.seat for roll in rounds[-1] if PIPS[roll.face] == top] == [state.first]
    assert state.turn is not None and state.turn.seat == state.first


def test_r_d_2_some_openings_need_a_second_roll() -> None:
    assert any(len(ENGINE.new_game(DiceOptions(), 6, seed).opening) > 1 for seed in range(40))


def test_r_d_2_play_goes_in_seat_order_from_the_first_player() -> None:
    state = ENGINE.new_game(DiceOptions(), 4, seed=3)
    seats = []
    for _ in range(8):
        assert state.turn is not None
        seats.append(state.turn.seat)
        state, _ = play(state, "stop")
    assert seats == [(state.first + i) % 4 for i in range(8)]
    assert state.round == 3


def test_r_d_9_reaching_the_target_finishes_the_round() -> None:
    start = game(worth_13(1), n_players=3, history=(scored(0, 50), scored(1, 90)))
    state, events = play(start, "add:B")
    assert find(events, "last_round").params == {"seat": 1, "total": 103, "target": 100}
    assert state.last_round and state.turn is not None and state.turn.seat == 2
    state, events = play(state, "stop")
    assert names(events)[-2:] == ["game_over", "won"]
    assert state.over and ENGINE.to_act(state) == frozenset()
    result = ENGINE.result(state)
    assert result is not None and result.winners == [1]
    assert [player.seat for player in result.players] == [1, 0, 2]
    assert [player.total for player in result.players] == [103, 50, 0]


def test_r_d_9_the_last_seat_of_the_round_reaching_the_target_ends_at_once() -> None:
    state, events = play(game(worth_13(1), history=(scored(0, 99), scored(1, 90))), "add:B")
    assert names(events)[-3:] == ["last_round", "game_over", "won"]
    result = ENGINE.result(state)
    assert result is not None and result.winners == [1]


def test_r_d_9_highest_total_wins_not_the_first_to_reach() -> None:
    state, _ = play(game(worth_13(1), n_players=3, history=(scored(1, 90), scored(2, 95))), "add:B")
    assert state.turn is not None and state.turn.seat == 2
    state = state.model_copy(update={"turn": worth_13(2)})
    state, _ = play(state, "add:B")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [2]


def test_r_d_9_tie_for_the_top_is_a_shared_win() -> None:
    state, _ = play(game(worth_13(1), history=(scored(0, 103), scored(1, 90))), "add:B")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0, 1]


def test_r_d_9_variant_tied_leaders_play_further_rounds() -> None:
    options = DiceOptions(tie=TieRule.PLAY_ON)
    start = game(worth_13(2), n_players=3, options=options, history=(scored(0, 103), scored(2, 90)))
    state, events = play(start, "add:B")
    assert [event.params["seat"] for event in events if event.key == "dice.event.tie_break"] == [0, 2]
    assert state.tie_break == (0, 2) and state.round == 2
    assert state.turn is not None and state.turn.seat == 0
    state, _ = play(state, "stop")  # nothing added: 0 points
    assert state.turn is not None and state.turn.seat == 2, "seat 1 is not tied and sits out"
    state = state.model_copy(update={"turn": turn(2, showing="TT", train="ECTT")})
    state, _ = play(state, "stop")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [2]


def test_r_d_9_variant_tie_break_rounds_repeat_while_tied() -> None:
    options = DiceOptions(tie=TieRule.PLAY_ON)
    state, _ = play(game(worth_13(1), options=options, history=(scored(0, 103), scored(1, 90))), "add:B")
    state, _ = play(state, "stop", "stop")
    assert not state.over and state.tie_break == (0, 1) and state.round == 3


def test_r_d_9_variant_target_score() -> None:
    options = DiceOptions(target=20)
    _, events = play(game(worth_13(0), options=options, history=(scored(0, 7),)), "add:B")
    assert find(events, "last_round").params["target"] == 20


def test_r_d_9_target_is_bounded() -> None:
    with pytest.raises(ValueError):
        DiceOptions(target=5)
    assert DiceOptions().target == 100 and DiceOptions().mode is GameMode.RACE


def test_r_d_10_elimination_first_scored_train_sets_the_bar() -> None:
    state, _ = play(game(turn(0, showing="TTTT", train="EC"), options=ELIMINATION), "stop")
    assert state.bar is None and not state.eliminated, "no bar yet: a 0 knocks nobody out"
    state = state.model_copy(update={"turn": worth_13(1)})
    state, events = play(state, "add:B")
    assert find(events, "new_bar").params == {"seat": 1, "bar": 13}
    assert state.bar == 13


def test_r_d_10_elimination_failing_to_beat_the_bar_knocks_out() -> None:
    start = game(worth_13(1), n_players=3, options=ELIMINATION, bar=13, history=(scored(0, 13),))
    state, events = play(start, "add:B")
    assert find(events, "eliminated").params == {"seat": 1, "points": 13, "bar": 13}
    assert state.eliminated == (1,) and state.turn is not None and state.turn.seat == 2
    state, _ = play(state, "stop")
    assert state.eliminated == (1, 2), "the last one in wins at once"
    assert state.over
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0]
    assert [player.seat for player in result.players] == [0, 2, 1]
    assert [player.total for player in result.players] == [13, 0, 13]


def test_r_d_10_elimination_beating_the_bar_raises_it_and_skips_the_knocked_out() -> None:
    start = game(worth_13(0), n_players=3, options=ELIMINATION, bar=12, eliminated=(1,))
    state, events = play(start, "add:B")
    assert find(events, "new_bar").params["bar"] == 13
    assert state.turn is not None and state.turn.seat == 2


def test_r_d_10_elimination_the_bar_setter_must_beat_it_too() -> None:
    start = game(worth_13(0), options=ELIMINATION, bar=20, history=(scored(0, 20),))
    state, events = play(start, "add:B")
    assert "eliminated" in names(events) and state.over
    result = ENGINE.result(state)
    assert result is not None and result.winners == [1]
