"""The card game's presenter: a view of a seeded game in, the message parts out (texts, controls, pictures), in both
languages, without Discord and without the bot; the drawing is stubbed."""

from __future__ import annotations

import pytest

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import (
    FIRST_SCORED,
    CardGamePresenter,
    ColourPicked,
    SizePicked,
    ThreePicked,
    first_scoring_message,
)
from bot.exts.cardgame._private import THREE, ticket_words
from bot.i18n import text
from bot.ui.answers import PrivateMessage
from bot.ui.custom_ids import ACT, rematch_id
from bot.ui.pictures import Picture
from bot.ui.table_presenter import Verb
from rules.cardgame import CardGameEngine
from rules.cardgame.actions import DRAW_TICKETS, DrawCard, KeepTickets, PlayGroup, PlayThree, draw_action
from rules.cardgame.cards import COLORS, KIND_NAMES, kind_of
from rules.cardgame.options import CardGameOptions
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

ENGINE = CardGameEngine()
GAME = ENGINE.game_id
PRESENTER = CardGamePresenter()
TABLE = Picture(_pictures.TABLE, b"table", "The table.")
FIRST = 1
"""Who plays first in the seeded game (R-CG-4: random)."""
POINTS = {
    "en": {47: "for 47 points.", 31: "for 31 points.", 60: "for 60 points."},
    "ru": {47: "получает 47 очков.", 31: "получает 31 очко.", 60: "получает 60 очков."},
}
"""The first scoring's points as each language words them (Russian: three plural forms)."""


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures come back as their names' bytes: what a message says is tested here, not what is drawn."""
    for name in ("table", "hand", "first_scoring", "final_scoring", "scoring_detail"):

        async def drawn(*_: object, name: str = name) -> bytes:
            return name.encode()

        monkeypatch.setattr(_pictures, name, drawn)


def opening(players: int = 3) -> Played:
    """A game as dealt (seed 5: Ben plays first)."""
    return new_game(ENGINE, CardGameOptions(), players)


def kept(game: Played, seat: int) -> Played:
    """`seat` keeps every ticket offered."""
    return game.play(seat, KeepTickets(tickets=tuple(sorted(t.id for t in game.seat(seat).offered or []))))


def scored_once() -> Played:
    """A 4-player game played at random (deal 43, moves 9) just past its first scoring, where Cleo completed no
    ticket."""
    game = new_game(ENGINE, CardGameOptions(), 4, seed=43)
    for seat in range(4):
        kept(game, seat)
    return game.until(lambda view: view.first_scoring is not None, seed=9)


def started() -> Played:
    """Play has begun: everyone kept all their tickets, Ben to play."""
    game = opening()
    for seat in range(3):
        kept(game, seat)
    assert game.public.current == FIRST
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_opening_message_calls_the_people_still_choosing_and_offers_their_choice(language: str) -> None:
    game = kept(opening(), 0)
    message = PRESENTER.opening(language, record(GAME, 3, bots=frozenset({2})), game.public, TABLE)
    assert message.call == text(language, "cardgame_bot.opening.content", players=f"<@{user_id(1)}>")
    status = message.blocks[1].splitlines()
    assert status[:2] == [
        text(language, "cardgame_bot.opening.chosen", player="Ann"),
        text(language, "cardgame_bot.opening.waiting", player="Ben"),
    ]
    [choose] = controls(message.controls)
    assert (choose.custom_id, choose.label) == (cid(GAME, "hand"), text(language, "cardgame_bot.button.choose_tickets"))
    assert message.pictures == [TABLE] and layout_kinds(message)[:2] == [10, 12]
    assert russian(said(message)) is (language == "ru")


def test_once_everyone_chose_the_opening_message_says_so_and_has_no_button() -> None:
    message = PRESENTER.opening("en", record(GAME, 3), started().public, TABLE)
    assert message.call == "Everyone has chosen their tickets." and message.controls == []


def test_which_phase_the_spine_is_told_the_game_is_in() -> None:
    game = opening()
    assert PRESENTER.in_opening(game.public) and not PRESENTER.drawing_turn(game.public, FIRST)
    game = started()
    assert not PRESENTER.in_opening(game.public)
    assert PRESENTER.drawing_turn(game.public, FIRST) and not PRESENTER.drawing_turn(game.public, 0)
    assert not PRESENTER.turn_goes_on(game.public)
    game.play(FIRST, draw_action(None))
    assert PRESENTER.drawing_turn(game.public, FIRST) and PRESENTER.turn_goes_on(game.public)
    game = started().play(FIRST, DRAW_TICKETS)
    assert not PRESENTER.drawing_turn(game.public, FIRST) and PRESENTER.turn_goes_on(game.public)


def test_r_cg_5_each_turn_starts_with_an_event_that_is_not_the_movers_own() -> None:
    game = kept(kept(opening(), 0), 1)
    assert not PRESENTER.turn_begins(game.events)
    kept(game, 2)
    assert PRESENTER.turn_begins(game.events)
    own = [e.key for e in PRESENTER.own_move(game.events)]
    assert own == ["cardgame.event.kept_tickets", "cardgame.event.you_kept_tickets"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_message_names_the_player_and_has_a_button_for_each_draw(language: str) -> None:
    game = started()
    view = game.public
    message = PRESENTER.turn(language, record(GAME, 3), view, game.legal(FIRST), ["Ann drew."], [TABLE])
    assert message.call == text(language, "cardgame_bot.turn.your_turn", player=f"<@{user_id(1)}>")
    assert message.heading == "### " + text(language, "cardgame_turn.title", turn=1, player="Ben")
    assert message.footer == text(language, "cardgame_bot.footer.game", id=7), "no deck number below 4 players"
    found = controls(message.controls)
    faces = [c for c in found if ":take:" in c.custom_id]
    assert [c.custom_id for c in faces] == [cid(GAME, "take", f"{slot}:{c}") for slot, c in enumerate(view.face_up)]
    assert not any(c.disabled for c in found)
    deck = by_id(message.controls, cid(GAME, ACT, "draw:deck"))
    assert deck.label == text(language, "cardgame_bot.button.deck", count=view.deck_size)
    assert by_id(message.controls, cid(GAME, ACT, "tickets")).label == text(
        language, "cardgame_bot.button.tickets", count=view.ticket_deck_size
    )
    assert found[-1].custom_id == cid(GAME, "hand")
    assert russian(said(message)) is (language == "ru")


def test_r_cg_7_tickets_cannot_be_drawn_between_two_card_picks() -> None:
    game = started().play(FIRST, draw_action(None))
    message = PRESENTER.turn("en", record(GAME, 3), game.public, game.legal(FIRST), [], [])
    assert by_id(message.controls, cid(GAME, ACT, "tickets")).disabled
    assert not by_id(message.controls, cid(GAME, ACT, "draw:deck")).disabled
    assert message.call.startswith("<@102>, take your second card") and message.hint == ""


def test_r_cg_12_four_players_see_which_deck_is_in_play() -> None:
    game = opening(4)
    message = PRESENTER.opening("en", record(GAME, 4), game.public, TABLE)
    assert message.footer == "Game #7 · Deck 1 of 2"


@pytest.mark.parametrize(
    ("verb", "arg", "values", "move"),
    [
        ("take", "2:blue", [], DrawCard(kind=kind_of("blue"))),
        ("take", "2:mauve", [], None),
        ("take", "2", [], None),
        ("keep", "", ["43", "1"], KeepTickets(tickets=(1, 43))),
        ("keep", "", ["one"], None),
        (
            "three",
            "",
            ["red", "blue", "green"],
            ThreePicked(PlayThree(colors=(COLORS.index("red"), COLORS.index("green"), COLORS.index("blue")))),
        ),
        ("three", "", ["red", "blue", "mauve"], ThreePicked(None)),
        ("color", "", ["black"], ColourPicked("black")),
        ("size", "black", ["2"], SizePicked("black", 2)),
        ("size", "black", ["two"], SizePicked("black", None)),
        ("dance", "", [], Verb.UNKNOWN),
    ],
)
def test_a_click_is_read_into_a_move_a_menu_step_or_nothing(
    verb: str, arg: str, values: list[str], move: object
) -> None:
    assert PRESENTER.read(verb, arg, values) == move


@pytest.mark.parametrize("language", LANGUAGES)
def test_narration_words_each_public_event_and_leaves_the_turns_start_to_the_title(language: str) -> None:
    game = started()
    game.play(FIRST, draw_action(None))
    events = game.events
    game.play(FIRST, draw_action(None))
    events = [*events, *game.events]
    names = {0: "Ann", 1: "Ben", 2: "Cleo"}
    lines = PRESENTER.narrate(language, events, names, summary=False)
    shown = [e for e in events if e.public and e.key != "cardgame.event.turn_started"]
    assert len(lines) == len(shown) and lines, "one line per public event"
    assert "Ben" in lines[0]
    for event in events:
        assert not any(event.key in line for line in lines), f"{event.key} shown raw"
    assert all(russian(line) is (language == "ru") for line in lines)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_r_cg_3_my_hand_in_the_opening_is_the_ticket_choice_keeping_at_least_one(language: str) -> None:
    game = opening()
    view = game.seat(0)
    assert PRESENTER.needs_choice(view)
    reply = await PRESENTER.hand(language, record(GAME, 3), view)
    [menu] = controls(reply.items)
    assert menu.custom_id == cid(GAME, "keep") and (menu.min_values, menu.max_values) == (1, 6)
    assert sorted(menu.values) == sorted(str(t.id) for t in view.offered or [])
    [picture] = reply.pictures
    assert picture.name == _pictures.HAND and picture.alt
    assert reply.content == text(language, "cardgame_bot.tickets.choose_opening", offered=6)
    assert PRESENTER.read("keep", "", menu.values[:1]) in game.legal(0)


async def test_r_cg_10_tickets_drawn_mid_game_may_all_be_returned() -> None:
    game = started().play(FIRST, DRAW_TICKETS)
    reply = await PRESENTER.hand("en", record(GAME, 3), game.seat(FIRST))
    keep_none = by_id(reply.items, cid(GAME, ACT, KeepTickets(tickets=()).encode()))
    assert keep_none.label == "Keep none"
    assert KeepTickets(tickets=()) in game.legal(FIRST)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_my_hand_on_my_turn_offers_each_colour_and_narrows_to_a_play(language: str) -> None:
    game = started()
    view = game.seat(FIRST)
    game_record = record(GAME, 3)
    reply = await PRESENTER.hand(language, game_record, view)
    assert reply.content == text(language, "cardgame_bot.hand.your_turn")
    [menu] = controls(reply.items)
    plays = [a for a in game.legal(FIRST) if isinstance(a, PlayGroup)]
    assert menu.custom_id == cid(GAME, "color")
    assert menu.values == [*(KIND_NAMES[kind] for kind in sorted({p.color for p in plays})), THREE]
    colour = menu.values[0]
    narrowed = PRESENTER.narrowed(language, game_record, view, ColourPicked(colour))
    assert isinstance(narrowed, PrivateMessage)
    ways = controls(narrowed.items)[0]
    assert ways.custom_id == cid(GAME, ACT)
    assert sorted(ways.values) == sorted(p.encode() for p in plays if KIND_NAMES[p.color] == colour)
    assert by_id(narrowed.items, cid(GAME, "hand")).label == text(language, "cardgame_bot.button.back")
    three = PRESENTER.narrowed(language, game_record, view, ColourPicked(THREE))
    assert isinstance(three, PrivateMessage)
    [picks] = [c for c in controls(three.items) if c.custom_id == cid(GAME, "three")]
    assert picks.min_values == picks.max_values == 3
    step = PRESENTER.read("three", "", picks.values[:3])
    assert isinstance(step, ThreePicked)
    assert PRESENTER.narrowed(language, game_record, view, step) in game.legal(FIRST)


def test_a_pick_the_hand_no_longer_allows_is_not_possible() -> None:
    game = started()
    view = game.seat(FIRST)
    assert PRESENTER.narrowed("en", record(GAME, 3), view, SizePicked("black", None)) is None
    assert PRESENTER.narrowed("en", record(GAME, 3), game.seat(0), ColourPicked("black")) is None
    assert PRESENTER.not_possible == "cardgame_bot.reason.not_possible_now"


async def test_my_hand_while_another_plays_says_whose_turn_it_is_and_offers_nothing() -> None:
    reply = await PRESENTER.hand("en", record(GAME, 3), started().seat(0))
    assert reply.content == "It is Ben's turn." and reply.items == []


def test_the_table_is_drawn_again_only_after_a_play() -> None:
    game = started()
    before = PRESENTER.board_key(game.public)
    game.play(FIRST, draw_action(None)).play(FIRST, draw_action(None))
    assert PRESENTER.board_key(game.public) == before


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_final_message_names_the_winner_with_the_score_sheets(language: str) -> None:
    game = started().until(lambda view: view.final is not None)
    result = ENGINE.result(game.state)
    assert result is not None
    message = await PRESENTER.final(language, record(GAME, 3, status="finished"), game.public, [], result)
    winners = [("Ann", "Ben", "Cleo")[seat] for seat in result.winners]
    assert all(name in message.call for name in winners)
    assert [p.name for p in message.pictures] == [_pictures.SCORES, _pictures.TABLE, _pictures.DETAIL], (
        "the summary first, the final table, then the detail"
    )
    assert all(name in message.pictures[0].alt for name in ("Ann", "Ben", "Cleo"))
    assert message.pictures[1].alt.startswith(text(language, "cardgame_turn.alt.final_table", yards="")[:8])
    assert by_id(message.controls, str(rematch_id(7, 12))).label == text(language, "lobby_control.button.rematch")
    assert message.blocks[1].splitlines()[0].startswith(f"1. {winners[0]}")
    assert len(message.blocks) == 2 + 3, "each player's score line by line"
    assert russian(said(message)) is (language == "ru")


@pytest.mark.parametrize("language", LANGUAGES)
def test_r_cg_12_the_first_scoring_message_names_each_players_tickets_and_points(language: str) -> None:
    game = scored_once()
    view = game.public
    assert view.deck_number == 2 and view.phase == "turn", "play goes on with the second deck"
    names = {0: "Ann", 1: "Ben", 2: "Cleo", 3: "Dan"}
    scored = [e for e in game.events if e.key == FIRST_SCORED]
    lines = PRESENTER.narrate(language, scored, names, summary=True)
    picture = Picture(_pictures.FIRST_SCORING, b"first_scoring", text(language, "cardgame_turn.alt.first_scoring"))
    message = first_scoring_message(language, record(GAME, 4), lines, [picture])
    assert message.heading == "### " + text(language, "cardgame_bot.first_scoring.title")
    assert message.call == text(language, "cardgame_bot.first_scoring.content")
    assert message.pictures == [picture] and message.controls == []
    assert [s.points for s in view.first_scoring or []] == [47, 31, 0, 60]
    said_lines = message.blocks[1].splitlines()
    assert len(said_lines) == 4, "one line per player, in seat order"
    for line, scoring in zip(said_lines, view.first_scoring or [], strict=True):
        assert line.startswith("**") and names[scoring.seat] in line, "loud"
        assert all(ticket_words(language, t.ticket) in line for t in scoring.tickets), "each completed ticket named"
        if scoring.points:
            assert line.endswith(POINTS[language][scoring.points] + "**")
        else:
            assert line == "**" + text(language, "cardgame.event.first_scoring_none", player="Cleo") + "**"
    assert russian(said(message)) is (language == "ru")
    if language == "en":
        assert said_lines[1:3] == [
            "**First scoring: Ben completes New York – Sault St. Marie (6), Los Angeles – Houston (11), "
            "Los Angeles – Duluth (14) for 31 points.**",
            "**First scoring: Cleo completes no tickets.**",
        ]
