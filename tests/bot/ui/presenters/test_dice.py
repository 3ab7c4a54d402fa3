"""The dice game's presenter: a view of a seeded game in, the turn and final messages out (texts, buttons and the
pictures, drawn here: they are cheap), in both languages, without Discord and without the bot."""

from __future__ import annotations

import pytest

from bot.exts.dice._presenter import action_buttons, final_message, finished_turn_message, turn_message
from bot.exts.dice._story import by_turn, showing_now, story, winners
from bot.i18n import labels, text
from bot.ui.custom_ids import ACT, rematch_id
from bot.ui.pictures import plain_names
from render.dice import render_finished_turn, render_turn
from rules.dice import Add, DiceEngine, DiceOptions, Face, Roll, Stop
from rules.dice.faces import face_messages
from rules.engine import Event
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
    message = turn_message(language, record(GAME, 3), view, ["Roll 1"], ["Cleo starts."])
    assert message.heading == "### " + text(language, "dice.message.turn_title", round=1, player="Cleo")
    assert message.call == text(language, "dice.message.your_turn", player=f"<@{user_id(FIRST)}>")
    assert message.blocks == ["Cleo starts.", "Roll 1"]
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


def _event(name: str, **params: object) -> Event:
    """A public dice event as the engine words it (`dice.event.<name>`), faces given by their letters."""
    if "faces" in params:
        params["faces"] = face_messages([Face(letter) for letter in str(params["faces"])])
    return Event(key=f"dice.event.{name}", params={"seat": 0, **params})  # type: ignore[dict-item]


def _turn_of_ann() -> list[Event]:
    """Ann's turn: roll 1 shows E C T T B K, she adds E and C, then T twice; roll 2 shows H K, she adds K."""
    return [
        _event("turn_started", round=1),
        _event("rolled", roll=1, faces="ECTTBK"),
        _event("added", faces="EC"),
        _event("added", faces="T"),
        _event("added", faces="T"),
        _event("rolled", roll=2, faces="HK"),
        _event("added", faces="K"),
        _event("scored", points=18, how="caboose", total=18),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turns_story_is_one_line_per_roll_then_its_score(language: str) -> None:
    lines = story(language, _turn_of_ann(), {0: "Ann"})
    face = {letter: text(language, f"dice.face.{letter}") for letter in "ECTHBK"}
    first = text(
        language,
        "dice_turn.story.roll",
        roll=1,
        faces=f"{face['E']}, {face['C']}, {face['T']} ×2, {face['B']}, {face['K']}",
    )
    second = text(language, "dice_turn.story.roll", roll=2, faces=f"{face['H']}, {face['K']}")
    assert lines == [
        text(language, "dice_turn.story.adds", roll=first, faces=f"{face['E']}, {face['C']}, {face['T']} ×2"),
        text(language, "dice_turn.story.adds", roll=second, faces=face["K"]),
        text(language, "dice.event.scored", player="Ann", points=18, how="caboose", total=18),
    ]
    assert all(russian(line) is (language == "ru") for line in lines)


def test_a_roll_says_what_it_added_once_the_player_chose_and_nothing_while_they_choose() -> None:
    rolled = [_event("rolled", roll=1, faces="CTTBKK")]
    assert story("en", rolled, {0: "Ann"}) == ["Roll 1: 🎲 Coal car, Tanker ×2, Boxcar, Caboose ×2"]
    rolled_again = [*rolled, _event("rolled", roll=2, faces="EEEEEE")]
    assert (
        story("en", rolled_again, {0: "Ann"})[0] == "Roll 1: 🎲 Coal car, Tanker ×2, Boxcar, Caboose ×2 → adds nothing"
    )
    every_die = [_event("rolled", roll=1, faces="ECTHBK"), _event("added", faces="ECTHBK")]
    assert story("en", every_die, {0: "Ann"}) == [
        "Roll 1: 🎲 Locomotive, Coal car, Tanker, Hopper, Boxcar, Caboose → adds them all"
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_that_ends_the_game_reaches_the_target_without_a_last_round_and_the_winner_comes_last(
    language: str,
) -> None:
    ending = [
        *_turn_of_ann()[1:-1],
        _event("scored", points=18, how="caboose", total=104),
        _event("last_round", total=104, target=100),
        _event("game_over"),
        _event("won", total=104),
    ]
    lines = story(language, ending, {0: "Ann"})
    assert lines[-1] == text(language, "dice_turn.story.reached", player="Ann", total=104, target=100)
    assert text(language, "dice.event.last_round", player="Ann", total=104, target=100) not in lines
    assert winners(language, ending, {0: "Ann"}) == [text(language, "dice.event.won", player="Ann", total=104)]
    going_on = [*ending[:-2]]
    assert story(language, going_on, {0: "Ann"})[-1] == text(
        language, "dice.event.last_round", player="Ann", total=104, target=100
    )


def test_a_moves_events_split_at_the_turn_it_begins() -> None:
    game = dealt()
    events = game.play(FIRST, Stop()).events
    ending, begun = by_turn(events)
    assert [e.key for e in ending][-1] in ("dice.event.scored", "dice.event.incomplete")
    assert begun[0].key == "dice.event.turn_started" and begun[1].key == "dice.event.rolled"
    assert len(by_turn(dealt().play(FIRST, Roll()).events)) == 1


def test_a_whole_game_is_told_one_line_per_roll() -> None:
    game = dealt().until(lambda view: view.over)
    rolls = [e for e in game.events if e.key in ("dice.event.rolled", "dice.event.freight_rolled")]
    told = [line for turn in by_turn(game.events) for line in story("en", turn, NAMES)]
    assert len([line for line in told if line.startswith(("Roll ", "Freight roll"))]) == len(rolls)
    assert not any("to the train" in line or "'s turn" in line for line in told), "no line per die, no turn line"


def test_the_first_roll_of_a_game_is_told_from_its_view() -> None:
    view = dealt().public
    assert story("en", showing_now(view), NAMES) == ["Roll 1: 🎲 Locomotive ×2, Boxcar ×2, Caboose ×2"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_turn_keeps_its_story_and_shows_the_train_as_it_ended_without_buttons(language: str) -> None:
    game = dealt().play(FIRST, Stop())
    view = game.public
    ended = view.previous
    assert ended is not None and ended.seat == FIRST
    message = finished_turn_message(language, record(GAME, 3), view, ["Roll 1"], ["Cleo starts."])
    assert message.heading == "### " + text(language, "dice.message.turn_title", round=1, player="Cleo")
    assert message.blocks == ["Cleo starts.", "Roll 1"]
    assert message.controls == [] and message.call == "" and message.status == []
    [picture] = message.pictures
    assert picture.data.startswith(b"\x89PNG")
    assert picture.alt == text(language, "dice_turn.alt.finished", player="Cleo", round=1, points=ended.points)


def test_the_pictures_mark_a_bot_players_seat() -> None:
    game = dealt()
    with_bot = record(GAME, 3, bots=frozenset({FIRST}))
    names = plain_names(with_bot)
    [turn] = turn_message("en", with_bot, game.public, []).pictures
    assert turn.data == render_turn(game.public, labels("en"), names, {FIRST})
    assert turn.data != render_turn(game.public, labels("en"), names)
    view = game.play(FIRST, Stop()).public
    assert view.previous is not None
    [ended] = finished_turn_message("en", with_bot, view, []).pictures
    assert ended.data == render_finished_turn(view.previous, labels("en"), names, {FIRST})


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
