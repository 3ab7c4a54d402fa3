"""Size and CPU time of a finished game's replay animation and score chart (render/replay.py, render/chart.py).

A 5-player Europe game of Ticket to Ride is played by `normal` bots from a seed; then its log is replayed and drawn
as the bot does in its worker: the animation (one frame per turn, animated WebP, else GIF) and the chart. Each is
timed in CPU seconds of this process, best of 3, after one warm-up drawing (the map's art is drawn once per worker).
Printed: turns, bytes (against Discord's 10 MiB) and seconds of each, and the frame size.

Usage: .venv/bin/python bench/replay.py [--seed N] [--players N] [--map europe|usa] [--out DIR]
"""

from __future__ import annotations

import argparse
import functools
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.games import GAMES
from bot.i18n import text
from bot.ui.charts import draw_chart
from render.replay import EXTENSION, MAX_BYTES, render_game_replay
from rules.history import bots_play

GAME = GAMES["ticket-to-ride"]


def best_of_3(draw: Callable[[], bytes]) -> tuple[bytes, float]:
    """The drawing and its least CPU time of three."""
    times = []
    data = b""
    for _ in range(3):
        start = time.process_time()
        data = draw()
        times.append(time.process_time() - start)
    return data, min(times)


def main() -> None:
    """Play, draw, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--map", default="europe")
    parser.add_argument("--out", type=Path, default=None, help="write replay and chart here")
    args = parser.parse_args()
    log = bots_play(GAME.engine, {"map": args.map}, args.players, args.seed)
    names = [f"Player {seat + 1}" for seat in range(args.players)]
    labels = functools.partial(text, "en")
    options = {"map": args.map}
    call = (GAME.pictures, GAME.engine, options, args.players, args.seed, log, names, labels)
    chart_call = (GAME.pictures, GAME.engine, options, args.players, args.seed, log, names, "en")
    draw_chart(*chart_call)  # warm: the fonts, the engine
    replay, replay_s = best_of_3(lambda: render_game_replay(*call).data)
    chart, chart_s = best_of_3(lambda: draw_chart(*chart_call)[0])
    animation = Image.open(io.BytesIO(replay))
    print(f"{args.players}-player {args.map} game, seed {args.seed}: {len(log)} actions, {animation.n_frames} frames")
    print(
        f"replay ({EXTENSION}, {animation.width}x{animation.height}): {len(replay):,} bytes"
        f" ({len(replay) / MAX_BYTES:.0%} of 10 MiB), {replay_s:.2f} CPU s"
    )
    print(f"chart (png): {len(chart):,} bytes, {chart_s * 1000:.0f} CPU ms")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"replay.{EXTENSION}").write_bytes(replay)
        (args.out / "chart.png").write_bytes(chart)


if __name__ == "__main__":
    main()
