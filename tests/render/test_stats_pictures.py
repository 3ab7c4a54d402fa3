"""The /stats card and the /leaderboard table: sized for a phone, every word the reader's language, long names
fitted, the reader's own row kept when outside the top ten."""

from __future__ import annotations

import functools
import io

import pytest
from PIL import Image

from bot.i18n import table, text
from render.stats import (
    WIDTH,
    BoardRow,
    Figure,
    Leaderboard,
    StatsCard,
    band_colours,
    render_leaderboard,
    render_stats,
)
from render.ttr.palette import DARK_INK, LIGHT_INK


def card(name: str = "Anna", routes: int = 3) -> StatsCard:
    return StatsCard(
        name=name,
        game="Ticket to Ride",
        colour=(46, 204, 113),
        figures=(
            Figure("games", "1 024"),
            Figure("wins", "311"),
            Figure("win_rate", "30%"),
            Figure("average", "97.4"),
            Figure("best", "184"),
            Figure("best_trail", "23"),
            Figure("tickets_done", "2 811", "good"),
            Figure("tickets_failed", "602", "bad"),
        ),
        rating=1387,
        rank=3,
        rated=41,
        routes=tuple((f"Route {i}", 20 - i) for i in range(routes)),
    )


def board(own: bool, unrated: bool = False) -> Leaderboard:
    rows = tuple(BoardRow(i + 1, f"Player {i + 1}", 1500 - 20 * i, 300 - i, 40 - i) for i in range(10))
    mine = BoardRow(27, "Me", 1111, 12, 25, own=True) if own else None
    return Leaderboard(game="Ticket to Ride", colour=(88, 101, 242), rows=rows, own=mine, unrated=unrated)


class Recorder:
    """The reader's words, remembering every key and text a picture asked for."""

    def __init__(self, language: str) -> None:
        self.words = functools.partial(text, language)
        self.asked: dict[str, str] = {}

    def __call__(self, key: str, **params: object) -> str:
        said = self.asked[key] = self.words(key, **params)
        return said


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_word_of_both_pictures_is_the_readers_language(language: str) -> None:
    words = Recorder(language)
    render_stats(card(), words)
    render_leaderboard(board(own=True), words)
    render_leaderboard(board(own=False, unrated=True), words)
    assert words.asked, "the pictures asked for no words"
    assert all(key in table(language) for key in words.asked), set(words.asked) - set(table(language))
    if language == "ru":
        said = [t for t in words.asked.values() if any(c.isalpha() for c in t)]
        assert all(any("а" <= c.lower() <= "я" for c in t) for t in said), said


def test_the_pictures_read_at_phone_width_and_grow_with_what_they_show() -> None:
    words = Recorder("en")
    width, height = size(render_stats(card(), words))
    assert width == WIDTH == 900 and 600 < height < 1100  # shown at 450 px: half of every size
    assert size(render_stats(card(routes=0), words))[1] < height
    top_only = size(render_leaderboard(board(own=False), words))[1]
    assert size(render_leaderboard(board(own=True), words))[1] > top_only
    nobody = Leaderboard(game="Dice", colour=(0, 0, 0), rows=(), unrated=True)
    assert size(render_leaderboard(nobody, words))[1] < top_only


def test_a_long_name_is_fitted_not_cut_off_the_card() -> None:
    words = Recorder("ru")
    long_name = "Шарлотта-Амели фон Айзенбан унд Локомотивенфабрик"
    png = render_stats(card(long_name), words)
    assert size(png)[0] == WIDTH
    assert render_stats(card(long_name), words) == png  # deterministic: same figures, same bytes


def test_the_head_keeps_the_persons_colour_under_ink_that_reads() -> None:
    assert band_colours((241, 196, 15)) == ((241, 196, 15), DARK_INK)  # yellow: dark words
    assert band_colours((88, 101, 242)) == ((88, 101, 242), LIGHT_INK)  # blurple: white words
    fill, ink = band_colours((128, 128, 128))  # mid grey: neither reads well enough, so it is darkened
    assert ink == LIGHT_INK and fill < (128, 128, 128)
