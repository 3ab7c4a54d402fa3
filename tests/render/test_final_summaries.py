"""The final summaries of Ticket to Ride and the card game: wide and short (the chat shows them across its column),
and a bot player's row marked with the robot, in that row only."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from bot.i18n import labels
from render.cardgame.scoring import ROW_H as CARD_ROW_H
from render.cardgame.scoring import scoring_image
from render.ttr.score_sheet import ROW_H, TABLE_TOP, summary_image
from rules.cardgame import CardGameEngine, CardGameOptions
from tests.render.ttr.conftest import ENGINE, NAMES, play

CARDS = CardGameEngine()


def marked_rows(plain: Image.Image, marked: Image.Image) -> tuple[int, int]:
    """The top and bottom of what marking a seat changed."""
    box = ImageChops.difference(plain, marked).getbbox()
    assert box is not None, "the mark is drawn"
    return box[1], box[3]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_ticket_to_ride_summary_marks_a_bot_players_row(language: str) -> None:
    view = ENGINE.view(play("europe", 5, 7), None)
    assert view.result is not None
    words = labels(language)
    plain = summary_image(view, words, NAMES)
    assert plain.width == 900 and plain.height <= 0.75 * plain.width, "wide and short"
    bot = view.result.players[2].seat
    top, bottom = marked_rows(plain, summary_image(view, words, NAMES, {bot}))
    row = TABLE_TOP + 50 + 2 * ROW_H
    assert row <= top and bottom <= row + ROW_H, "the mark sits in the bot player's row (third best) only"


def test_the_card_game_summary_marks_a_bot_players_row() -> None:
    state = CARDS.new_game(CardGameOptions(), 4, 11)
    rng = random.Random(11)
    while not CARDS.is_over(state):
        seat = min(CARDS.to_act(state))
        state, _ = CARDS.apply(state, seat, CARDS.bot_action(state, seat, rng))
    view = CARDS.view(state, None)
    assert view.final is not None
    words = labels("en")
    plain = scoring_image(view, words, NAMES)
    assert plain.width == 900 and plain.height <= 0.75 * plain.width, "wide and short"
    order = [p.seat for p in view.final.result.players]
    top, bottom = marked_rows(plain, scoring_image(view, words, NAMES, "final", {order[-1]}))
    row = plain.height - 20 - CARD_ROW_H
    assert row <= top and bottom <= row + CARD_ROW_H, "the mark sits in the bot player's row (the last) only"
