"""The board as people see it in the chat (about 450 px wide): claimed bands, the last move, closed doubles, the
last round, the longest-trail winner, labelled counters and readable city names, checked on the pixels."""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageStat

from render.ttr import board_image
from render.ttr.cards import CARD_BACK
from render.ttr.geometry import Point
from render.ttr.layout import map_layout
from render.ttr.mapart import LABEL_SIZE, art_words, map_art
from render.ttr.palette import (
    BANNER,
    CARD_FILL,
    CLOSED_FILL,
    DARK_INK,
    HIGHLIGHT,
    PLAYER_COLORS,
    RGB,
    WINNER_GLOW,
    free_fill,
)
from render.ttr.sprites import band_line, band_reach
from render.ttr.turn_strip import BANNER_HEIGHT, STRIP_HEIGHT
from rules.engine import GameResult
from rules.ttr.maps import load_map
from rules.ttr.view import FinalPlayer, LastMoveView, PublicView
from tests.render.ttr.conftest import ENGINE, NAMES, clear_of_names, picture_words, play

EN = picture_words("en")
CHAT_WIDTH = 450


class Asked:
    """Labels that remember every word a picture asked for, with its parameters."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, object]]] = []

    def __call__(self, key: str, **params: object) -> str:
        self.calls.append((key, params))
        return EN.get(key, key)

    def params(self, name: str) -> list[dict[str, object]]:
        """The parameters of every request for `ttr_picture.<name>`."""
        return [p for k, p in self.calls if k == f"ttr_picture.{name}"]


@cache
def playing(map_id: str, n_players: int = 5) -> PublicView:
    """A board during play with nothing claimed yet, seat 0 to play."""
    view = ENGINE.view(play(map_id, n_players, 1, moves=0), None)
    assert isinstance(view, PublicView)
    return view.model_copy(update={"phase": "turn", "current": 0, "to_act": [0], "pick": "first"})


def mid_and_side(map_id: str, track_id: int) -> tuple[Point, tuple[float, float]]:
    """The middle of a track's band and the unit vector across it."""
    points = band_line(map_id, track_id).points
    k = len(points) // 2
    (x0, y0), (x1, y1) = points[k - 1], points[k]
    d = math.dist(points[k - 1], points[k]) or 1.0
    return ((x0 + x1) / 2, (y0 + y1) / 2), (-(y1 - y0) / d, (x1 - x0) / d)


def across(map_id: str, track_id: int, offset: float, top: int = 0) -> tuple[int, int]:
    """The pixel `offset` pixels across a track's band from its middle (on a map drawn `top` pixels down)."""
    (x, y), (nx, ny) = mid_and_side(map_id, track_id)
    return round(x + nx * offset), round(y + ny * offset) + top


def mean_difference(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> float:
    """Mean absolute channel difference of two pictures over a box."""
    return sum(ImageStat.Stat(ImageChops.difference(a.crop(box), b.crop(box))).mean) / 3


def near(pixel: object, colour: RGB, tolerance: int = 40) -> bool:
    assert isinstance(pixel, tuple)
    return max(abs(x - y) for x, y in zip(pixel[:3], colour, strict=True)) <= tolerance


def count_near(image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tolerance: int = 12) -> int:
    data = image.crop(box).tobytes()
    return sum(1 for k in range(0, len(data), 3) if near(tuple(data[k : k + 3]), colour, tolerance))


def shrunk(image: Image.Image) -> Image.Image:
    """The picture as the chat shows it."""
    return image.resize((CHAT_WIDTH, round(image.height * CHAT_WIDTH / image.width)), Image.Resampling.LANCZOS)


def single_tracks(map_id: str) -> list[int]:
    """One single (not double) track of every colour, long enough to sample between its numbers."""
    found: dict[str, int] = {}
    for track in load_map(map_id).tracks:
        if track.partner is None and track.length >= 3 and not track.tunnel and track.color not in found:
            found[track.color] = track.id
    return sorted(found.values())


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_a_claimed_route_is_a_wide_outlined_band_far_from_its_free_look_even_at_chat_width(map_id: str) -> None:
    free = playing(map_id)
    tracks = single_tracks(map_id)
    assert len(tracks) >= 8
    free_image = board_image(free, EN, NAMES)
    scale = CHAT_WIDTH / free_image.width
    free_small = shrunk(free_image)
    for seat in range(len(PLAYER_COLORS)):
        claimed = free.model_copy(update={"owners": {t: seat for t in tracks}})
        image = board_image(claimed, EN, NAMES)
        small = shrunk(image)
        for track in (t for t in tracks if clear_of_names(map_id, mid_and_side(map_id, t)[0], 8)):
            x, y = across(map_id, track, 5.5)  # beside the owner's number, inside the band
            difference = mean_difference(image, free_image, (x - 2, y - 2, x + 3, y + 3))
            assert difference >= 60, (track, seat, difference)
            sx, sy = round(x * scale), round(y * scale)
            assert mean_difference(small, free_small, (sx - 1, sy - 1, sx + 1, sy + 1)) >= 35, (track, seat)
            edge = band_reach(map_id, track) - 1.2
            assert near(image.getpixel(across(map_id, track, edge)), DARK_INK, 60), (track, seat)
            assert not near(free_image.getpixel(across(map_id, track, edge)), DARK_INK, 60), track


def test_the_last_move_mark_stands_out_around_every_player_colour() -> None:
    track = single_tracks("usa")[0]
    reach = band_reach("usa", track)
    for seat in range(len(PLAYER_COLORS)):
        move = LastMoveView(seat=seat, kind="claim", track=track, points=4)
        view = playing("usa").model_copy(update={"owners": {track: seat}, "last_move": move})
        image = board_image(view, EN, NAMES)
        assert near(image.getpixel(across("usa", track, reach + 4)), HIGHLIGHT, 30), seat
        assert near(image.getpixel(across("usa", track, reach + 11)), DARK_INK, 40), seat
        assert near(image.getpixel(across("usa", track, 5.5)), PLAYER_COLORS[seat], 30), seat


def test_a_station_built_last_is_ringed_and_other_stations_are_not() -> None:
    art = map_art("europe", art_words(EN, "europe"))
    move = LastMoveView(seat=2, kind="station", city="wien")
    view = playing("europe").model_copy(update={"stations": {"wien": 2, "berlin": 0}, "last_move": move})
    image = board_image(view, EN, NAMES)
    for city, ringed in (("wien", True), ("berlin", False)):
        x, y = art.spots[city].station
        ring = [image.getpixel((round(x + dx), round(y + dy))) for dx, dy in ((0, -19), (0, 19), (-19, 0), (19, 0))]
        assert (
            sum(near(p, HIGHLIGHT, 30) for p in ring) >= 3 if ringed else not any(near(p, HIGHLIGHT, 12) for p in ring)
        )


@pytest.mark.parametrize("n_players", [2, 3])
def test_r_t6_the_closed_twin_of_a_claimed_double_is_greyed_and_crossed(n_players: int) -> None:
    game_map = load_map("usa")
    double = next(t for t in game_map.tracks if t.partner is not None and t.length >= 3)
    twin = next(t for t in game_map.tracks if t.id == double.partner)
    view = playing("usa", n_players).model_copy(update={"owners": {double.id: 0}, "closed": [double.partner]})
    closed, open_twin = board_image(view, EN, NAMES), board_image(view.model_copy(update={"closed": []}), EN, NAMES)
    for car in map_layout("usa").tracks[double.partner].cars:
        along = (round(car.center[0] + math.cos(car.angle) * 5), round(car.center[1] + math.sin(car.angle) * 5))
        grey = closed.getpixel(along)
        assert isinstance(grey, tuple) and max(grey) - min(grey) <= 12 and max(grey) <= max(CLOSED_FILL) + 10, grey
        assert near(open_twin.getpixel(along), free_fill(twin.color), 30)
        assert near(closed.getpixel(car.center), DARK_INK, 60)  # where the cross's two strokes meet


def strip_box(view: PublicView, image: Image.Image) -> tuple[int, int, int, int]:
    """Where the strip under the map is."""
    top = map_layout(view.map).height + (BANNER_HEIGHT if view.last_round or view.result is not None else 0)
    return 0, top, image.width, top + STRIP_HEIGHT


def test_the_strip_shows_face_up_cards_taken_as_cards_and_blind_ones_as_backs() -> None:
    move = LastMoveView(seat=1, kind="cards", face_up=["red"], blind=1)
    view = playing("usa").model_copy(update={"last_move": move})
    asked = Asked()
    image = board_image(view, asked, NAMES)
    box = strip_box(view, image)
    assert asked.params("move.cards") == [{"count": 2}]
    assert count_near(image, box, CARD_FILL["red"]) > 600
    assert count_near(image, box, CARD_BACK) > 600
    two_blind = view.model_copy(update={"last_move": move.model_copy(update={"face_up": [], "blind": 2})})
    image = board_image(two_blind, EN, NAMES)
    assert count_near(image, box, CARD_FILL["red"]) < 50
    assert count_near(image, box, CARD_BACK) > 1200


@pytest.mark.parametrize(
    ("move", "word", "params"),
    [
        (LastMoveView(seat=0, kind="claim", track=1, points=4), "move.points", {"points": 4}),
        (
            LastMoveView(seat=2, kind="tickets", tickets_drawn=3, tickets_kept=2),
            "move.tickets",
            {"drawn": 3, "kept": 2},
        ),
        (LastMoveView(seat=3, kind="station", city="wien"), "move.station", {"city": "Wien"}),
        (LastMoveView(seat=1, kind="tunnel_withdrawn", track=1), "move.tunnel_withdrawn", None),
        (LastMoveView(seat=4, kind="tunnel_failed", track=1), "move.tunnel_failed", None),
        (LastMoveView(seat=4, kind="pass"), "move.pass", {}),
    ],
)
def test_the_strip_says_what_the_last_move_was(move: LastMoveView, word: str, params: dict[str, object] | None) -> None:
    map_id = "europe" if move.kind in ("station", "tunnel_failed", "tunnel_withdrawn") else "usa"
    view = playing(map_id).model_copy(update={"last_move": move})
    asked = Asked()
    image = board_image(view, asked, NAMES)
    assert asked.params("move.tag") == [{}]
    said = asked.params(word)
    assert len(said) == 1 and (params is None or said[0] == params)
    assert count_near(image, strip_box(view, image), PLAYER_COLORS[move.seat], 20) > 100  # the mover's badge


def test_the_last_round_banner_counts_the_turns_left_and_reads_at_chat_width() -> None:
    view = playing("usa").model_copy(update={"last_round": True, "turns_left": 3})
    asked = Asked()
    image = board_image(view, asked, NAMES)
    plain = board_image(playing("usa"), EN, NAMES)
    assert image.height == plain.height + BANNER_HEIGHT
    assert asked.params("banner.last_round") == [{"turns": 3}]
    assert count_near(image, (0, 0, image.width, BANNER_HEIGHT), BANNER) > 0.6 * image.width * BANNER_HEIGHT
    assert BANNER_HEIGHT * CHAT_WIDTH / image.width >= 18  # a red band across the top, 19 px tall in the chat
    assert not any(near(plain.getpixel((x, 10)), BANNER, 12) for x in range(0, plain.width, 50))


def test_at_the_end_only_the_longest_trail_winner_glows_and_is_named() -> None:
    tracks = single_tracks("usa")
    winner_trail, other_trail = tracks[:2], tracks[2:3]
    final = [
        FinalPlayer(
            seat=0,
            total=80,
            tickets=[],
            longest_trail=winner_trail,
            longest_length=7,
            longest_bonus=True,
            station_tracks={},
        ),
        FinalPlayer(
            seat=1,
            total=90,
            tickets=[],
            longest_trail=other_trail,
            longest_length=3,
            longest_bonus=False,
            station_tracks={},
        ),
    ]
    owners = {t: 0 for t in winner_trail} | {t: 1 for t in other_trail}
    view = playing("usa", 2).model_copy(
        update={"owners": owners, "final": final, "result": GameResult(players=[], winners=[1]), "phase": "over"}
    )
    asked = Asked()
    image = board_image(view, asked, NAMES)
    for track in winner_trail:
        glow = image.getpixel(across("usa", track, band_reach("usa", track) + 4, BANNER_HEIGHT))
        assert near(glow, WINNER_GLOW, 30), track
    for track in other_trail:
        outside = image.getpixel(across("usa", track, band_reach("usa", track) + 4, BANNER_HEIGHT))
        assert not near(outside, WINNER_GLOW, 60) and not near(outside, HIGHLIGHT, 30)
    assert asked.params("move.longest_bonus") == [{"bonus": 10}]
    assert asked.params("move.cars") == [{"length": 7}]
    assert asked.params("banner.over") == [{"count": 1, "players": NAMES[1]}]
    box = strip_box(view, image)
    assert count_near(image, box, PLAYER_COLORS[0], 20) > 100 and count_near(image, box, PLAYER_COLORS[1], 20) < 20


@pytest.mark.parametrize(("map_id", "stations"), [("usa", False), ("europe", True)])
def test_the_panel_counters_are_labelled(map_id: str, stations: bool) -> None:
    asked = Asked()
    board_image(playing(map_id), asked, NAMES)
    counters = {k.removeprefix("ttr_picture.counter.") for k, _ in asked.calls if k.startswith("ttr_picture.counter.")}
    assert counters == {"score", "cars", "cards", "tickets"} | ({"stations"} if stations else set())


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_city_names_are_at_least_8_px_tall_at_chat_width(map_id: str) -> None:
    image = board_image(playing(map_id), EN, NAMES)
    assert image.width == map_layout(map_id).width  # the map spans the picture: no side panel shrinks it
    assert LABEL_SIZE * CHAT_WIDTH / image.width >= 8
    art = map_art(map_id, art_words(EN, map_id))
    heights = [spot.label[3] - spot.label[1] for spot in art.spots.values()]
    assert min(heights) * CHAT_WIDTH / image.width >= 9  # the plate: capitals, descenders and a rim round them


HUBS = {
    "usa": ("kansas_city", "omaha", "oklahoma_city", "saint_louis"),
    "europe": ("bruxelles", "essen", "frankfurt", "zagrab"),
}


@pytest.mark.parametrize(("map_id", "language"), [(m, lang) for m in ("usa", "europe") for lang in ("en", "ru")])
def test_name_plates_never_overlap_a_dot_or_each_other_and_lie_nearest_their_own_city(
    map_id: str, language: str
) -> None:
    words = picture_words(language)
    art = map_art(map_id, art_words(words, map_id))
    cities = map_layout(map_id).cities
    plates = {city: spot.label for city, spot in art.spots.items()}
    for (a, box_a), (b, box_b) in itertools.combinations(plates.items(), 2):
        assert not overlaps(box_a, box_b), (a, b)
    for city, box in plates.items():
        own = gap(box, cities[city])
        for other, centre in cities.items():
            if other != city:
                assert not overlaps(box, (centre[0] - 9, centre[1] - 9, centre[0] + 9, centre[1] + 9)), (city, other)
                assert gap(box, centre) > own, (city, other)
    assert all(gap(plates[hub], cities[hub]) < 30 for hub in HUBS[map_id])


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def gap(box: tuple[float, ...], p: Point) -> float:
    """How far a point lies from a box."""
    return math.dist(p, (min(max(p[0], box[0]), box[2]), min(max(p[1], box[1]), box[3])))
