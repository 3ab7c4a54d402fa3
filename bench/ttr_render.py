"""Time the Ticket to Ride pictures: the end-game board as the bot posts it and in every output format tried, the
uncached first draw, hands, score sheets and ticket choices (median and p90 of render + encode, and sizes).

Usage: .venv/bin/python bench/ttr_render.py [REPEATS] [--before DIR]

With `--before DIR` (an export of an older tree, e.g. `git archive HEAD | tar -x -C DIR`) it instead times the
posted board of both trees, alternating them in fresh processes so both see the same machine load, and prints
the ratio. CPU time is shown beside wall time: on a shared machine it is the steadier of the two.
"""

from __future__ import annotations

import functools
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.ttr.view import PublicView

ROOT = Path(__file__).resolve().parents[1]
if os.environ.get("TTR_BENCH_ROOT"):
    sys.path.insert(0, os.environ["TTR_BENCH_ROOT"])  # the tree timed by `--before`, ahead of this one
else:
    sys.path.insert(0, str(ROOT))

COLD_REPEATS = 3
ROUNDS = 3
"""Alternations of the two trees with `--before`."""
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]


def measure(draw: Callable[[], bytes], repeats: int) -> tuple[float, float, float, int]:
    """Median and p90 wall milliseconds and median CPU milliseconds of `draw` over warm runs, and its size."""
    draw()  # a running bot has long filled its caches
    walls, cpus = [], []
    out = b""
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        out = draw()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    walls.sort()
    return statistics.median(walls), walls[max(0, int(len(walls) * 0.9) - 1)], statistics.median(cpus), len(out)


def line(case: str, median: float, p90: float | None = None, cpu: float | None = None, size: int | None = None) -> None:
    """Print one row of the table."""
    p90_text = f"{p90:8.1f}" if p90 is not None else " " * 8
    cpu_text = f"{cpu:8.1f}" if cpu is not None else " " * 8
    size_text = f"{size / 1024:7.0f}" if size is not None else ""
    print(f"{case:50s} {median:9.1f} {p90_text} {cpu_text} {size_text}")


def end_game(map_id: str) -> PublicView:
    """The public view of a seeded five-player end game (plain bots, so any tree can play it)."""
    from rules.ttr.actions import BuildStation
    from rules.ttr.engine import TicketToRideEngine
    from rules.ttr.options import TtrOptions

    engine = TicketToRideEngine()
    state = engine.new_game(TtrOptions.model_validate({"map": map_id}), 5, 7)
    rng = random.Random(7)
    while not engine.is_over(state):
        for seat in sorted(engine.to_act(state)):
            action = engine.bot_action(state, seat, rng, "sensible")
            if rng.random() < 0.08:
                builds = [a for a in engine.legal_actions(state, seat) if isinstance(a, BuildStation)]
                action = rng.choice(builds) if builds else action
            state, _ = engine.apply(state, seat, action)
    return engine.view(state, None)


def posted_boards(repeats: int) -> None:
    """Print `map wall-median cpu-median` of the posted end-game board of each map, for `--before`."""
    from bot.i18n import text
    from render.ttr import render_board

    labels = functools.partial(text, "en")
    for map_id in ("usa", "europe"):
        median, _, cpu, _ = measure(partial(render_board, end_game(map_id), labels, NAMES), repeats)
        print(map_id, f"{median:.2f}", f"{cpu:.2f}")


def compare(before: Path, repeats: int) -> None:
    """Time the posted board in the older tree and in this one, alternating, and print both and their ratio."""
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {"before": {}, "after": {}}
    for _ in range(ROUNDS):
        for name, root in (("before", before), ("after", ROOT)):
            env = {**os.environ, "TTR_BENCH_ROOT": str(root)}
            out = subprocess.run(
                [sys.executable, __file__, str(repeats), "--posted"], env=env, cwd=root, check=True, capture_output=True
            ).stdout.decode()
            for row in out.splitlines():
                map_id, wall, cpu = row.split()
                runs[name].setdefault(map_id, []).append((float(wall), float(cpu)))
    print(f"{'posted end-game board':24s} {'before ms':>16s} {'after ms':>16s} {'after/before':>14s}")
    print(f"{'':24s} {'wall':>8s}{'cpu':>8s} {'wall':>8s}{'cpu':>8s} {'wall':>7s}{'cpu':>7s}")
    for map_id in runs["after"]:
        b = [statistics.median(v) for v in zip(*runs["before"][map_id], strict=True)]
        a = [statistics.median(v) for v in zip(*runs["after"][map_id], strict=True)]
        print(f"{map_id:24s} {b[0]:8.1f}{b[1]:8.1f} {a[0]:8.1f}{a[1]:8.1f} {a[0] / b[0]:7.2f}{a[1] / b[1]:7.2f}")


def bench_map(map_id: str, repeats: int) -> None:
    """Every case for one map: an end-game board of five players, their hand, score sheet and a ticket offer."""
    from ttr_gallery import ENGINE, play, seat_view

    from bot.i18n import text
    from render.ttr import board_image, render_board, render_hand, render_score_sheet, render_ticket_choice
    from render.ttr.encode import FORMATS, encode

    labels = functools.partial(text, "en")
    end = play(map_id, 5, 7, stations=0.08)
    view = ENGINE.view(end, None)
    posted = partial(render_board, view, labels, NAMES)
    line(f"{map_id} end-game board, as posted, no kept base", *measure(posted, repeats))
    for fmt in FORMATS:
        encoded = partial(lambda f: encode(board_image(view, labels, NAMES), f), fmt)
        own = ", palette per picture" if fmt == "png-palette" else ""
        line(f"{map_id} end-game board, {fmt}{own}", *measure(encoded, repeats))
    median, p90, cpu, _ = measure(lambda: board_image(view, labels, NAMES).tobytes()[:0], repeats)
    line(f"{map_id} end-game board, drawing only", median, p90, cpu)
    line(f"{map_id} end-game board, first draw (caches empty)", cold(partial(render_board, view, labels, NAMES)))
    line(f"{map_id} hand", *measure(partial(render_hand, seat_view(end, 0), labels, NAMES), repeats))
    line(f"{map_id} score sheet", *measure(partial(render_score_sheet, view, labels, NAMES), repeats))
    offer = seat_view(play(map_id, 5, 3, until=lambda s, k: True), 0)
    line(f"{map_id} ticket choice", *measure(partial(render_ticket_choice, offer, labels), repeats))


def clear_caches() -> None:
    """Forget every cached layout, static layer, palette, sprite and game base, as in a freshly started bot."""
    from render.caches import clear_caches as clear_render_caches

    clear_render_caches()


def cold(draw: Callable[[], bytes]) -> float:
    """Median milliseconds of a first draw from empty caches."""
    times = []
    for _ in range(COLD_REPEATS):
        clear_caches()
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> None:
    """Print the table for both maps, or the comparison with an older tree."""
    repeats = int(argv[0]) if argv and argv[0].isdigit() else 30
    if "--posted" in argv:
        posted_boards(repeats)
    elif "--before" in argv:
        compare(Path(argv[argv.index("--before") + 1]).resolve(), repeats)
    else:
        print(f"{'case':50s} {'median ms':>9s} {'p90 ms':>8s} {'cpu ms':>8s} {'KiB':>7s}")
        for map_id in ("usa", "europe"):
            bench_map(map_id, repeats)


if __name__ == "__main__":
    main(sys.argv[1:])
