"""Ticket to Ride's presenter: a view of a seeded game in, the message parts out (texts, controls, pictures), in
both languages, without Discord and without the bot; the drawing is stubbed (one slow test draws the board)."""

from __future__ import annotations

import pytest

from bot.exts.ttr import _pictures
from bot.exts.ttr._map import city_name, fold, game_map, route_name, ticket_words
from bot.exts.ttr._presenter import CityPicked, Paying, TtrPresenter
from bot.exts.ttr._private import Target
from bot.i18n import text
from bot.ui.answers import PrivateMessage
from bot.ui.components import GameComponent
from bot.ui.custom_ids import ACT, rematch_id
from bot.ui.pictures import Picture
from bot.ui.table_presenter import Verb
from rules.ttr import TicketToRideEngine
from rules.ttr.actions import (
    DECK,
    BuildStation,
    Claim,
    DrawCard,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TtrAction,
    Withdraw,
)
from rules.ttr.options import FirstPlayer, MapChoice, TtrOptions
from tests.bot.ui.presenters.support import (
    LANGUAGES,
    Control,
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

ENGINE = TicketToRideEngine()
GAME = ENGINE.game_id
PRESENTER = TtrPresenter()
BOARD = Picture(_pictures.BOARD, b"board", "The board.")
DRAW_BOARD = _pictures.board


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures come back as their names' bytes: what a message says is tested here, not what is drawn."""
    for name in ("board", "hand", "ticket_choice", "score_sheet"):

        async def drawn(*_: object, name: str = name) -> bytes:
            return name.encode()

        monkeypatch.setattr(_pictures, name, drawn)


def opening() -> Played:
    """A 3-player USA game as dealt (seed 5: the market holds a locomotive when play begins), seat 0 first."""
    return new_game(ENGINE, TtrOptions(first_player=FirstPlayer.SEAT_ORDER), 3)


def kept(game: Played, seat: int) -> Played:
    """`seat` keeps every ticket offered."""
    return game.play(seat, KeepTickets(tickets=tuple(sorted(t.id for t in game.seat(seat).offered))))


def started() -> Played:
    """Play has begun: everyone kept all their tickets, seat 0 (Ann) to play."""
    game = opening()
    for seat in range(3):
        kept(game, seat)
    return game


def europe() -> Played:
    """A 3-player Europe game under way, Ann to play with 2 purple cards and 2 locomotives (seed 245: the deck then
    turns up a locomotive and two yellows, so her purple tunnel Marseille – Zürich costs 1 more card)."""
    game = new_game(ENGINE, TtrOptions(map=MapChoice.EUROPE, first_player=FirstPlayer.SEAT_ORDER), 3, seed=245)
    for seat in range(3):
        kept(game, seat)
    assert {colour: count for colour, count in game.seat(0).hand.items() if count} == {"purple": 2, "locomotive": 2}
    return game


def tunnel_track() -> int:
    """The purple tunnel Marseille – Zürich (2)."""
    [found] = [t for t in game_map("europe").tracks if {t.a, t.b} == {"marseille", "zurich"}]
    assert found.tunnel and found.color == "purple" and found.length == 2
    return found.id


def in_tunnel() -> Played:
    """Ann laid a purple card and a locomotive for Marseille – Zürich; 1 more card is due."""
    game = europe().play(0, Claim(track=tunnel_track(), color="purple", locomotives=1))
    assert game.public.tunnel is not None and game.public.tunnel.extra == 1
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_opening_message_calls_the_people_still_choosing_and_offers_their_choice(language: str) -> None:
    game = kept(opening(), 0)
    game_record = record(GAME, 3, bots=frozenset({2}))
    message = PRESENTER.opening(language, game_record, game.public, BOARD)
    assert f"<@{user_id(1)}>" in message.call, "Ben has not chosen"
    assert f"<@{user_id(0)}>" not in message.call, "Ann has"
    assert "Brunel" not in message.call, "a bot player is never called"
    status = message.blocks[1].splitlines()
    assert status[0] == text(language, "ttr_bot.opening.chosen", player="Ann")
    assert status[1] == text(language, "ttr_bot.opening.waiting", player="Ben")
    assert message.pictures == [BOARD]
    [choose] = controls(message.controls)
    assert choose.custom_id == cid(GAME, "hand")
    assert choose.label == text(language, "ttr_bot.button.choose_tickets")
    assert layout_kinds(message)[:2] == [10, 12], "the heading, then the board"
    assert russian(said(message)) is (language == "ru")
    if language == "en":
        assert message.heading == "### Ticket to Ride · USA: opening tickets"
        assert choose.label == "Choose my tickets"


def test_once_everyone_chose_the_opening_message_says_so_and_has_no_button() -> None:
    message = PRESENTER.opening("en", record(GAME, 3), started().public, BOARD)
    assert message.call == "" and message.controls == []
    assert message.blocks[0] == "Everyone has chosen their tickets."


def test_which_phase_the_spine_is_told_the_game_is_in() -> None:
    game = opening()
    assert PRESENTER.in_opening(game.public)
    assert not PRESENTER.drawing_turn(game.public, 0) and not PRESENTER.turn_goes_on(game.public)
    game = started()
    assert not PRESENTER.in_opening(game.public)
    assert PRESENTER.drawing_turn(game.public, 0) and not PRESENTER.drawing_turn(game.public, 1)
    assert not PRESENTER.turn_goes_on(game.public)
    game.play(0, DrawCard(source=DECK))
    assert PRESENTER.drawing_turn(game.public, 0), "the second pick is on the same buttons"
    assert PRESENTER.turn_goes_on(game.public)
    game = started().play(0, DrawTickets())
    assert not PRESENTER.drawing_turn(game.public, 0), "tickets are chosen privately"
    assert PRESENTER.turn_goes_on(game.public)


def test_the_last_opening_choice_begins_the_turns() -> None:
    game = kept(kept(opening(), 0), 1)
    assert not PRESENTER.turn_begins(game.events)
    assert PRESENTER.turn_begins(kept(game, 2).events)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_message_names_the_player_and_has_a_button_for_each_draw(language: str) -> None:
    game = started()
    game_record = record(GAME, 3)
    view = game.public
    message = PRESENTER.turn(language, game_record, view, game.legal(0), ["Ben drew."], [BOARD])
    assert message.call == text(language, "ttr_bot.turn.your_turn", player=f"<@{user_id(0)}>")
    assert "Ann" in message.heading and message.blocks == ["Ben drew."]
    assert message.hint == text(language, "ttr_bot.turn.hint")
    assert message.status[1].splitlines()[0].startswith("▶ "), "Ann, first in turn order, plays"
    found = controls(message.controls)
    faces = [c for c in found if c.custom_id.startswith(cid(GAME, "take"))]
    assert [c.custom_id for c in faces] == [cid(GAME, "take", f"{slot}:{c}") for slot, c in enumerate(view.market)]
    assert not any(c.disabled for c in faces)
    deck = by_id(message.controls, cid(GAME, ACT, "draw:deck"))
    assert deck.label == text(language, "ttr_bot.button.deck", count=view.deck_size) and not deck.disabled
    assert not by_id(message.controls, cid(GAME, ACT, "tickets")).disabled
    assert by_id(message.controls, cid(GAME, "hand")).label == text(language, "ttr_bot.button.hand")
    assert layout_kinds(message).count(1) == 2, "face-up cards in one row, the deck, tickets and hand in the next"
    assert russian(said(message)) is (language == "ru")
    if language == "en":
        assert deck.label == f"Deck ({view.deck_size})"


def test_r_t2_a_face_up_locomotive_cannot_be_the_second_card_nor_tickets_drawn_between() -> None:
    game = started().play(0, DrawCard(source=DECK))
    view = game.public
    assert "locomotive" in view.market
    message = PRESENTER.turn("en", record(GAME, 3), view, game.legal(0), [], [])
    faces = {c.label: c.disabled for c in controls(message.controls) if ":take:" in c.custom_id}
    assert faces["Locomotive"] is True
    assert not any(disabled for label, disabled in faces.items() if label != "Locomotive")
    assert by_id(message.controls, cid(GAME, ACT, "tickets")).disabled
    assert not by_id(message.controls, cid(GAME, ACT, "draw:deck")).disabled
    assert message.call.startswith(f"<@{user_id(0)}>, take your second card") and message.hint == ""
    assert 12 not in layout_kinds(message), "no new picture: no gallery"


@pytest.mark.parametrize(
    ("verb", "arg", "values", "move"),
    [
        ("take", "3:locomotive", [], DrawCard(source="locomotive")),
        ("keep", "", ["16", "1"], KeepTickets(tickets=(1, 16))),
        ("keep", "", ["1", "x"], None),
        ("city", "0", ["denver"], CityPicked("denver")),
        ("route", "", ["57"], Paying(Target.claim(57))),
        ("station", "1", ["berlin"], Paying(Target.station("berlin"))),
        ("paycolor", "claim:57", ["red"], Paying(Target.claim(57), colour="red")),
        ("paycolor", "57", ["red"], None),
        ("dance", "", [], Verb.UNKNOWN),
    ],
)
def test_a_click_is_read_into_a_move_a_menu_step_or_nothing(
    verb: str, arg: str, values: list[str], move: object
) -> None:
    assert PRESENTER.read(verb, arg, values) == move


@pytest.mark.parametrize("language", LANGUAGES)
def test_narration_words_each_public_event_once_and_the_summary_leaves_out_the_picks(language: str) -> None:
    game = started()
    names = {0: "Ann", 1: "Ben", 2: "Cleo"}
    game.play(0, DrawCard(source=DECK))
    first = game.events
    game.play(0, DrawCard(source=DECK))
    events = [*first, *game.events]
    told = PRESENTER.narrate(language, events, names, summary=False)
    summed = PRESENTER.narrate(language, events, names, summary=True)
    public = [e for e in events if e.public]
    assert len(told) == len(public) and len(summed) < len(told)
    assert all("Ann" in line for line in told)
    for event in events:
        assert not any(event.key in line for line in told), f"{event.key} shown raw"
    assert all(russian(line) is (language == "ru") for line in told)
    if language == "en":
        assert summed == ["Ann takes 2 cards from the deck."]


def test_r_v3_narration_makes_the_start_of_play_loud_and_never_says_which_tickets_were_kept() -> None:
    game = kept(kept(opening(), 0), 1)
    kept(game, 2)
    lines = PRESENTER.narrate("en", game.events, {0: "Ann", 1: "Ben", 2: "Cleo"}, summary=False)
    assert lines == ["Cleo keeps 3 tickets.", "**Everyone has chosen. Ann plays first.**"]
    told = "\n".join(lines)
    for ticket in game.seat(2).tickets:
        assert ticket_words("en", "usa", ticket.id).split(" (")[0] not in told


@pytest.mark.parametrize("language", LANGUAGES)
async def test_r_usa_2_my_hand_in_the_opening_is_the_ticket_choice_keeping_at_least_two(language: str) -> None:
    game = opening()
    view = game.seat(1)
    assert PRESENTER.needs_choice(view)
    reply = await PRESENTER.hand(language, record(GAME, 3), view)
    assert isinstance(reply, PrivateMessage)
    [menu] = controls(reply.items)
    assert menu.custom_id == cid(GAME, "keep")
    assert sorted(menu.values) == sorted(str(t.id) for t in view.offered)
    assert (menu.min_values, menu.max_values) == (2, 3)
    [picture] = reply.pictures
    assert picture.name == _pictures.TICKETS and picture.data == b"ticket_choice"
    assert all(option.label in picture.alt for option in menu.options), "the alt text names the tickets"
    assert russian(reply.content) is (language == "ru")
    assert PRESENTER.read("keep", "", menu.values[:2]) in game.legal(1)


async def test_r_t7_tickets_drawn_mid_game_keep_at_least_one_and_are_owed() -> None:
    game = started().play(0, DrawTickets())
    view = game.seat(0)
    assert PRESENTER.needs_choice(view) and not PRESENTER.needs_choice(game.seat(1))
    reply = await PRESENTER.hand("en", record(GAME, 3), view, ["You drew 3 tickets."])
    [menu] = controls(reply.items)
    assert menu.min_values == 1 and len(menu.options) == 3
    assert reply.content.startswith("You drew 3 tickets.\n")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_my_hand_on_my_turn_offers_the_routes_i_can_claim_and_narrows_to_a_payment(language: str) -> None:
    game = started()
    view = game.seat(0)
    assert not PRESENTER.needs_choice(view)
    game_record = record(GAME, 3)
    reply = await PRESENTER.hand(language, game_record, view)
    assert [p.name for p in reply.pictures] == [_pictures.HAND]
    assert reply.content == text(language, "ttr_bot.hand.your_turn")
    menus = controls(reply.items)
    claimable = {str(a.track) for a in game.legal(0) if isinstance(a, Claim)}
    assert menus[0].custom_id in (cid(GAME, "route"), cid(GAME, "city", "0"))
    if menus[0].custom_id == cid(GAME, "city", "0"):
        step = PRESENTER.read("city", "0", [menus[0].values[0]])
        assert isinstance(step, CityPicked)
        narrowed = PRESENTER.narrowed(language, game_record, view, step)
        assert isinstance(narrowed, PrivateMessage)
        menus = controls(narrowed.items)
    assert set(menus[0].values) <= claimable
    track = menus[0].values[0]
    paying = PRESENTER.narrowed(language, game_record, view, Paying(Target.claim(track)))
    ways = [a for a in game.legal(0) if isinstance(a, Claim) and str(a.track) == track]
    if isinstance(paying, PrivateMessage):
        pay = controls(paying.items)[0]
        assert pay.custom_id == cid(GAME, ACT) and len(pay.options) == len(ways)
        assert by_id(paying.items, cid(GAME, "hand")).label == text(language, "ttr_bot.button.back")
    else:
        assert [paying] == ways


async def test_my_hand_while_another_plays_says_whose_turn_it_is_and_offers_nothing() -> None:
    reply = await PRESENTER.hand("en", record(GAME, 3), started().seat(1))
    assert reply.content == "It is Ann's turn." and reply.items == []


def test_a_payment_for_a_route_nobody_may_claim_is_not_possible() -> None:
    game = started()
    assert PRESENTER.narrowed("en", record(GAME, 3), game.seat(1), Paying(Target.claim(57))) is None
    assert PRESENTER.not_possible == "ttr_bot.reason.not_possible_now"


def test_the_board_is_drawn_again_only_after_a_claim() -> None:
    game = started()
    before = PRESENTER.board_key(game.public)
    game.play(0, DrawCard(source=DECK)).play(0, DrawCard(source=DECK))
    assert PRESENTER.board_key(game.public) == before
    claim = next(a for a in game.legal(1) if isinstance(a, Claim))
    game.play(1, claim)
    assert PRESENTER.board_key(game.public) != before


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_final_message_names_the_winner_with_the_summary_the_board_and_the_score_sheet(language: str) -> None:
    game = started().until(lambda view: view.result is not None)
    game_record = record(GAME, 3, status="finished")
    result = ENGINE.result(game.state)
    assert result is not None
    message = await PRESENTER.final(language, game_record, game.public, ["Cleo claimed a route."], result)
    winners = [("Ann", "Ben", "Cleo")[seat] for seat in result.winners]
    assert all(name in message.call for name in winners)
    assert [p.name for p in message.pictures] == [_pictures.SCORES, _pictures.BOARD, _pictures.DETAIL], (
        "the summary first, the final board, then the score sheet"
    )
    assert all(p.alt for p in message.pictures)
    assert all(name in message.pictures[0].alt for name in ("Ann", "Ben", "Cleo"))
    for player in result.players:  # the board's alt text gives the totals its panel shows
        name = ("Ann", "Ben", "Cleo")[player.seat]
        assert text(language, "ttr_turn.alt.score", player=name, points=player.total) in message.pictures[1].alt
    [rematch] = controls(message.controls)
    assert rematch.custom_id == str(rematch_id(7, 12))
    assert rematch.label == text(language, "lobby_control.button.rematch")
    ranking = message.blocks[1].splitlines()
    assert ranking[0].startswith(f"1. {winners[0]}") and "🏆" in ranking[0]
    assert len(message.blocks) == 2 + 3, "each player's tickets and longest route"
    assert russian(said(message)) is (language == "ru")


@pytest.mark.slow
async def test_the_board_is_drawn_as_a_png_with_its_alt_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_pictures, "board", DRAW_BOARD)
    picture = await PRESENTER.draw("en", record(GAME, 3), started().public)
    assert picture.name == "board.png" and picture.data.startswith(b"\x89PNG")
    assert picture.alt.startswith("Ticket to Ride · USA") and "Ann to play" in picture.alt


@pytest.mark.parametrize("language", LANGUAGES)
async def test_r_eu_6_a_tunnel_that_turned_up_cards_asks_its_claimer_alone_to_pay_each_way_or_give_it_up(
    language: str,
) -> None:
    game = in_tunnel()
    view = game.seat(0)
    game_record = record(GAME, 3)
    assert PRESENTER.needs_choice(view) and not PRESENTER.needs_choice(game.seat(1))
    reply = await PRESENTER.hand(language, game_record, view)
    assert route_name(language, "europe", tunnel_track()) in reply.content
    assert all(text(language, f"ttr.color.{c}") in reply.content for c in ("locomotive", "yellow"))
    found = controls(reply.items)
    ways = [PayTunnel(locomotives=0), PayTunnel(locomotives=1), Withdraw()]
    assert [c.custom_id for c in found] == [cid(GAME, ACT, way.encode()) for way in ways]
    assert set(game.legal(0)) == set(ways), "a button for each legal move, nothing else"
    assert found[2].label == text(language, "ttr_bot.tunnel.withdraw")
    assert [p.name for p in reply.pictures] == [_pictures.HAND]
    assert russian(reply.content) is (language == "ru")
    assert all(russian(c.label) is (language == "ru") for c in found)
    if language == "en":
        assert reply.content == (
            "Tunnel Marseille – Zürich (2): the three cards turned up were locomotive, yellow, yellow. "
            "It costs 1 more card. Pay, or give it up (your cards come back)."
        )
        assert [c.label for c in found] == ["Pay 1 × purple", "Pay 1 × locomotive", "Give up the tunnel"]
    waiting = await PRESENTER.hand(language, game_record, game.seat(1))
    assert waiting.content == text(language, "ttr_bot.hand.waiting", player="Ann") and waiting.items == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_r_v1_while_a_tunnel_waits_everyone_is_told_the_cards_turned_up_and_no_draw_is_offered(language: str) -> None:
    before = PRESENTER.board_key(europe().public)
    game = in_tunnel()
    view = game.public
    assert PRESENTER.turn_goes_on(view) and not PRESENTER.drawing_turn(view, 0)
    assert PRESENTER.board_key(view) != before, "the board shows the tunnel being tried"
    lines = PRESENTER.narrate(language, game.events, {0: "Ann", 1: "Ben", 2: "Cleo"}, summary=False)
    [line] = lines
    assert "Ann" in line and route_name(language, "europe", tunnel_track()) in line
    assert russian(line) is (language == "ru")
    message = PRESENTER.turn(language, record(GAME, 3), view, game.legal(0), lines, [])
    assert message.call == text(language, "ttr_bot.turn.tunnel", player=f"<@{user_id(0)}>") and message.hint == ""
    assert [c.custom_id for c in controls(message.controls) if not c.disabled] == [cid(GAME, "hand")]
    if language == "en":
        assert line == (
            "Ann tries the tunnel Marseille – Zürich (2): revealed locomotive, yellow, yellow; 1 more card needed."
        )


@pytest.mark.parametrize(
    ("move", "told"),
    [
        (PayTunnel(locomotives=1), "Ann claims Marseille – Zürich (2) with 1 × purple + 2 × locomotive: +2 points."),
        (Withdraw(), "Ann gives up the tunnel Marseille – Zürich (2) and takes the cards back."),
    ],
)
async def test_r_eu_6_paying_or_giving_the_tunnel_up_ends_the_choice_and_is_told(move: TtrAction, told: str) -> None:
    game = in_tunnel().play(0, move)
    assert not PRESENTER.needs_choice(game.seat(0)) and game.public.current == 1
    lines = PRESENTER.narrate("en", game.events, {0: "Ann", 1: "Ben", 2: "Cleo"}, summary=True)
    assert lines == [told]
    reply = await PRESENTER.hand("en", record(GAME, 3), game.seat(0))
    assert reply.content == "It is Ben's turn." and reply.items == []


def stations_offered(items: list[GameComponent]) -> list[Control]:
    """The station menus among a hand's controls."""
    return [c for c in controls(items) if c.custom_id.startswith(cid(GAME, "station"))]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_r_eu_4_my_hand_in_europe_offers_a_station_on_every_city_in_menus_of_at_most_25(language: str) -> None:
    game = europe()
    reply = await PRESENTER.hand(language, record(GAME, 3), game.seat(0))
    menus = stations_offered(reply.items)
    assert [m.custom_id for m in menus] == [cid(GAME, "station", "0"), cid(GAME, "station", "1")]
    assert all(len(m.options) <= 25 for m in menus)
    cities = [value for m in menus for value in m.values]
    assert sorted(cities) == sorted(c.id for c in game_map("europe").cities), "each city once, none built yet"
    assert {a.city for a in game.legal(0) if isinstance(a, BuildStation)} == set(cities)
    labels = [option.label for m in menus for option in m.options]
    assert labels == [city_name(language, city) for city in cities]
    assert labels == sorted(labels, key=fold), "alphabetical in the reader's language"
    for menu in menus:
        first, last = menu.options[0].label, menu.options[-1].label
        assert menu.label == text(language, "ttr_bot.station.placeholder", first=first, last=last)
        assert russian(menu.label) is (language == "ru")
    if language == "en":
        assert menus[0].label == "Build a station (Amsterdam – Madrid)…"


@pytest.mark.parametrize("language", LANGUAGES)
def test_r_eu_4_a_station_city_picked_narrows_to_each_card_the_first_station_may_cost(language: str) -> None:
    game = europe()
    game_record = record(GAME, 3)
    step = PRESENTER.read("station", "1", ["zurich"])
    assert step == Paying(Target.station("zurich"))
    paying = PRESENTER.narrowed(language, game_record, game.seat(0), step)
    assert isinstance(paying, PrivateMessage)
    subject = text(language, "ttr_bot.station.subject", city=city_name(language, "zurich"))
    assert paying.content == text(language, "ttr_bot.pay.which_cards", subject=subject)
    pay, back = controls(paying.items)
    assert pay.custom_id == cid(GAME, ACT)
    ways = [a for a in game.legal(0) if isinstance(a, BuildStation) and a.city == "zurich"]
    assert sorted(pay.values) == sorted(a.encode() for a in ways) and len(ways) == 2
    assert (back.custom_id, back.label) == (cid(GAME, "hand"), text(language, "ttr_bot.button.back"))
    assert russian(paying.content) is (language == "ru")
    if language == "en":
        assert paying.content == "How do you pay for a station in Zürich?"
        assert [o.label for o in pay.options] == ["1 × purple", "1 × locomotive"]
    assert PRESENTER.narrowed(language, game_record, game.seat(1), step) is None, "not Ben's turn"


async def test_r_eu_4_the_second_station_costs_two_cards_and_a_city_with_a_station_is_offered_no_more() -> None:
    game = europe().play(0, BuildStation(city="zurich", color="purple", locomotives=0))
    for seat in (1, 2):
        game.play(seat, DrawCard(source=DECK)).play(seat, DrawCard(source=DECK))
    view = game.seat(0)
    assert {colour: count for colour, count in view.hand.items() if count} == {"purple": 1, "locomotive": 2}
    game_record = record(GAME, 3)
    reply = await PRESENTER.hand("en", game_record, view)
    cities = {value for menu in stations_offered(reply.items) for value in menu.values}
    assert "zurich" not in cities and len(cities) == len(game_map("europe").cities) - 1
    paying = PRESENTER.narrowed("en", game_record, view, Paying(Target.station("berlin")))
    assert isinstance(paying, PrivateMessage)
    assert [o.label for o in controls(paying.items)[0].options] == ["1 × purple + 1 × locomotive", "2 × locomotive"]
