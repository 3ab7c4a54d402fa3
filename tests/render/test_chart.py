"""The score-over-time chart (render/chart.py): a line per player in the game's colours, markers that differ by
seat, the final point apart, every word from the caller's labels; drawn from a real game's history."""

from __future__ import annotations

import io

from PIL import Image

from bot.games import GAMES as OFFERED
from bot.i18n import text
from bot.ui.charts import draw_chart
from render import dice, ttr
from render.chart import HEIGHT, SHAPES, WIDTH, chart_image
from render.dice import SEAT_COLOURS
from render.ttr.palette import PLAYER_COLORS
from rules.history import ScoreHistory
from tests.rules.test_score_history import played

LABELS = {
    "replay.chart.title": "Score over time",
    "replay.chart.turns": "Turn",
    "replay.chart.points": "Points",
    "replay.chart.final": "Final",
}


def share(image: Image.Image, colour: tuple[int, int, int]) -> float:
    """The share of the picture's pixels in (nearly) this colour."""
    rgb = image.convert("RGB")
    near = sum(
        count
        for count, pixel in rgb.getcolors(WIDTH * HEIGHT) or []
        if sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 12
    )
    return near / (rgb.width * rgb.height)


def test_each_player_has_a_line_in_their_own_colour() -> None:
    history = ScoreHistory(((0, 0, 0), (4, 0, 0), (4, 7, 0), (4, 7, 2), (9, 7, 2)), final=(21, 12, 30))
    colours = ttr.PICTURES.seat_colours(3)
    assert colours == list(PLAYER_COLORS[:3]) and dice.PICTURES.seat_colours(2) == list(SEAT_COLOURS[:2])
    image = chart_image(history, colours, ["Ann", "Ben", "Cat"], LABELS)
    assert image.size == (WIDTH, HEIGHT)
    for colour in colours:
        assert share(image, colour) > 0.002, f"a line of {colour}"
    assert len(set(SHAPES)) == len(SHAPES) >= 5, "a marker shape per seat (up to 5 players, and the dice's 6)"


def test_a_real_game_chart_in_russian_is_a_png_with_the_totals_in_its_alt_text() -> None:
    log = played("ticket-to-ride", 5, {"map": "europe"}, seed=3)
    names = ["Аня", "Борис", "Вера", "Глеб", "Дина"]
    game = OFFERED["ticket-to-ride"]
    png, alt = draw_chart(game.pictures, game.engine, {"map": "europe"}, 5, 3, log, names, "ru")
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.format == "PNG" and picture.size == (WIDTH, HEIGHT)
    assert alt.startswith(text("ru", "replay.chart.alt", scores="")[:10]) and all(name in alt for name in names)
    assert "очк" in alt, "Russian plurals of points"
    assert len(png) < 200_000
