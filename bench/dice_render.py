"""Time the dice pictures: median and p90 of render + PNG encode, and the byte size of each example.

Usage: python bench/dice_render.py [REPEATS]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dice_examples import NAMES, finished_turns, score_views, turn_views

from bot.i18n import table
from render.dice import render_finished_turn, render_scores, render_turn


def measure(draw: Callable[[], bytes], repeats: int) -> tuple[float, float, int]:
    """Return the median and p90 milliseconds of `draw` over `repeats` runs, and its output size."""
    draw()  # the first call fills the sprite and font caches, as a running bot's has long been
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        png = draw()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9) - 1], len(png)


def main(repeats: int) -> None:
    """Print one line per example picture."""
    labels = table("en")
    cases: dict[str, Callable[[], bytes]] = {}
    for name, view in turn_views().items():
        cases[name] = partial(render_turn, view, labels, NAMES)
    for name, record in finished_turns().items():
        cases[name] = partial(render_finished_turn, record, labels, NAMES)
    for name, view in score_views().items():
        cases[name] = partial(render_scores, view, labels, NAMES)
    print(f"{'picture':<22}{'median ms':>10}{'p90 ms':>9}{'bytes':>8}")
    for name, draw in cases.items():
        median, p90, size = measure(draw, repeats)
        print(f"{name:<22}{median:>10.1f}{p90:>9.1f}{size:>8}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
