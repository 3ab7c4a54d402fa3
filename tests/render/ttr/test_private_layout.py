"""Private pictures laid out for the chat: none taller than it is wide (the chat caps a picture's height and would show
a tall one narrow), in both languages, on both maps, at the opening, mid-game and at the end; a hand grows taller only
past the most tickets it can show beside its map (it must scroll then)."""

from __future__ import annotations

import functools
import random

import pytest
from PIL import Image

from bot.i18n import labels
from render.ttr.hand import MOST_TICKETS, hand_image
from render.ttr.tickets import ticket_choice_image
from rules.ttr.state import Phase, TtrState
from rules.ttr.view import SeatView, TicketView
from tests.render.ttr.conftest import ENGINE, NAMES, play, seat_view

LANGUAGES = ("en", "ru")


@functools.cache
def drawing_tickets(map_id: str) -> TtrState:
    """A seeded 3-player game stopped at a mid-game ticket draw, the drawer holding tickets already."""
    state = ENGINE.new_game(ENGINE.load_options({"map": map_id}), 3, 5)
    rng = random.Random(5)
    moves = 0
    while not (state.phase is Phase.TICKETS and moves > 60):
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            if state.phase is Phase.TURN and rng.random() < 0.15 and state.ticket_deck:
                action = ENGINE.parse_action("tickets")
            state, _ = ENGINE.apply(state, seat, action)
            moves += 1
    return state


def private_pictures(map_id: str, language: str) -> dict[str, Image.Image]:
    """Every private picture of a map: the opening and a mid-game ticket choice, hands in play and at the end."""
    words = labels(language)
    opening = seat_view(play(map_id, 4, 3, moves=0), 0)
    drawing = drawing_tickets(map_id)
    middle = play(map_id, 4, 11, moves=90)
    end = play(map_id, 4, 7)
    return {
        "opening choice": ticket_choice_image(opening, words),
        "ticket draw": ticket_choice_image(seat_view(drawing, drawing.current), words),
        "hand": hand_image(seat_view(middle, middle.current), words, NAMES),
        "hand, waiting": hand_image(seat_view(middle, (middle.current + 1) % 4), words, NAMES),
        "hand at the end": hand_image(seat_view(end, 0), words, NAMES),
    }


@pytest.mark.parametrize("map_id", ["usa", "europe"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_private_picture_is_taller_than_wide(map_id: str, language: str) -> None:
    for name, picture in private_pictures(map_id, language).items():
        assert picture.width == 900, name
        assert picture.height <= picture.width, f"{name}: {picture.width}×{picture.height}"


def holding(view: SeatView, count: int) -> SeatView:
    """The view with `count` tickets held (its own, repeated as needed)."""
    tickets: list[TicketView] = [view.tickets[k % len(view.tickets)] for k in range(count)]
    return view.model_copy(update={"tickets": tickets})


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_a_hand_stays_wide_up_to_the_most_tickets_it_shows_beside_its_map(map_id: str) -> None:
    state = play(map_id, 4, 11, moves=90)
    view = seat_view(state, state.current)
    assert view.tickets
    words = labels("ru")
    most = hand_image(holding(view, MOST_TICKETS), words, NAMES)
    assert most.height <= most.width
    more = hand_image(holding(view, MOST_TICKETS + 4), words, NAMES)
    assert more.height > most.height, "past that, the tickets run on below (the hand must scroll)"
