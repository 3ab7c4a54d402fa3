"""Every word the dice engine emits has an English and a Russian text, and every placeholder gets a value."""

from __future__ import annotations

import random
from enum import StrEnum

import pytest

from bot.i18n import render, table
from rules.dice import DiceOptions, DiceReason, Face, GameMode, TieRule
from rules.dice.actions import Add, Freight, Roll, Stop
from rules.dice.train import score_train
from rules.engine import IllegalAction, Message

from .helpers import ENGINE, faces

LANGUAGES = ("en", "ru")
NAMES = {seat: f"Player{seat}" for seat in range(6)}
GAMES = 60


def messages_of_played_games() -> list[Message]:
    """Return every event and result line of a few bot games, in both modes."""
    found: list[Message] = []
    rng = random.Random(5)
    for seed in range(GAMES):
        mode = GameMode.ELIMINATION if seed % 2 else GameMode.RACE
        state = ENGINE.new_game(DiceOptions(mode=mode, target=20, tie=TieRule.PLAY_ON), 2 + seed % 3, seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            state, events = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
            found += events
        result = ENGINE.result(state)
        assert result is not None
        found += [line.label for player in result.players for line in player.breakdown]
    return found


def test_the_games_say_everything_the_tables_hold() -> None:
    emitted = set().union(*(keys_in(message) for message in messages_of_played_games()))
    events = {key for key in table("en") if key.startswith(("dice.event.", "dice.score."))}
    # A running score (`view.turn.score.message`) may be incomplete; a scored turn never is.
    assert events - emitted == {"dice.score.incomplete"}, "keys no game emitted (dead, or a test gap)"


def keys_in(message: Message) -> set[str]:
    """Return the message's key and those of the messages nested in its parameters."""
    keys = {message.key}
    for value in message.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Message):
                keys |= keys_in(item)
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_and_score_line_reads_well(language: str) -> None:
    for message in messages_of_played_games():
        assert keys_in(message) <= table(language).keys(), message.key
        text = render(language, message, NAMES)
        assert "{" not in text and "}" not in text, (message.key, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_action_face_and_score_has_words(language: str) -> None:
    words = table(language)
    for reason in DiceReason:
        assert "{" not in render(language, IllegalAction(reason, face=Face.TANKER.message).message)
    actions = [Roll(), Stop(), Freight(), Add(faces=faces("ECT"))]
    assert {action.describe().key for action in actions} <= words.keys()
    assert {face.message.key for face in Face} <= words.keys()
    trains = [("ECT", 0), ("ECTK", 0), ("ECTHBK", 0), ("EECTTH", 9), ("EECTK", 9), ("EC", 0)]
    for train, banked in trains:
        assert "{" not in render(language, score_train(faces(train), banked).message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_has_a_name_a_description_and_worded_values(language: str) -> None:
    words = table(language)
    for field, info in DiceOptions.model_fields.items():
        assert {f"dice.option.{field}.name", f"dice.option.{field}.description"} <= words.keys()
        if isinstance(info.annotation, type) and issubclass(info.annotation, StrEnum):
            assert {f"dice.option.{field}.value.{value}" for value in info.annotation} <= words.keys()


def test_both_languages_have_the_same_keys() -> None:
    english = {key for key in table("en") if key.startswith("dice.")}
    russian = {key for key in table("ru") if key.startswith("dice.")}
    assert english == russian
