"""Views of seeded Ticket to Ride games for the render tests, played once per test session."""

from __future__ import annotations

import random
import tomllib
from functools import cache
from pathlib import Path

import pytest

from render.ttr.layout import map_layout
from render.ttr.mapart import art_words, map_art
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.options import TtrOptions
from rules.ttr.state import TtrState
from rules.ttr.view import SeatView

ENGINE = TicketToRideEngine()
ROOT = Path(__file__).resolve().parents[3]
NAMES = ["Alice", "Борис", "Chen", "Dmitri", "Eve"]


def play(map_id: str, n: int, seed: int, moves: int | None = None) -> TtrState:
    """A seeded game of sensible bots, stopped after `moves` moves or at its end."""
    state = ENGINE.new_game(TtrOptions.model_validate({"map": map_id}), n, seed)
    rng = random.Random(seed)
    done = 0
    while not ENGINE.is_over(state) and (moves is None or done < moves):
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "sensible"))
            done += 1
    return state


def seat_view(state: TtrState, seat: int) -> SeatView:
    """A seat's own view of a state."""
    view = ENGINE.view(state, seat)
    assert isinstance(view, SeatView)
    return view


def picture_words(lang: str) -> dict[str, str]:
    """The flattened `ttr_picture.*` table of one language."""
    data = tomllib.loads((ROOT / "bot" / "i18n" / lang / "ttr_picture.toml").read_text(encoding="utf-8"))
    flat: dict[str, str] = {}

    def walk(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(f"{prefix}.{key}", value)
            else:
                flat[f"{prefix}.{key}"] = str(value)

    walk("ttr_picture", data)
    return flat


def clear_of_names(map_id: str, point: tuple[float, float], reach: float = 3.0) -> bool:
    """Whether a board point (in English) lies away from every city's name plate and dot: the names lie over the
    bands, and in crowded corners over some car spaces too."""
    x, y = point
    if any(x0 - reach <= x <= x1 + reach and y0 - reach <= y <= y1 + reach for x0, y0, x1, y1 in _plates(map_id)):
        return False
    return all(abs(x - cx) > 14 or abs(y - cy) > 14 for cx, cy in map_layout(map_id).cities.values())


@cache
def _plates(map_id: str) -> list[tuple[float, float, float, float]]:
    """The English board's city name plates (asked for every sampled pixel: read once)."""
    art = map_art(map_id, art_words(picture_words("en"), map_id))
    return [spot.label for spot in art.spots.values()]


@pytest.fixture(scope="session")
def usa_end() -> TtrState:
    return play("usa", 5, 7)


@pytest.fixture(scope="session")
def europe_end() -> TtrState:
    return play("europe", 5, 7)


@pytest.fixture(scope="session")
def usa_opening() -> TtrState:
    return play("usa", 3, 2, moves=0)


@pytest.fixture(scope="session")
def europe_middle() -> TtrState:
    return play("europe", 4, 11, moves=90)
