"""Marks that must read whatever the colour: tunnels and ferries, free and claimed, bot seats, and five players'
counters that never run into each other. Checked in grey (luminance), so a mark that differed in hue alone fails."""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from PIL import Image

from render.glyphs import bot_mark
from render.ttr import board_image
from render.ttr.geometry import Point, at_length, cumulative, offset_polyline
from render.ttr.layout import map_layout
from render.ttr.palette import PANEL_TEXT, PLAYER_COLORS
from render.ttr.panel import BOT_MARK, COUNTER_GAP, PANEL_HEIGHT, counter_layout, player_boxes
from render.ttr.sprites import band_line, tunnel_rims
from render.ttr.symbols import TICKET_NOTCH
from render.ttr.turn_strip import STRIP_HEIGHT
from rules.ttr.maps import load_map
from rules.ttr.view import LastMoveView, PublicView
from tests.render.ttr.conftest import ENGINE, NAMES, clear_of_names, picture_words, play

EN = picture_words("en")
DARK, LIGHT = 70, 185
"""Grey levels below which a pixel reads dark, and above which light."""


@cache
def playing(n_players: int = 5) -> PublicView:
    """Europe during play with nothing claimed yet, seat 0 to play."""
    view = ENGINE.view(play("europe", n_players, 1, moves=0), None)
    assert isinstance(view, PublicView)
    return view.model_copy(update={"phase": "turn", "current": 0, "to_act": [0], "pick": "first"})


def grey(image: Image.Image) -> Image.Image:
    return image.convert("L")


def along(points: list[Point]) -> list[tuple[int, int]]:
    """Pixels every 1.5 px along a line, where no city's dot or name lies."""
    lengths = cumulative(points)
    pixels = []
    for k in range(int(lengths[-1] / 1.5)):
        (x, y), _ = at_length(points, lengths, k * 1.5)
        if clear_of_names("europe", (x, y)):
            pixels.append((round(x), round(y)))
    return pixels


def level(image: Image.Image, p: tuple[float, float]) -> int:
    """The grey level of a pixel."""
    value = image.getpixel((round(p[0]), round(p[1])))
    assert isinstance(value, int)
    return value


def rim_shares(image: Image.Image, map_id: str, track_id: int) -> tuple[float, float]:
    """Along where a tunnel's edges run (both sides of the band's middle line), the share of dark and light pixels."""
    line = band_line(map_id, track_id)
    sides = [side * (line.width + line.outline) / 2 for side in (1, -1)]
    pixels = [p for offset in sides for p in along(offset_polyline(line.points, offset))]
    shades = grey(image)
    levels = [level(shades, p) for p in pixels]
    return sum(v < DARK for v in levels) / len(levels), sum(v > LIGHT for v in levels) / len(levels)


def tracks(kind: str) -> list[int]:
    """Europe's single tracks of a kind: `tunnel`, `ferry` or `plain` (long enough to sample)."""
    found = []
    for t in load_map("europe").tracks:
        this = "tunnel" if t.tunnel else "ferry" if t.ferry_locomotives else "plain"
        if this == kind and t.partner is None and t.length >= 2:
            found.append(t.id)
    return found


def test_a_free_tunnel_is_edged_in_dark_dashes_a_free_plain_track_is_not() -> None:
    image = board_image(playing(), EN, NAMES)
    for track in tracks("tunnel"):
        dark, _ = rim_shares(image, "europe", track)
        assert dark >= 0.3, (track, dark)
    for track in tracks("plain"):
        dark, _ = rim_shares(image, "europe", track)
        assert dark <= 0.12, (track, dark)


@pytest.mark.parametrize("seat", range(len(PLAYER_COLORS)))
def test_a_claimed_tunnel_keeps_black_and_white_dashes_on_every_colour_a_plain_band_has_none(seat: int) -> None:
    claimed = tracks("tunnel") + tracks("plain")
    image = board_image(playing().model_copy(update={"owners": {t: seat for t in claimed}}), EN, NAMES)
    for track in tracks("tunnel"):
        dark, light = rim_shares(image, "europe", track)
        assert dark >= 0.25 and light >= 0.25, (track, dark, light)
    for track in tracks("plain"):
        _, light = rim_shares(image, "europe", track)
        assert light <= 0.08, (track, light)


def test_the_tunnel_edges_are_where_the_band_edge_is_and_a_double_only_on_its_outer_side() -> None:
    single = band_line("europe", tracks("tunnel")[0])
    assert len(tunnel_rims(single)) == 2
    twins = [t for t in load_map("europe").tracks if t.tunnel and t.partner is not None]
    assert twins
    for t in twins:
        (rim,) = tunnel_rims(band_line("europe", t.id))
        assert t.partner is not None
        partner = map_layout("europe").tracks[t.partner].cars
        mine = map_layout("europe").tracks[t.id].cars
        k = len(rim) // 2
        nearest_twin = min(math.dist(rim[k], c.center) for c in partner)
        nearest_own = min(math.dist(rim[k], c.center) for c in mine)
        assert nearest_twin > nearest_own, t.id


def light_and_dark(image: Image.Image, centre: Point, reach: int = 5) -> bool:
    """Whether both near-black and near-white pixels lie within `reach` of a point (a band of one colour has
    neither contrast inside its outline, whatever the colour)."""
    x, y = round(centre[0]), round(centre[1])
    patch = grey(image).crop((x - reach, y - reach, x + reach + 1, y + reach + 1))
    return min(patch.tobytes()) < 60 and max(patch.tobytes()) > 200


def test_a_free_ferrys_locomotive_spaces_are_dark_its_other_spaces_light() -> None:
    image = grey(board_image(playing(), EN, NAMES))
    layout = map_layout("europe")
    for track in tracks("ferry"):
        ferry = next(t for t in load_map("europe").tracks if t.id == track)
        for i, car in enumerate(layout.tracks[track].cars):
            if not clear_of_names("europe", car.center, car.length / 2):
                continue
            ends = [
                level(
                    image,
                    (
                        car.center[0] + math.cos(car.angle) * car.length * s,
                        car.center[1] + math.sin(car.angle) * car.length * s,
                    ),
                )
                for s in (-0.4, 0.4)
            ]
            if i < ferry.ferry_locomotives:
                assert max(ends) < DARK, (track, i, ends)
            else:
                assert min(ends) > 120, (track, i, ends)


@pytest.mark.parametrize("seat", range(len(PLAYER_COLORS)))
def test_a_claimed_ferry_keeps_a_white_wheel_on_each_locomotive_space_on_every_colour(seat: int) -> None:
    ferries, plain = tracks("ferry"), tracks("plain")
    image = board_image(playing().model_copy(update={"owners": {t: seat for t in ferries + plain}}), EN, NAMES)
    for track in ferries:
        line = band_line("europe", track)
        for centre in line.locomotives:
            if centre not in line.numbers and clear_of_names("europe", centre, 8):
                assert light_and_dark(image, centre), (track, centre)
    for track in plain:
        line = band_line("europe", track)
        bare = [c for c in line.points[1:-1] if all(math.dist(c, n) > 12 for n in line.numbers)]
        for centre in (c for c in bare if clear_of_names("europe", c, 8)):
            assert not light_and_dark(image, centre), (track, centre)


def cell_of(image: Image.Image, view: PublicView, seat: int) -> Image.Image:
    """A player's cell in the panel."""
    top = image.height - PANEL_HEIGHT
    x0, y0, x1, y1 = player_boxes(len(view.players), image.width)[seat]
    return image.crop((x0, top + y0, x1, top + y1))


def lit(image: Image.Image, colour: tuple[int, int, int] = PANEL_TEXT) -> int:
    data = image.convert("RGB").tobytes()
    return sum(1 for k in range(0, len(data), 3) if max(abs(data[k + i] - colour[i]) for i in range(3)) < 30)


def test_a_bot_seat_shows_the_bot_mark_in_its_panel_cell_and_in_the_strip() -> None:
    move = LastMoveView(seat=2, kind="pass")
    view = playing().model_copy(update={"last_move": move})
    plain = board_image(view, EN, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    marked = board_image(view, EN, ["Ann", "Ben", "Cat", "Dan", "Eve"], frozenset({2}))
    mark = lit(bot_mark(BOT_MARK, PANEL_TEXT))
    for seat in (0, 1, 3, 4):
        assert cell_of(marked, view, seat) == cell_of(plain, view, seat)
    # the mark adds its own light pixels before the name (the name shifts right, so count, not compare)
    assert lit(cell_of(marked, view, 2)) >= lit(cell_of(plain, view, 2)) + mark * 0.6
    strip = (0, marked.height - PANEL_HEIGHT - STRIP_HEIGHT, marked.width, marked.height - PANEL_HEIGHT)
    assert lit(marked.crop(strip)) >= lit(plain.crop(strip)) + mark * 0.6


def test_the_bot_mark_lets_what_lies_under_it_show_through_its_eyes() -> None:
    alpha = bot_mark(48, PANEL_TEXT).getchannel("A")
    assert level(alpha, (24, 40)) > 200  # the head, under the eyes
    assert level(alpha, (24 - 7.7, 27)) < 60 and level(alpha, (24 + 7.7, 27)) < 60  # the eyes


@pytest.mark.parametrize(("n_players", "stations"), list(itertools.product(range(2, 6), (False, True))))
def test_counters_never_run_into_the_next_one_even_with_two_digits_and_five_players(
    n_players: int, stations: bool
) -> None:
    items = [("cars", 45), ("cards", 88), ("tickets", 88)] + ([("stations", 3)] if stations else [])
    for x0, _, x1, y1 in player_boxes(n_players, map_layout("europe").width):
        counters = counter_layout(items, (x0 + 6, y1 - 44, x1 - 6, y1 - 8))
        for first, second in itertools.pairwise(counters):
            notch = TICKET_NOTCH * (second.icon_box[3] - second.icon_box[1]) if second.icon == "tickets" else 0.0
            assert second.icon_box[0] - notch - first.text_box[2] >= COUNTER_GAP - 1
            assert first.slot[2] <= second.slot[0]
            assert first.text_box[2] <= first.slot[2] and second.icon_box[0] - notch >= second.slot[0]
        assert counters[0].slot[0] >= x0 and counters[-1].text_box[2] <= x1 - 6
        assert counters[0].size * 450 / 1600 >= 6  # digits still 6 px when the board is shown 450 px wide
