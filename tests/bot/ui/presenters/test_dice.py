"""The dice game's presenter: a view of a seeded game in, the turn and final messages out (texts, buttons and the
pictures, drawn here: they are cheap), in both languages, without Discord and without the bot."""

from __future__ import annotations

import pytest

from bot.exts.dice._presenter import action_buttons, final_message, narration, turn_message
from bot.i18n import text
from bot.ui.custom_ids import ACT, rematch_id
from rules.dice import Add, DiceEngine, DiceOptions, Face, Roll, Stop
from tests.bot.ui.presenters.support import (
    LANGUAGES,
    Played,
    by_id,
    cid,
    controls,
    layout_kinds,
    new_game,
    record,
    russian,
    said,
    user_id,
)

ENGINE = DiceEngine()
GAME = ENGINE.game_id
FIRST = 2
"""Who won the roll-off of the seeded game (R-D-2): Cleo."""
NAMES = {0: "Ann", 1: "Ben", 2: "Cleo"}


def dealt() -> Played:
    """A 3-player race to 20 after its roll-off and first roll (seed 5): Cleo shows E E K K B B."""
    game = new_game(ENGINE, DiceOptions(target=20), 3)
    assert game.public.turn.seat == FIRST
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_message_names_the_roller_shows_the_dice_and_has_a_button_per_move(language: str) -> None:
    view = dealt().public
    message = turn_message(language, record(GAME, 3), view, ["Cleo rolled."])
    assert message.heading == "### " + text(language, "dice.message.turn_title", round=1, player="Cleo")
    assert message.call == text(language, "dice.message.your_turn", player=f"<@{user_id(FIRST)}>")
    assert message.blocks == ["Cleo rolled."]
    assert message.status[1].splitlines()[FIRST] == "▶ " + text(language, "dice_turn.standing", player="Cleo", points=0)
    [picture] = message.pictures
    assert picture.name == "turn.png" and picture.data.startswith(b"\x89PNG")
    assert picture.alt == text(language, "dice_turn.alt.turn", player="Cleo", round=1, points=0)
    assert [c.custom_id for c in controls(message.controls)] == [cid(GAME, ACT, a.encode()) for a in view.legal]
    assert layout_kinds(message)[:2] == [10, 12] and layout_kinds(message).count(1) == 2
    assert russian(said(message)) is (language == "ru")


def test_r_d_4_the_first_car_offered_is_the_locomotive_whatever_else_shows() -> None:
    view = dealt().public
    assert {Face.CABOOSE, Face.BOXCAR} <= set(view.turn.showing)
    buttons = controls(action_buttons("en", record(GAME, 3), view))
    assert [b.label for b in buttons] == ["Add Locomotive", "Roll again", "Stop and score 0 points"]
    adds = [a for a in view.legal if isinstance(a, Add)]
    assert adds == [Add(faces=(Face.LOCOMOTIVE,))]


def test_the_stop_button_says_what_the_train_scores_now() -> None:
    game = dealt().play(FIRST, Add(faces=(Face.LOCOMOTIVE,)))
    stop = by_id(action_buttons("ru", record(GAME, 3), game.public), cid(GAME, ACT, Stop().encode()))
    assert stop.label == text("ru", "dice.button.stop", points=game.public.turn.score.points)
    assert russian(stop.label)
    assert cid(GAME, ACT, Roll().encode()) in [
        c.custom_id for c in controls(action_buttons("en", record(GAME, 3), game.public))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_narration_words_each_public_event_of_a_move(language: str) -> None:
    game = dealt().play(FIRST, Add(faces=(Face.LOCOMOTIVE,))).play(FIRST, Roll())
    events = game.events
    lines = narration(language, events, NAMES)
    assert len(lines) == len([e for e in events if e.public]) and lines
    assert all("Cleo" in line for line in lines)
    for event in events:
        assert not any(event.key in line for line in lines), f"{event.key} shown raw"
    assert all(russian(line) is (language == "ru") for line in lines)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_final_message_names_the_winner_with_the_score_table(language: str) -> None:
    game = dealt().until(lambda view: view.over)
    view, result = game.public, ENGINE.result(game.state)
    message = final_message(language, record(GAME, 3, status="finished"), view, ["Ben stops."], result)
    winners = [NAMES[seat] for seat in view.winners]
    assert message.call == text(language, "dice.message.winners", winners=", ".join(winners))
    [picture] = message.pictures
    assert picture.name == "scores.png" and picture.data.startswith(b"\x89PNG")
    assert all(name in picture.alt for name in NAMES.values())
    assert message.blocks[0] == "Ben stops."
    [rematch] = controls(message.controls)
    assert rematch.custom_id == str(rematch_id(7, 12))
    assert russian(said(message)) is (language == "ru")
