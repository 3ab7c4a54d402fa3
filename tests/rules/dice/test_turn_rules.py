"""One turn of «Поезд»: rolls, building the train, the caboose, the bonus and the freight train (R-D-1 … R-D-8)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import pytest

from rules.dice import DiceReason, DiceState, Face
from rules.dice.faces import CARGO_POINTS, DICE, FACES
from rules.dice.state import Outcome
from rules.engine import Event, IllegalAction, Message

from .helpers import ENGINE, faces, find, game, legal, names, play, turn

Dice = Callable[..., None]


def refusal(state: DiceState, code: str) -> StrEnum:
    """Return the reason `code` is refused in `state`."""
    with pytest.raises(IllegalAction) as refused:
        play(state, code)
    return refused.value.reason


def how(events: list[Event]) -> str:
    """Return the key that explains the turn's score (`dice.score.bonus`, …)."""
    explained = find(events, "scored").params["how"]
    assert isinstance(explained, Message)
    return explained.key


def test_r_d_1_six_dice_six_faces_cargo_values() -> None:
    assert DICE == 6
    assert [face.value for face in FACES] == ["E", "C", "T", "H", "B", "K"]
    assert CARGO_POINTS == {Face.TANKER: 4, Face.HOPPER: 3, Face.BOXCAR: 2}


def test_r_d_3_first_roll_is_all_six_dice() -> None:
    state = ENGINE.new_game(ENGINE.load_options({}), 3, seed=11)
    assert state.turn is not None
    assert len(state.turn.showing) == 6 and state.turn.train == () and state.turn.rolls == 1


def test_r_d_3_later_rolls_only_the_dice_not_in_the_train(dice: Dice) -> None:
    dice("HHT")
    state, events = play(game(turn(showing="ECTHHB")), "add:ECT", "roll")
    assert state.turn is not None
    assert state.turn.train == faces("ECT") and state.turn.showing == faces("HHT") and state.turn.rolls == 2
    assert find(events, "rolled").params["roll"] == 2


def test_r_d_3_no_fourth_roll() -> None:
    state = game(turn(showing="TTT", train="ECH", rolls=3))
    assert refusal(state, "roll") is DiceReason.NO_ROLLS_LEFT
    assert "roll" not in legal(state)


def test_r_d_4_locomotive_then_coal_then_cargo() -> None:
    state = game(turn(showing="CTEEKB"))
    assert refusal(state, "add:C") is DiceReason.NEEDS_LOCOMOTIVE
    assert refusal(state, "add:T") is DiceReason.NEEDS_LOCOMOTIVE
    assert refusal(state, "add:K") is DiceReason.NEEDS_LOCOMOTIVE
    assert legal(state) == ["add:E", "roll", "stop"]
    after_e, _ = play(state, "add:E")
    assert refusal(after_e, "add:T") is DiceReason.NEEDS_COAL
    assert refusal(after_e, "add:E") is DiceReason.NEEDS_COAL  # a second locomotive comes after the coal car
    assert legal(after_e) == ["add:C", "roll", "stop"]


def test_r_d_4_locomotive_and_coal_from_the_same_roll_in_one_add() -> None:
    state, events = play(game(turn(showing="TCEHBB")), "add:TCE")
    assert state.turn is not None
    assert state.turn.train == faces("ECT") and state.turn.showing == faces("HBB")
    assert find(events, "added").params["faces"] == [Face(f).message for f in "ECT"]


def test_r_d_4_a_second_locomotive_goes_to_the_front() -> None:
    state, _ = play(game(turn(showing="EECTHH")), "add:EECT")
    assert state.turn is not None and state.turn.train == faces("EECT")
    state, _ = play(game(turn(showing="EHH", train="ECT")), "add:E")
    assert state.turn is not None and state.turn.train == faces("EECT")


def test_r_d_4_what_cannot_be_added_stays() -> None:
    state = game(turn(showing="ECK", train="EEC"))
    assert refusal(state, "add:E") is DiceReason.THIRD_LOCOMOTIVE
    assert refusal(state, "add:C") is DiceReason.SECOND_COAL
    assert refusal(state, "add:T") is DiceReason.NOT_SHOWING
    assert refusal(state, "add:KK") is DiceReason.NOT_SHOWING
    assert legal(state) == ["add:K", "roll", "stop"]


def test_r_d_4_legal_moves_offer_one_add_per_face() -> None:
    state = game(turn(showing="THEK", train="EC"))
    assert legal(state) == ["add:E", "add:T", "add:H", "add:K", "roll", "stop"]


def test_r_d_4_a_refused_add_changes_nothing() -> None:
    state = game(turn(showing="TTKB", train="EC"))
    before = state.model_dump_json()
    assert refusal(state, "add:TTC") is DiceReason.NOT_SHOWING
    assert state.model_dump_json() == before


def test_r_d_5_caboose_doubles_and_ends_turn() -> None:
    state, events = play(game(turn(showing="KB", train="ECTH")), "add:K")
    assert names(events)[:2] == ["added", "scored"]
    assert find(events, "scored").params["points"] == 2 * (4 + 3 + 1)
    assert state.turn is not None and state.turn.seat == 1
    assert state.history[-1].points == 16 and state.history[-1].train == faces("ECTHK")


def test_r_d_5_caboose_is_put_last_in_a_multi_add() -> None:
    state, events = play(game(turn(showing="KB", train="ECTT")), "add:KB")
    assert state.history[-1].train == faces("ECTTBK")
    assert find(events, "scored").params["points"] == 2 * (4 + 4 + 2 + 1)


def test_r_d_5_only_one_caboose() -> None:
    assert refusal(game(turn(showing="KKTT", train="EC")), "add:KK") is DiceReason.SECOND_CABOOSE


def test_r_d_5_caboose_alone_behind_coal_scores_two() -> None:
    _, events = play(game(turn(showing="KTTB", train="EC")), "add:K")
    assert find(events, "scored").params["points"] == 2


def test_r_d_6_stopping_early_scores_the_cargo() -> None:
    state, events = play(game(turn(showing="EEH", train="ECT", rolls=1)), "stop")
    assert names(events)[:2] == ["stopped", "scored"]
    assert state.history[-1].points == 4 and state.history[-1].outcome is Outcome.SCORED


def test_r_d_6_incomplete_train_scores_nothing() -> None:
    state, events = play(game(turn(showing="EHTB", train="EC", rolls=2)), "stop")
    assert names(events)[:2] == ["stopped", "incomplete"]
    assert state.history[-1].points == 0 and state.history[-1].outcome is Outcome.INCOMPLETE


def test_r_d_6_third_roll_with_nothing_to_add_ends_the_turn_by_itself(dice: Dice) -> None:
    dice("TTHBK")
    state, events = play(game(turn(showing="CTHBK", train="E", rolls=2)), "roll")
    assert names(events)[:3] == ["rolled", "out_of_rolls", "incomplete"]
    assert state.turn is not None and state.turn.seat == 1


def test_r_d_6_after_the_third_roll_the_player_adds_then_stops(dice: Dice) -> None:
    dice("TCB")
    state, _ = play(game(turn(showing="EKK", train="ECH", rolls=2)), "roll")
    assert legal(state) == ["add:T", "add:B", "stop"]
    state, events = play(state, "add:T", "add:B")
    assert names(events)[:3] == ["added", "added", "out_of_rolls"]
    assert state.history[-1].points == 4 + 3 + 2


def test_r_d_6_a_full_train_that_cannot_freight_ends_the_turn() -> None:
    state, events = play(game(turn(showing="B", train="ECTTH", rolls=1)), "add:B")
    assert names(events)[:3] == ["added", "train_full", "scored"]
    assert state.history[-1].points == 4 + 4 + 3 + 2


def test_r_d_7_bonus_train_scores_25() -> None:
    state, events = play(game(turn(showing="K", train="ECTHB")), "add:K")
    assert find(events, "scored").params["points"] == 25
    assert how(events) == "dice.score.bonus"
    assert state.history[-1].outcome is Outcome.BONUS


def test_r_d_7_two_locomotives_are_not_the_bonus_train() -> None:
    state, _ = play(game(turn(showing="K", train="EECTH")), "add:K")
    assert state.history[-1].points == 2 * (4 + 3 + 1)


def test_r_d_8_freight_worked_example(dice: Dice) -> None:
    banked_ten = game(turn(train="EECTTB", rolls=2))
    assert legal(banked_ten) == ["freight", "stop"]
    dice("HBK", "T", "ECC")
    rolled, events = play(banked_ten, "freight")
    assert names(events) == ["freight_banked", "freight_rolled"]
    assert find(events, "freight_banked").params == {"seat": 0, "cargo": 10, "banked": 10}
    assert rolled.turn is not None and rolled.turn.train == faces("EEC") and rolled.turn.showing == faces("HBK")

    greedy, events = play(rolled, "add:HB", "roll")
    assert names(events) == ["added", "freight_rolled", "added"]  # the lone Tanker is the only move: made for him
    assert greedy.turn is not None and greedy.turn.train == faces("EECHBT")
    greedy_view = ENGINE.view(greedy, None).turn
    assert greedy_view is not None and greedy_view.score.points == 10 + 3 + 2 + 4 == 19
    assert legal(greedy) == ["freight", "stop"]

    crashed, events = play(greedy, "freight")
    assert names(events)[:3] == ["freight_banked", "freight_rolled", "crashed"]
    assert find(events, "crashed").params["banked"] == 19
    assert crashed.history[-1].points == 0 and crashed.history[-1].outcome is Outcome.CRASHED
    assert crashed.history[-1].showing == faces("ECC") and crashed.history[-1].banked == 19
    assert crashed.turn is not None and crashed.turn.seat == 1

    _, events = play(rolled, "add:HBK")
    assert find(events, "scored").params["points"] == 2 * (10 + 3 + 2 + 1) == 32


def test_r_d_8_freight_needs_two_locomotives_coal_and_three_cargo() -> None:
    assert refusal(game(turn(showing="H", train="EECTT")), "freight") is DiceReason.NOT_FREIGHT_TRAIN
    assert "freight" not in legal(game(turn(showing="H", train="EECTT")))


def test_r_d_8_stopping_a_full_freight_train_scores_bank_and_cargo() -> None:
    _, events = play(game(turn(train="EECTHB", freight=True, banked=12)), "stop")
    assert find(events, "scored").params["points"] == 12 + 9


def test_r_d_8_a_freight_roll_must_add_a_die_before_rolling_again(dice: Dice) -> None:
    state = game(turn(showing="THK", train="EEC", freight=True, banked=9))
    assert refusal(state, "roll") is DiceReason.ADD_BEFORE_ROLLING
    assert refusal(state, "stop") is DiceReason.FREIGHT_UNFINISHED
    assert legal(state) == ["add:T", "add:H", "add:K"]
    dice("BH")
    state, _ = play(state, "add:T", "roll")
    assert state.turn is not None and state.turn.showing == faces("BH")
    assert refusal(state, "stop") is DiceReason.FREIGHT_UNFINISHED


def test_r_d_8_forced_adds_and_rolls_are_made_for_the_player(dice: Dice) -> None:
    dice("TEC", "HB")
    state, events = play(game(turn(train="EECTTT", rolls=1)), "freight")
    assert names(events) == ["freight_banked", "freight_rolled", "added", "freight_rolled"]
    assert state.turn is not None and state.turn.train == faces("EECT") and state.turn.showing == faces("HB")
    assert legal(state) == ["add:H", "add:B"]


def test_r_d_8_freight_rolls_do_not_count_towards_three(dice: Dice) -> None:
    dice("TEC", "HB")
    state, _ = play(game(turn(train="EECTTT", rolls=3)), "freight")
    assert state.turn is not None and state.turn.rolls == 3 and state.turn.freight


def test_r_d_8_caboose_ends_a_freight_train_doubled(dice: Dice) -> None:
    _, events = play(game(turn(showing="KHE", train="EEC", freight=True, banked=11)), "add:HK")
    assert find(events, "scored").params["points"] == 2 * (11 + 3 + 1)
    assert how(events) == "dice.score.freight_caboose"
