"""CPU per posted board over whole seeded games, old path against fast path, and the picture pool's throughput.

Seeded games of sensible bots (2–5 players, both maps) are played with rules.ttr's engine; a board is drawn
wherever the bot would post one (where `board_key` changes: a claim, a station, a tunnel) and at the end. Each board
is drawn both ways, one after the other, so both see the same machine:
  old:  the full redraw mapped to the board's palette and written by Pillow (what render_board did before);
  fast: render/ttr/posted.py, from the game's base in this process.
Printed: CPU ms per board (averaged over all boards of all games), fast/old as a ratio, bytes per board, the
per-game base's hits and misses and the panel pieces' hit rate. Both paths start with warm sprites (two other games
are drawn first), as in a bot that has run for a while. Then the pool's throughput: boards/s of games drawn by 2
worker processes (bot/drawing.py, each game in its own worker) against the old 2 threads.

Usage: .venv/bin/python bench/ttr_game_render.py [--seeds N] [--no-pool]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import text
from render.caches import cache_stats
from render.ttr.board import board_image, board_palette
from render.ttr.encode import encode
from render.ttr.mapart import art_words
from render.ttr.posted import BASES, base_bytes, render_board
from rules.ttr.actions import BuildStation
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.options import TtrOptions
from rules.ttr.view import PublicView

ENGINE = TicketToRideEngine()
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]
LABELS = functools.partial(text, "en")
Game = tuple[str, int, int]
"""Map, players, seed."""


def posted_views(map_id: str, players: int, seed: int) -> list[PublicView]:
    """The public views of a seeded game at each board the bot would post (and the last)."""
    state = ENGINE.new_game(TtrOptions.model_validate({"map": map_id}), players, seed)
    rng = random.Random(seed)
    shown: object = None
    views = []
    while True:
        view = ENGINE.view(state, None)
        assert isinstance(view, PublicView)
        tunnel = view.tunnel.track if view.tunnel is not None else None
        key = (tuple(sorted(view.owners.items())), tuple(sorted(view.stations.items())), tunnel)
        if key != shown or ENGINE.is_over(state):
            shown = key
            views.append(view)
        if ENGINE.is_over(state):
            return views
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            if rng.random() < 0.06:
                builds = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, BuildStation)]
                action = rng.choice(builds) if builds else action
            state, _ = ENGINE.apply(state, seat, action)


def old_board(view: PublicView) -> bytes:
    """The board as render_board drew it before: all of it, mapped to the palette, written by Pillow."""
    return encode(board_image(view, LABELS, NAMES), palette=board_palette(view.map, art_words(LABELS, view.map)))


def fast_board(view: PublicView, game: int) -> bytes:
    """The board as posted now, from the game's base."""
    return render_board(view, LABELS, NAMES, game)


def cpu(draw: Callable[[], bytes]) -> tuple[float, int]:
    """CPU seconds of one drawing and its size."""
    start = time.process_time()
    size = len(draw())
    return time.process_time() - start, size


def per_board(games: list[Game]) -> None:
    """Draw every posted board of the games both ways and print CPU and bytes per board."""
    rows: dict[str, list[tuple[float, float, int, int]]] = {}
    for number, (map_id, players, seed) in enumerate(games):
        for view in posted_views(map_id, players, seed):
            old_s, old_size = cpu(functools.partial(old_board, view))
            new_s, new_size = cpu(functools.partial(fast_board, view, number))
            rows.setdefault(f"{map_id} {players}p", []).append((old_s, new_s, old_size, new_size))
    heads = ("boards", "old ms", "fast ms", "fast/old", "old KiB", "fast KiB")
    print(f"{'games':12s} " + " ".join(f"{h:>8s}" for h in heads))
    every = [row for group in rows.values() for row in group]
    for name, group in [*sorted(rows.items()), ("all", every)]:
        old = statistics.mean(r[0] for r in group) * 1000
        new = statistics.mean(r[1] for r in group) * 1000
        old_kib = statistics.mean(r[2] for r in group) / 1024
        new_kib = statistics.mean(r[3] for r in group) / 1024
        print(f"{name:12s} {len(group):8d} {old:8.2f} {new:8.2f} {new / old:8.3f} {old_kib:8.1f} {new_kib:8.1f}")
    print(f"bytes fast/old: {sum(r[3] for r in every) / sum(r[2] for r in every):.3f}")
    kept = [base_bytes(base) for base in BASES.values()]
    print(f"a kept base weighs {statistics.mean(kept) / 1024:.0f} KiB on average, at most {max(kept) / 1024:.0f} KiB")
    for name, stats in cache_stats().items():
        asked = stats["hits"] + stats["misses"]
        rate = stats["hits"] / asked if asked else 0.0
        print(
            f"{name}: {stats['entries']}/{stats['max']} kept, {stats['hits']} hits, {stats['misses']} misses "
            f"({rate:.1%} hit rate), {stats['replaced']} replaced"
        )


def throughput(games: list[Game]) -> None:
    """Boards/s of the games' boards drawn by 2 worker processes (fast path) and by 2 threads (old path)."""
    from bot.workers import WorkerPool
    from render.ttr import warm

    boards = [posted_views(*game) for game in games]
    order = [  # the games' boards interleaved, as games in one bot move at once; each game's in order
        (number, views[turn])
        for turn in range(max(len(views) for views in boards))
        for number, views in enumerate(boards)
        if turn < len(views)
    ]
    with ThreadPoolExecutor(2) as threads:
        start = time.perf_counter()
        list(threads.map(old_board, [view for _, view in order]))
        old = len(order) / (time.perf_counter() - start)
    pool = WorkerPool("bench", 2)
    pool.first = functools.partial(warm, LABELS)
    pool.start()
    for number, view in order[:40]:  # a worker that has drawn a few games has its sprites
        pool.submit(number, render_board, view, LABELS, NAMES, -1 - number % 2).result()
    start = time.perf_counter()
    futures = [pool.submit(number, render_board, view, LABELS, NAMES, number) for number, view in order]
    for future in futures:
        future.result()
    new = len(order) / (time.perf_counter() - start)
    pool.shutdown()
    print(f"throughput, {len(order)} boards of {len(games)} games: old path in 2 threads {old:.0f} boards/s, ", end="")
    print(f"fast path in 2 worker processes {new:.0f} boards/s ({new / old:.2f}×)")


def main() -> None:
    """Warm the sprites, then print the per-board figures and the pool's throughput."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=1, help="games per map and player count")
    parser.add_argument("--no-pool", action="store_true")
    args = parser.parse_args()
    games = [(m, n, 100 * n + k) for k in range(args.seeds) for m in ("usa", "europe") for n in (2, 3, 4, 5)]
    for number, game in enumerate([("usa", 5, 1), ("europe", 5, 1)]):
        for view in posted_views(*game):
            old_board(view)
            fast_board(view, -1 - number)
    from render.caches import clear_counters

    clear_counters()
    per_board(games)
    if not args.no_pool:
        throughput(games[:4])


if __name__ == "__main__":
    main()
