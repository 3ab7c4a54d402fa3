"""The board's colours under simulated colour blindness (Machado 2009): players apart from each other and from the
free tracks they could be taken for, and the track colours apart from each other, faded or not."""

from __future__ import annotations

import itertools

from render.ttr.palette import CARD_FILL, PLAYER_COLORS, free_fill
from tests.render.ttr.cvd import MATRICES, distance

TRACK_COLOURS = [c for c in CARD_FILL if c != "locomotive"]


def _closest(pairs: list[tuple[tuple[int, int, int], tuple[int, int, int], str]]) -> tuple[float, str]:
    """The smallest ΔE over these pairs and every kind of colour vision, with what was compared."""
    return min((distance(a, b, kind), f"{what} ({kind})") for a, b, what in pairs for kind in MATRICES)


def test_player_colours_stay_apart_from_each_other_for_every_colour_vision() -> None:
    pairs = [(a, b, f"{a} ~ {b}") for a, b in itertools.combinations(PLAYER_COLORS, 2)]
    gap, what = _closest(pairs)
    assert gap >= 28, what


def test_player_colours_cannot_be_taken_for_a_free_track_for_every_colour_vision() -> None:
    pairs = [(p, free_fill(c), f"{p} ~ free {c}") for p in PLAYER_COLORS for c in TRACK_COLOURS]
    gap, what = _closest(pairs)
    assert gap >= 22, what


def test_track_colours_stay_apart_for_every_colour_vision_faded_or_not() -> None:
    full = [(CARD_FILL[a], CARD_FILL[b], f"{a} ~ {b}") for a, b in itertools.combinations(TRACK_COLOURS, 2)]
    gap, what = _closest(full)
    assert gap >= 24, what
    faded = [(free_fill(a), free_fill(b), f"free {a} ~ {b}") for a, b in itertools.combinations(TRACK_COLOURS, 2)]
    gap, what = _closest(faded)
    assert gap >= 14, what


def test_a_free_track_is_lighter_than_its_card_so_claimed_bands_stand_out() -> None:
    for colour in TRACK_COLOURS:
        assert sum(free_fill(colour)) > sum(CARD_FILL[colour]), colour
