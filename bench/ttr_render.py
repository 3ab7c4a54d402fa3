"""Time the Ticket to Ride pictures: end-game boards in every output format tried, the uncached first draw,
hands and score sheets (median and p90 of render + encode, and sizes).

Usage: .venv/bin/python bench/ttr_render.py [REPEATS]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttr_gallery import ENGINE, NAMES, play, seat_view

from bot.i18n import table
from render.ttr import board_image, render_board, render_hand, render_score_sheet, render_ticket_choice
from render.ttr.cards import card_image
from render.ttr.encode import FORMATS, Format, encode
from render.ttr.layout import map_layout
from render.ttr.mapart import map_art, warped_land
from render.ttr.minimap import mini_base
from render.ttr.panel import badge
from render.ttr.sprites import ring_sprite, station_sprite, train_sprite
from rules.ttr.view import PublicView

COLD_REPEATS = 3


def measure(draw: Callable[[], bytes], repeats: int) -> tuple[float, float, int]:
    """Median and p90 milliseconds of `draw` over `repeats` warm runs, and its output size in bytes."""
    draw()  # a running bot has long filled its caches
    times = []
    out = b""
    for _ in range(repeats):
        start = time.perf_counter()
        out = draw()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.9) - 1)], len(out)


def clear_caches() -> None:
    """Forget every cached layout, static layer and sprite, as in a freshly started bot."""
    for cached in (
        map_layout,
        map_art,
        warped_land,
        mini_base,
        train_sprite,
        ring_sprite,
        station_sprite,
        badge,
        card_image,
    ):
        cached.cache_clear()


def cold(draw: Callable[[], bytes]) -> float:
    """Median milliseconds of a first draw from empty caches."""
    times = []
    for _ in range(COLD_REPEATS):
        clear_caches()
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def encoded_board(view: PublicView, labels: dict[str, str], fmt: Format) -> bytes:
    """Draw the board and encode it in one of the formats tried."""
    return encode(board_image(view, labels, NAMES), fmt)


def drawn_board(view: PublicView, labels: dict[str, str]) -> bytes:
    """Draw the board without encoding it (the drawing's share of the time)."""
    board_image(view, labels, NAMES)
    return b""


def line(case: str, median: float, p90: float | None = None, size: int | None = None) -> None:
    """Print one row of the table."""
    p90_text = f"{p90:8.1f}" if p90 is not None else " " * 8
    size_text = f"{size / 1024:7.0f}" if size is not None else ""
    print(f"{case:46s} {median:9.1f} {p90_text} {size_text}")


def bench_map(map_id: str, labels: dict[str, str], repeats: int) -> None:
    """Every case for one map: an end-game board of five players, their hand, score sheet and a ticket offer."""
    end = play(map_id, 5, 7, stations=0.08)
    view = ENGINE.view(end, None)
    for fmt in FORMATS:
        line(f"{map_id} end-game board, {fmt}", *measure(partial(encoded_board, view, labels, fmt), repeats))
    median, p90, _ = measure(partial(drawn_board, view, labels), repeats)
    line(f"{map_id} end-game board, drawing only", median, p90)
    line(f"{map_id} end-game board, first draw (caches empty)", cold(partial(render_board, view, labels, NAMES)))
    line(f"{map_id} hand", *measure(partial(render_hand, seat_view(end, 0), labels, NAMES), repeats))
    line(f"{map_id} score sheet", *measure(partial(render_score_sheet, view, labels, NAMES), repeats))
    offer = seat_view(play(map_id, 5, 3, until=lambda s, k: True), 0)
    line(f"{map_id} ticket choice", *measure(partial(render_ticket_choice, offer, labels), repeats))


def main(repeats: int) -> None:
    """Print the table for both maps."""
    labels = table("en")
    print(f"{'case':46s} {'median ms':>9s} {'p90 ms':>8s} {'KiB':>7s}")
    for map_id in ("usa", "europe"):
        bench_map(map_id, labels, repeats)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
