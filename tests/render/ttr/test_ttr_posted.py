"""The board as posted (drawn from what changed, render/ttr/posted.py) is the full redraw, pixel for pixel, over
whole games; a game's base is bounded, replaced when a view does not extend it, and dropped when the game ends."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from render.caches import forget
from render.ttr import board_image, render_board
from render.ttr.board import board_palette
from render.ttr.mapart import art_words
from render.ttr.posted import BASES
from rules.ttr.actions import BuildStation
from rules.ttr.options import TtrOptions
from rules.ttr.view import PublicView
from tests.render.ttr.conftest import ENGINE, NAMES, picture_words

EN = picture_words("en")
RU = picture_words("ru")


def posted_views(map_id: str, players: int, seed: int, stations: float = 0.0) -> Iterator[PublicView]:
    """Each public view of a seeded game where the bot posts a board (the routes, stations or tunnel changed),
    and the last one."""
    state = ENGINE.new_game(TtrOptions.model_validate({"map": map_id}), players, seed)
    rng = random.Random(seed)
    shown: object = None
    while True:
        view = ENGINE.view(state, None)
        assert isinstance(view, PublicView)
        key = (sorted(view.owners.items()), sorted(view.stations.items()), view.tunnel)
        if key != shown or ENGINE.is_over(state):
            shown = key
            yield view
        if ENGINE.is_over(state):
            return
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            builds = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, BuildStation)]
            if builds and rng.random() < stations:
                action = rng.choice(builds)
            state, _ = ENGINE.apply(state, seat, action)


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def assert_full_redraw(png: bytes, view: PublicView, words: dict[str, str], bots: frozenset[int] = frozenset()) -> None:
    """The posted board's pixels are the full redraw mapped to the board's palette, and so is its palette."""
    palette = board_palette(view.map, art_words(words, view.map))
    full = board_image(view, words, NAMES, bots).quantize(palette=palette, dither=Image.Dither.NONE)
    posted = decoded(png)
    assert posted.size == full.size
    assert posted.getpalette() == full.getpalette()
    assert posted.tobytes() == full.tobytes()


@pytest.mark.parametrize(
    ("map_id", "players", "seed", "stations", "words"),
    [
        pytest.param("usa", 5, 3, 0.0, EN, marks=pytest.mark.slow),
        pytest.param("europe", 4, 8, 0.08, EN, marks=pytest.mark.slow),
        ("europe", 2, 5, 0.15, RU),
        pytest.param("usa", 3, 6, 0.0, RU, marks=pytest.mark.slow),
    ],
)
def test_every_board_of_a_game_is_the_full_redraw_pixel_for_pixel(
    map_id: str, players: int, seed: int, stations: float, words: dict[str, str]
) -> None:
    game = f"test-{map_id}-{players}-{seed}"
    before = BASES.hits
    views = list(posted_views(map_id, players, seed, stations))
    assert views[-1].result is not None and any(v.last_round for v in views)
    if stations:
        assert any(v.last_move is not None and v.last_move.kind == "station" for v in views)
    bots = frozenset({1})  # the second seat's name carries the bot mark, in the panel and the strip
    for view in views:
        assert_full_redraw(render_board(view, words, NAMES, game, bots), view, words, bots)
    assert BASES.hits - before >= len(views) - 1  # every board after the first grew the game's base
    forget(game)


def test_a_base_the_view_does_not_extend_is_replaced() -> None:
    late = list(posted_views("usa", 4, 11))[-12]
    recoloured = [p.model_copy(update={"color": (p.color + 1) % len(late.players)}) for p in late.players]
    other_seating = late.model_copy(update={"players": recoloured})  # the same routes, other players' colours
    fresh = next(posted_views("usa", 4, 12))  # a new game under the same id, after a restart
    replaced = BASES.replaced
    for view in (late, other_seating, fresh, late):
        assert_full_redraw(render_board(view, EN, NAMES, "same id"), view, EN)
    assert BASES.replaced == replaced + 2  # the other seating, then the new game; the old view extends the new
    forget("same id")


def test_a_board_in_another_language_or_map_under_the_same_id_is_drawn_afresh() -> None:
    usa = list(posted_views("usa", 3, 4))[20]
    europe = list(posted_views("europe", 3, 4))[20]
    for view, words in ((usa, EN), (usa, RU), (europe, RU)):
        assert_full_redraw(render_board(view, words, NAMES, "shared"), view, words)
    forget("shared")


def test_bases_are_kept_for_the_most_recent_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BASES, "max_entries", 3)
    views = list(posted_views("europe", 3, 2))[:3]
    hits, misses = BASES.hits, BASES.misses
    for game in ("a", "b", "c", "d"):
        render_board(views[0], EN, NAMES, game)
    assert len(BASES) <= 3
    render_board(views[1], EN, NAMES, "d")  # kept: extended
    render_board(views[1], EN, NAMES, "a")  # the least recently drawn: dropped, drawn from the bare map
    assert (BASES.hits - hits, BASES.misses - misses) == (1, 5)
    for game in ("a", "b", "c", "d"):
        forget(game)
    assert len(BASES) == 0


def test_a_board_without_a_game_keeps_no_base_and_the_same_view_gives_the_same_bytes() -> None:
    view = list(posted_views("usa", 2, 9))[15]
    kept = len(BASES)
    first = render_board(view, EN, NAMES)
    assert len(BASES) == kept
    assert render_board(view, EN, NAMES, "same bytes") == first
    assert render_board(view, EN, NAMES, "same bytes") == first  # from the kept base
    forget("same bytes")
