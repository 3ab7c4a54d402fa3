"""The private pictures (hand, ticket choice) and the score sheet, made for a phone: shapes, maps, words."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest
from PIL import Image

from bot.i18n import text
from render.ttr.hand import hand_image, hand_map
from render.ttr.minimap import SS, Dot, MiniMap, place_names
from render.ttr.palette import CARD_FILL, LIGHT_INK, RGB, player_color
from render.ttr.score_sheet import summary_image
from render.ttr.text import city_names
from render.ttr.tickets import BAND, LONG_BAND, keep_at_least, ticket_choice_image, ticket_map
from rules.ttr.maps import load_map
from rules.ttr.reach import claimable_tracks
from rules.ttr.state import Phase, TtrState
from tests.render.ttr.conftest import ENGINE, NAMES, play, seat_view

EN = functools.partial(text, "en")
RU = functools.partial(text, "ru")
PHONE = 450


def near(pixel: object, colour: RGB, tolerance: int = 36) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(int(p) - c) <= tolerance for p, c in zip(pixel[:3], colour, strict=True))


def asking(into: dict[str, dict[str, object]]) -> Callable[..., str]:
    """Words that remember every key asked with its parameters (the English text is returned)."""

    def label(key: str, **params: object) -> str:
        into[key] = params
        return EN(key, **params)

    return label


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def drawing_tickets(map_id: str, seed: int) -> TtrState:
    """A seeded game stopped at a mid-game ticket draw."""
    state = ENGINE.new_game(ENGINE.load_options({"map": map_id}), 3, seed)
    rng = random.Random(seed)
    while state.phase is not Phase.TICKETS or state.offers[state.current] == ():
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            if state.phase is Phase.TURN and rng.random() < 0.15 and state.ticket_deck:
                action = ENGINE.parse_action("tickets")
            state, _ = ENGINE.apply(state, seat, action)
    return state


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_the_ticket_choice_stacks_one_ticket_per_row_and_is_not_taller_than_wide(map_id: str) -> None:
    view = seat_view(play(map_id, 3, 2, moves=0), 0)
    assert len(view.offered) >= 3
    every = ticket_choice_image(view, EN)
    fewer = ticket_choice_image(view.model_copy(update={"offered": view.offered[:2]}), EN)
    assert every.height <= every.width == 2 * PHONE
    assert fewer.width == every.width and fewer.height < every.height


@pytest.mark.parametrize(("map_id", "seats"), [("usa", 5), ("europe", 5)])
@pytest.mark.parametrize("labels", [EN, RU], ids=["en", "ru"])
def test_no_city_name_covers_the_end_dot_of_an_offered_ticket(
    map_id: str, seats: int, labels: Callable[..., str]
) -> None:
    cities = city_names(labels, load_map(map_id))
    checked = 0
    for seed in range(6):
        opening = ENGINE.new_game(ENGINE.load_options({"map": map_id}), seats, seed)
        for seat in range(seats):
            view = seat_view(opening, seat)
            for ticket in view.offered:
                mini = ticket_map(view, ticket, cities)
                picture = mini.finish()
                ends = [d for d in mini.placed.dots if d.city in (ticket.a, ticket.b)]
                assert {d.city for d in ends} == {ticket.a, ticket.b}
                assert set(mini.placed.names) == {ticket.a, ticket.b}
                for dot in ends:
                    assert dot.x - dot.r >= 0 and dot.x + dot.r <= picture.width
                    assert dot.y - dot.r >= 0 and dot.y + dot.r <= picture.height
                    for city, box in mini.placed.names.items():
                        assert not overlaps(box, dot.box()), (ticket, city)
                    centre = picture.getpixel((round(dot.x), round(dot.y)))
                    assert near(centre, LONG_BAND if ticket.long else BAND), (ticket, dot, centre)
                checked += 1
    assert checked >= 90


def test_a_name_at_the_corner_slides_along_but_never_over_its_dot() -> None:
    dot = Dot("vancouver", 12.0, 10.0, 6.0)
    boxes = place_names({"vancouver": (12.0, 10.0)}, {"vancouver": (0, 0, 180, 20)}, [dot], (300, 200), gap=8)
    box = boxes["vancouver"]
    assert box[0] >= 0 and box[1] >= 0 and box[2] <= 300 and box[3] <= 200
    assert not overlaps(box, dot.box())


def test_the_ticket_choice_asks_the_rules_how_many_to_keep() -> None:
    opening = seat_view(play("usa", 3, 2, moves=0), 0)
    asked: dict[str, dict[str, object]] = {}
    ticket_choice_image(opening, asking(asked))
    assert asked["ttr_picture.choice.keep"] == {"count": 2, "offered": 3}
    europe = seat_view(play("europe", 3, 2, moves=0), 1)
    assert keep_at_least(europe) == 2 and len(europe.offered) == 4
    drawing = drawing_tickets("usa", 8)
    view = seat_view(drawing, drawing.current)
    asked.clear()
    ticket_choice_image(view, asking(asked))
    assert asked["ttr_picture.choice.keep"] == {"count": 1, "offered": len(view.offered)}
    done = sum(t.completed for t in view.tickets)
    assert asked["ttr_picture.choice.your_tickets"] == {"done": done, "count": len(view.tickets)}
    assert asked["ttr_picture.choice.your_cards"] == {"count": sum(view.hand.values())}


def test_private_pictures_name_cities_in_the_readers_language() -> None:
    view = seat_view(play("usa", 3, 2, moves=0), 0)
    cities = city_names(RU, load_map("usa"))
    for ticket in view.offered:
        mini = ticket_map(view, ticket, cities)
        assert mini.names == {ticket.a: RU(f"ttr.city.{ticket.a}"), ticket.b: RU(f"ttr.city.{ticket.b}")}
        assert all(not name.isascii() for name in mini.names.values())
    assert cities["vancouver"] == "Ванкувер"


def _pixel(mini: MiniMap, picture: Image.Image, point: tuple[float, float]) -> object:
    x, y = mini.at(point)
    return picture.getpixel((round(x / SS), round(y / SS)))


def _middle_car(mini: MiniMap, track: int) -> tuple[float, float]:
    cars = mini.layout.tracks[track].cars
    return cars[len(cars) // 2].center


def test_the_hand_map_shows_others_thin_own_bold_and_what_the_cards_can_claim(europe_middle: TtrState) -> None:
    view = seat_view(europe_middle, europe_middle.current).model_copy(update={"tickets": []})
    reach = claimable_tracks(view)
    assert reach
    mini = hand_map(view, city_names(EN, load_map("europe")))
    picture = mini.finish()
    colors = {t.id: t.color for t in load_map("europe").tracks}
    for track in sorted(reach)[:8]:
        assert near(_pixel(mini, picture, _middle_car(mini, track)), CARD_FILL[colors[track]], 50), track
    mine = [t for t, s in view.owners.items() if s == view.seat]
    theirs = [t for t, s in view.owners.items() if s != view.seat]
    assert mine and theirs
    for track in mine:
        colour = player_color(view.players[view.seat].color)
        assert near(_pixel(mini, picture, mini.layout.tracks[track].path[16]), colour, 50), track
    owner = view.owners[theirs[0]]
    path = mini.layout.tracks[theirs[0]].path
    assert near(_pixel(mini, picture, path[16]), player_color(view.players[owner].color), 60)
    unreachable = [t for t in colors if t not in reach and t not in view.owners]
    halos = 0
    for track in unreachable:
        x, y = mini.at(_middle_car(mini, track))
        halos += near(picture.getpixel((round(x / SS), round(y / SS))), LIGHT_INK, 8)
    assert halos <= len(unreachable) // 10


def test_the_hand_counts_cards_and_cars_with_plural_words(europe_middle: TtrState) -> None:
    view = seat_view(europe_middle, europe_middle.current)
    asked: dict[str, dict[str, object]] = {}
    image = hand_image(view, asking(asked), NAMES)
    me = view.players[view.seat]
    assert asked["ttr_picture.hand.cards_count"] == {"count": sum(view.hand.values())}
    assert asked["ttr_picture.hand.cars_left"] == {"count": me.cars}
    assert asked["ttr_picture.hand.stations_left"] == {"count": me.stations_left}
    done = sum(t.completed for t in view.tickets)
    assert asked["ttr_picture.hand.tickets_done"] == {"done": done, "count": len(view.tickets)}
    assert image.width == 2 * PHONE and image.height <= image.width
    assert RU("ttr_picture.hand.cars_left", count=21) != RU("ttr_picture.hand.cars_left", count=25)


def test_the_summary_is_wide_and_short_and_names_the_winner_and_the_longest_trail(usa_end: TtrState) -> None:
    view = ENGINE.view(usa_end, None)
    assert view.final is not None and view.result is not None
    asked: dict[str, dict[str, object]] = {}
    five = summary_image(view, asking(asked), NAMES)
    two = summary_image(ENGINE.view(play("usa", 2, 3), None), EN, NAMES)
    assert five.width == two.width == 2 * PHONE and two.height < five.height <= 0.75 * five.width, (
        "wide and short: shown across the whole chat column"
    )
    assert "ttr_picture.score.winner" in asked
    holders = [f for f in view.final if f.longest_bonus]
    assert holders
    named = asked["ttr_picture.score.longest_won"]
    assert named["length"] == holders[0].longest_length
    assert str(named["players"]).split(", ") == [NAMES[f.seat] for f in holders]
    assert {"ttr_picture.score.routes", "ttr_picture.score.tickets", "ttr_picture.score.total"} <= set(asked)
    assert "ttr_picture.score.stations" not in asked
    europe = ENGINE.view(play("europe", 3, 7), None)
    asked.clear()
    summary_image(europe, asking(asked), NAMES)
    assert "ttr_picture.score.stations" in asked
