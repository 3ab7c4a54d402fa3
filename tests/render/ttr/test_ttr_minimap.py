"""The mini map's kinds of line differ in pattern, not only in colour, and the hand's legend draws each as the map
does: compared in grey, across a line and along it."""

from __future__ import annotations

import itertools
import math
from typing import get_args

import pytest
from PIL import Image

from bot.i18n import text
from render.ttr.geometry import Point
from render.ttr.hand import WIDTH, hand_image
from render.ttr.layout import map_layout
from render.ttr.minimap import CROSS_STEP, DOT_STEP, SS, SWATCH, LineKind, MiniMap, draw_line, map_frame, swatch
from render.ttr.palette import RGB
from rules.ttr.maps import load_map
from rules.ttr.state import Phase
from tests.render.ttr.conftest import NAMES, play, seat_view

KINDS: tuple[LineKind, ...] = get_args(LineKind)
GREY: RGB = (176, 176, 176)
"""A colour for every kind of line, lighter than any dark edge and darker than a halo."""


def levels(image: Image.Image, points: list[Point]) -> list[int]:
    shades = image.convert("L")
    found = []
    for x, y in points:
        value = shades.getpixel((round(x), round(y)))
        assert isinstance(value, int)
        found.append(value)
    return found


def classes(values: list[int]) -> tuple[int, int]:
    """How many pixels of a profile are dark (an edge, a cross, a dot's rim) and how many light (a halo)."""
    return sum(v < 150 for v in values), sum(v > 240 for v in values)


def starts(values: list[int], dark: int) -> list[int]:
    """Where each run of pixels darker than `dark` begins (within the profile, not cut by its start)."""
    return [k for k, v in enumerate(values) if k and v < dark and values[k - 1] >= dark]


def across_swatch(piece: Image.Image) -> list[int]:
    """Grey levels down the middle of a swatch, across its line."""
    x = piece.width / 2 + 0.5
    return levels(piece, [(x, y) for y in range(piece.height)])


def test_each_kind_of_line_differs_from_every_other_in_grey_not_only_in_colour() -> None:
    pieces = {kind: swatch(kind, GREY, SWATCH).convert("L") for kind in KINDS}
    for a, b in itertools.combinations(KINDS, 2):
        difference = sum(abs(p - q) for p, q in zip(pieces[a].tobytes(), pieces[b].tobytes(), strict=True))
        assert difference / (SWATCH[0] * SWATCH[1]) >= 12, (a, b)


def straight_track(map_id: str) -> tuple[list[Point], Point, Point]:
    """The path of a long single track whose middle runs nearly straight, its middle point and the unit vector across
    it."""
    layout = map_layout(map_id)
    for track in sorted(load_map(map_id).tracks, key=lambda t: -t.length):
        path = layout.tracks[track.id].path
        k = len(path) // 2
        (x0, y0), (x1, y1) = path[k - 2], path[k + 2]
        d = math.dist(path[k - 2], path[k + 2])
        if track.partner is None and abs(math.atan2(y1 - y0, x1 - x0)) < 0.5:
            return list(path), path[k], (-(y1 - y0) / d, (x1 - x0) / d)
    raise AssertionError("no straight track")


def drawn_alone(kind: LineKind, path: list[Point]) -> tuple[MiniMap, Image.Image]:
    """A hand-sized mini map with one line of a kind along a board path."""
    mini = MiniMap("usa", WIDTH - 48)
    draw_line(mini.draw, kind, [mini.at(p) for p in path], GREY, SS)
    return mini, mini.finish()


@pytest.mark.parametrize("kind", ["yours", "others", "claimable"])
def test_a_legend_swatch_crosses_as_its_line_does_on_the_map(kind: LineKind) -> None:
    path, middle, (nx, ny) = straight_track("usa")
    mini, picture = drawn_alone(kind, path)
    cx, cy = (v / SS for v in mini.at(middle))
    half = SWATCH[1] // 2
    on_map = classes(levels(picture, [(cx + nx * t, cy + ny * t) for t in range(-half, half)]))
    in_legend = classes(across_swatch(swatch(kind, GREY, SWATCH)))
    assert all(abs(m - n) <= 1 for m, n in zip(on_map, in_legend, strict=True)), (on_map, in_legend)
    assert in_legend[0] >= 2 and (in_legend[1] >= 3) == (kind == "claimable")  # an edge; a halo for claimable only


@pytest.mark.parametrize(
    ("kind", "step", "mark"),
    [("ticket", DOT_STEP, 215), ("closed", CROSS_STEP, 150)],  # dots stand apart on the land; crosses on the line
)
def test_a_legend_swatch_repeats_its_marks_as_far_apart_as_its_line_does_on_the_map(
    kind: LineKind, step: float, mark: int
) -> None:
    piece = swatch(kind, GREY, SWATCH)
    marks = starts(levels(piece, [(x, SWATCH[1] // 2) for x in range(5, SWATCH[0] - 5)]), mark)
    assert len(marks) >= 3 if kind == "ticket" else len(marks) >= 2
    assert all(abs((b - a) - step) <= 1.5 for a, b in itertools.pairwise(marks)), marks
    frame = map_frame("usa")
    line = [(frame[0] + 100.0, frame[1] + 300.0), (frame[0] + 700.0, frame[1] + 300.0)]
    mini, picture = drawn_alone(kind, line)
    (ax, ay), (bx, _) = (mini.at(p) for p in line)
    along = levels(picture, [(x, ay / SS) for x in range(round(ax / SS) + 20, round(bx / SS) - 20)])
    marks = starts(along, mark)
    assert len(marks) >= 10
    assert all(abs((b - a) - step) <= 1.5 for a, b in itertools.pairwise(marks)), marks


def test_the_hands_legend_names_every_kind_of_line_its_map_shows() -> None:
    asked: list[str] = []

    def words(key: str, **params: object) -> str:
        asked.append(key)
        return text("en", key, **params)

    state = play("usa", 2, 5, moves=60)
    view = seat_view(state, 0)
    assert view.closed and view.phase == Phase.TURN
    hand_image(view, words, NAMES)
    legend = {k.removeprefix("ttr_picture.hand.legend_") for k in asked if k.startswith("ttr_picture.hand.legend_")}
    open_tickets = {"ticket"} if any(not t.completed for t in view.tickets) else set()
    assert legend == {"yours", "claimable", "others", "closed"} | open_tickets
