"""The engine contract for the dice game: action texts, refusals, views and results."""

from __future__ import annotations

import random
from enum import StrEnum

import pytest

from rules.dice import Add, DiceAction, DiceEngine, DiceOptions, Face, Freight, Roll, Stop
from rules.dice.state import Outcome, TurnRecord
from rules.engine import CommonReason, IllegalAction, Message

from .helpers import ENGINE, faces, game, play, turn


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Roll(), "roll"),
        (Stop(), "stop"),
        (Freight(), "freight"),
        (Add(faces=faces("T")), "add:T"),
        (Add(faces=faces("ECTHBK")), "add:ECTHBK"),
    ],
)
def test_actions_encode_and_parse_back(action: DiceAction, text: str) -> None:
    assert action.encode() == text
    assert ENGINE.parse_action(text) == action


@pytest.mark.parametrize("text", ["", "add", "add:", "add:X", "add:t", "add:TTTTTTT", "Roll", "roll:1", "ad:T"])
def test_malformed_action_texts_are_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        ENGINE.parse_action(text)
    assert refused.value.reason is CommonReason.MALFORMED_ACTION


def test_actions_describe_themselves_with_translatable_face_names() -> None:
    described = Add(faces=faces("T")).describe()
    assert described.key == "dice.action.add"
    assert described.params["faces"] == [Face.TANKER.message]
    assert Face.TANKER.message.key == "dice.face.T"
    assert {Roll().describe().key, Stop().describe().key, Freight().describe().key} == {
        "dice.action.roll",
        "dice.action.stop",
        "dice.action.freight",
    }


def test_engine_declares_itself() -> None:
    assert (DiceEngine.game_id, DiceEngine.min_players, DiceEngine.max_players) == ("dice", 2, 6)
    for players in (1, 7):
        with pytest.raises(ValueError):
            ENGINE.new_game(DiceOptions(), players, seed=1)


def test_options_are_described_bounded_and_simple() -> None:
    for name, field in DiceOptions.model_fields.items():
        assert field.description, name
        kind = field.annotation
        assert kind in (bool, int) or (isinstance(kind, type) and issubclass(kind, StrEnum)), name
    assert ENGINE.load_options('{"mode": "elimination", "tie": "play_on"}').mode == "elimination"


def test_only_the_player_in_turn_acts() -> None:
    state = game(turn(0, showing="TTTT", train="EC"), n_players=3)
    assert ENGINE.to_act(state) == frozenset({0})
    assert ENGINE.legal_actions(state, 1) == []
    for seat, reason in ((1, CommonReason.NOT_YOUR_TURN), (3, CommonReason.NOT_A_SEAT)):
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(state, seat, Stop())
        assert refused.value.reason is reason
    with pytest.raises(IllegalAction):
        ENGINE.bot_action(state, 1, random.Random(0))


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = game(turn(0, showing="TTTT", train="EC")).model_copy(update={"turn": None})
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 0, Stop())
    assert refused.value.reason is CommonReason.GAME_OVER
    assert ENGINE.to_act(state) == frozenset() and ENGINE.legal_actions(state, 0) == []


def test_view_is_public_and_holds_what_the_pictures_need() -> None:
    state, _ = play(game(turn(0, showing="THBKEC", train="", rolls=1)), "add:ECT")
    view = ENGINE.view(state, None)
    assert view == ENGINE.view(state, 1)
    dumped = view.model_dump_json()
    assert "seed" not in dumped and "rng" not in dumped and "draws" not in dumped
    assert view.turn is not None
    assert view.turn.train == faces("ECT") and view.turn.showing == faces("HBK")
    assert view.turn.score.points == 4 and view.turn.rolls == 1 and view.turn.max_rolls == 3
    assert [action.encode() for action in view.legal] == ["add:H", "add:B", "add:K", "roll", "stop"]
    assert ENGINE.result(state) is None
    assert [player.total for player in view.players] == [0, 0]
    assert view.opening and view.first == 0 and view.round == 1 and not view.last_round and not view.over


def test_view_shows_the_previous_turn_and_per_player_history() -> None:
    state, _ = play(game(turn(0, showing="K", train="ECTTH")), "add:K")
    view = ENGINE.view(state, None)
    assert view.previous is not None and view.previous.seat == 0 and view.previous.points == 24
    assert view.players[0].total == 24 and len(view.players[0].turns) == 1
    assert view.turn is not None and view.turn.seat == 1 and view.leaders == (0,)


def test_result_lists_each_scoring_turn() -> None:
    crash = TurnRecord(seat=0, round=1, points=0, outcome=Outcome.CRASHED, train=faces("EECT"), banked=9)
    bonus = TurnRecord(seat=0, round=1, points=25, outcome=Outcome.BONUS, train=faces("ECTHBK"))
    history = (crash, bonus, bonus.model_copy(update={"seat": 1}))
    state, _ = play(game(turn(1, showing="B", train="ECTTH"), options=DiceOptions(target=30), history=history), "add:B")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [1]
    assert [(player.seat, player.total) for player in result.players] == [(1, 38), (0, 25)]
    lines = result.players[0].breakdown
    assert [line.points for line in lines] == [25, 13]
    assert lines[1].label.key == "dice.score.turn"
    assert lines[1].label.params["how"] == Message(
        key="dice.score.cargo", params={"points": 13, "cargo": 13, "banked": 0}
    )
    assert [line.points for line in result.players[1].breakdown] == [25], "the crash scored nothing: no line"
