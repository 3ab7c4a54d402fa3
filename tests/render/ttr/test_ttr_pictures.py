"""The pictures: every track and city visible where the layout says, owners' colours, determinism, sizes, words."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from render.ttr import (
    board_image,
    hand_image,
    render_board,
    render_hand,
    render_score_sheet,
    render_ticket_choice,
    score_sheet_image,
    summary_image,
    ticket_choice_image,
)
from render.ttr.geometry import Car
from render.ttr.layout import map_layout
from render.ttr.mapart import art_words, map_art
from render.ttr.palette import CITY_FILL, DARK_INK, HIGHLIGHT, PLAYER_COLORS, RGB, free_fill
from render.ttr.sprites import band_reach
from render.ttr.text import city_names, picture_text, text_for
from rules.ttr.board import CARD_NAMES
from rules.ttr.maps import MAP_IDS, load_map
from rules.ttr.state import TtrState
from rules.ttr.view import LastMoveView, PublicView, SeatView
from tests.render.ttr.conftest import ENGINE, NAMES, clear_of_names, picture_words, play, seat_view
from tests.render.ttr.cvd import worst_pair

EN = picture_words("en")


def near(pixel: object, colour: RGB, tolerance: int = 40) -> bool:
    """Whether an RGB pixel is within `tolerance` of `colour` on every channel."""
    assert isinstance(pixel, tuple)
    return max(abs(x - y) for x, y in zip(pixel[:3], colour, strict=True)) <= tolerance


def off_centre(car: Car, share: float) -> tuple[int, int]:
    """A point on a car's long axis, away from the symbol drawn at its centre."""
    return (
        round(car.center[0] + math.cos(car.angle) * car.length * share),
        round(car.center[1] + math.sin(car.angle) * car.length * share),
    )


def shows(image: Image.Image, car: Car, colours: list[RGB]) -> bool:
    """Whether either end of the car shows one of these colours (a city name may cover the other end, the owner's
    number the middle)."""
    return any(near(image.getpixel(off_centre(car, s)), c) for s in (-0.38, 0.38) for c in colours)


def empty_view(map_id: str) -> PublicView:
    return ENGINE.view(play(map_id, 5, 1, moves=0), None)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_track_and_city_of_an_empty_board_shows_its_colour(map_id: str) -> None:
    image = board_image(empty_view(map_id), EN, NAMES)
    layout, game_map = map_layout(map_id), load_map(map_id)
    wrong = []
    for track in game_map.tracks:
        for i, car in enumerate(layout.tracks[track.id].cars):
            expected = [DARK_INK] if i < track.ferry_locomotives else [free_fill(track.color)]
            if not shows(image, car, expected):
                wrong.append((track.id, i))
    assert wrong == []
    for city in game_map.cities:
        x, y = layout.cities[city.id]
        assert near(image.getpixel((round(x), round(y))), CITY_FILL), city.id


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_claimed_tracks_show_their_owners_colour(map_id: str) -> None:
    game_map = load_map(map_id)
    owners = {t.id: k % 5 for k, t in enumerate(game_map.tracks)}
    view = empty_view(map_id).model_copy(update={"owners": owners})
    image = board_image(view, EN, NAMES)
    layout = map_layout(map_id)
    cars = [(track_id, seat, car) for track_id, seat in owners.items() for car in layout.tracks[track_id].cars]
    # a name lies over the bands, so it reads over them: the few cars whose both ends it covers are left out
    seen = [c for c in cars if any(clear_of_names(map_id, off_centre(c[2], s), 0) for s in (-0.38, 0.38))]
    assert len(seen) >= 0.97 * len(cars)
    assert [track_id for track_id, seat, car in seen if not shows(image, car, [PLAYER_COLORS[seat]])] == []


def test_the_last_claim_is_ringed_and_stations_stand_at_their_spot() -> None:
    view = empty_view("europe")
    claim = LastMoveView(seat=1, kind="claim", track=5, points=2)
    ringed = view.model_copy(update={"owners": {5: 1}, "last_move": claim, "stations": {"wien": 3}})
    image, plain = board_image(ringed, EN, NAMES), board_image(view, EN, NAMES)
    car = map_layout("europe").tracks[5].cars[0]
    reach = band_reach("europe", 5) + 4
    just_outside = (
        round(car.center[0] - math.sin(car.angle) * reach),
        round(car.center[1] + math.cos(car.angle) * reach),
    )
    assert near(image.getpixel(just_outside), HIGHLIGHT, 30)
    assert not near(plain.getpixel(just_outside), HIGHLIGHT, 30)
    spot = map_art("europe", art_words(EN, "europe")).spots["wien"].station
    x, y = round(spot[0]), round(spot[1] + 4)
    assert near(image.getpixel((x - 4, y)), PLAYER_COLORS[3]) or near(image.getpixel((x + 4, y)), PLAYER_COLORS[3])


def test_the_same_view_gives_the_same_bytes(usa_end: TtrState) -> None:
    view = ENGINE.view(usa_end, None)
    assert render_board(view, EN, NAMES) == render_board(view, EN, NAMES)
    seat = seat_view(usa_end, 2)
    assert render_hand(seat, EN, NAMES) == render_hand(seat, EN, NAMES)
    assert render_score_sheet(view, EN, NAMES) == render_score_sheet(view, EN, NAMES)


@pytest.mark.parametrize("fixture", ["usa_end", "europe_end"])
def test_end_game_pictures_are_wide_sharp_and_small(fixture: str, request: pytest.FixtureRequest) -> None:
    state: TtrState = request.getfixturevalue(fixture)
    board = render_board(ENGINE.view(state, None), EN, NAMES)
    image = Image.open(io.BytesIO(board))
    assert image.format == "PNG" and image.mode == "P" and image.width >= 1600
    assert len(board) < 1.5 * 1024 * 1024
    for data in (
        render_hand(seat_view(state, 0), EN, NAMES),
        render_score_sheet(ENGINE.view(state, None), EN, NAMES),
    ):
        assert len(data) < 1024 * 1024


def test_the_final_pictures_list_every_player_and_need_the_end(usa_end: TtrState, usa_opening: TtrState) -> None:
    words: list[str] = []

    def label(key: str, **params: object) -> str:
        words.append(key)
        return EN.get(key, key)

    for image in (score_sheet_image, summary_image):
        five = image(ENGINE.view(usa_end, None), label, {i: f"P{i}" for i in range(5)})
        two = image(ENGINE.view(play("usa", 2, 3), None), label, NAMES)
        assert five.width == two.width == 900 and five.height > two.height
        with pytest.raises(ValueError):
            image(ENGINE.view(usa_opening, None), EN, NAMES)
    assert {"ttr_picture.score.routes", "ttr_picture.score.tickets", "ttr_picture.score.longest"} <= set(words)


def test_the_ticket_choice_shows_one_card_per_offered_ticket(usa_opening: TtrState) -> None:
    view = seat_view(usa_opening, 0)
    assert isinstance(view, SeatView) and len(view.offered) == 3
    three = ticket_choice_image(view, EN)
    two = ticket_choice_image(view.model_copy(update={"offered": view.offered[:2]}), EN)
    assert three.width == two.width and three.height > two.height


def test_the_hand_grows_with_its_tickets(europe_middle: TtrState) -> None:
    view = seat_view(europe_middle, europe_middle.current)
    assert isinstance(view, SeatView)
    more = view.model_copy(update={"tickets": view.tickets * 8})
    assert hand_image(more, EN, NAMES).height > hand_image(view, EN, NAMES).height


def test_every_word_the_pictures_ask_for_exists_in_english_and_russian(
    usa_end: TtrState, europe_middle: TtrState, usa_opening: TtrState
) -> None:
    asked: set[str] = set()

    def label(key: str, **params: object) -> str:
        asked.add(key)
        return key

    for state in (usa_end, europe_middle, usa_opening):
        public = ENGINE.view(state, None)
        render_board(public, label, NAMES)
        seat = seat_view(state, 0)
        render_hand(seat, label, NAMES)
        render_ticket_choice(seat, label)
    render_score_sheet(ENGINE.view(usa_end, None), label, NAMES)
    ours = {k for k in asked if k.startswith("ttr_picture.")}
    assert len(ours) > 20
    assert sorted(ours - set(EN)) == []
    assert sorted(ours - set(picture_words("ru"))) == []
    cities = {f"ttr.city.{c.id}" for m in MAP_IDS for c in load_map(m).cities}
    colours = {f"ttr.color.{name}" for name in CARD_NAMES}
    assert {k for k in asked if not k.startswith("ttr_picture.")} <= cities | colours


def test_words_fall_back_to_keys_and_city_names_to_the_printed_map() -> None:
    assert text_for({}, "ttr_picture.map.usa") == "ttr_picture.map.usa"
    assert text_for(lambda k: {"a": "b"}[k], "missing") == "missing"
    assert (
        picture_text({"ttr_picture.status.to_play": "Ходит {player}"}, "status.to_play", player="Катя") == "Ходит Катя"
    )
    names = city_names({"ttr.city.moskva": "Москва"}, load_map("europe"))
    assert names["moskva"] == "Москва" and names["wien"] == "Wien"


def test_player_colours_stay_apart_for_every_common_colour_blindness() -> None:
    distance, kind = worst_pair(list(PLAYER_COLORS))
    assert distance >= 25, kind
