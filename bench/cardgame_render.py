"""Time the card game's pictures: the table (2 and 4 players, mid game), a hand, a ticket choice, the first and
final scorings (summary and detail); median and p90 of drawing + encoding, the drawing's share, the first draw
from empty caches, and sizes.

Usage: .venv/bin/python bench/cardgame_render.py [REPEATS]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgame_gallery import ENGINE, NAMES, labels_for, play, robbed_just_now, seat_view

from render.cardgame import (
    render_hand,
    render_scoring,
    render_scoring_detail,
    render_table,
    scoring_image,
    table_image,
)
from render.cardgame.pieces import back_image, rimmed_card
from render.ttr.cards import card_image
from render.ttr.panel import badge

COLD_REPEATS = 3


def measure(draw: Callable[[], object], repeats: int) -> tuple[float, float, int]:
    """Median and p90 milliseconds of `draw` over `repeats` warm runs, and its output size in bytes."""
    draw()  # a running bot has long filled its caches
    times = []
    out: object = b""
    for _ in range(repeats):
        start = time.perf_counter()
        out = draw()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    size = len(out) if isinstance(out, bytes) else 0
    return statistics.median(times), times[max(0, int(len(times) * 0.9) - 1)], size


def cold(draw: Callable[[], object]) -> float:
    """Median milliseconds of a first draw from empty caches (card faces, backs, badges)."""
    times = []
    for _ in range(COLD_REPEATS):
        for cached in (card_image, rimmed_card, back_image, badge):
            cached.cache_clear()
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def line(case: str, median: float, p90: float | None = None, size: int | None = None) -> None:
    """Print one row of the table."""
    p90_text = f"{p90:8.1f}" if p90 is not None else " " * 8
    size_text = f"{size / 1024:7.0f}" if size else ""
    print(f"{case:44s} {median:9.1f} {p90_text} {size_text}")


def main(repeats: int) -> None:
    """Print the table of cases."""
    labels = labels_for("en")
    print(f"{'case':44s} {'median ms':>9s} {'p90 ms':>8s} {'KiB':>7s}")
    middle = play(4, 5, robbed_just_now)
    two = play(2, 4, lambda s, m: m > 30 and s.phase == "turn")
    second = play(4, 9, lambda s, m: s.deck_number == 2 and s.phase == "turn")
    end = play(4, 12)
    public = ENGINE.view(middle, None)
    line("table, 4 players mid game", *measure(partial(render_table, public, labels, NAMES), repeats))
    line("table, 4 players, drawing only", *measure(partial(table_image, public, labels, NAMES), repeats)[:2])
    line("table, 4 players, first draw (caches empty)", cold(partial(render_table, public, labels, NAMES)))
    line("table, 2 players", *measure(partial(render_table, ENGINE.view(two, None), labels, NAMES), repeats))
    mine = seat_view(middle, middle.current)
    line("hand, 4 players mid game", *measure(partial(render_hand, mine, labels, NAMES), repeats))
    opening = play(4, 3, lambda s, m: m == 1)
    choosing = seat_view(opening, next(s for s in range(4) if not opening.players[s].chose_opening))
    line("hand, opening ticket choice", *measure(partial(render_hand, choosing, labels, NAMES), repeats))
    first = ENGINE.view(second, None)
    line("first scoring, 4 players", *measure(partial(render_scoring, first, labels, NAMES, "first"), repeats))
    final = ENGINE.view(end, None)
    line("final scoring, 4 players", *measure(partial(render_scoring, final, labels, NAMES, "final"), repeats))
    drawing = partial(scoring_image, final, labels, NAMES, "final")
    line("final scoring, 4 players, drawing only", *measure(drawing, repeats)[:2])
    detail = partial(render_scoring_detail, final, labels, NAMES, "final")
    line("final scoring detail, 4 players", *measure(detail, repeats))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
