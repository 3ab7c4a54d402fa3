"""Memory of one process holding N active games: the fixed overhead, RSS per active game, and every cache's figures.

Run: `.venv/bin/python -m bench.memory` (`--sizes 0 100 1000`, `--moves 8`, `--more 300`, `--no-pictures`).

Each size runs in a fresh process, whose RSS is read after a garbage collection (/proc/self/statm). A process
imports the bot, starts the picture workers as a starting bot does (they draw the static art; their memory is shown
apart, as proportional set sizes), and opens a real SQLite file; then it opens N games through the GameService, a
quarter each of Ticket to Ride USA and Europe, the card game and dice, with 3–4 people, starts them and plays
`--moves` moves into each (chosen by the games' own bot players, made by `act` as a click would); each TTR board and
card-game table is drawn once through the bot's picture helpers and kept in the bot's bounded picture cache, which
counts. Then `--more` moves across the games, after which every cache of the rules, the renderer (in this process)
and the bot is listed with its size and hit rate. The controllers of bot/ui (what a turn message shows) are not
part of it: they need a Discord connection.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.drawing import PICTURES
from bot.exts.cardgame import _pictures as cardgame_pictures
from bot.exts.ttr import _pictures as ttr_pictures
from bot.games import GAMES
from bot.services.errors import ServiceError
from bot.services.games import GameService
from bot.services.lobby import LobbyService
from bot.services.moves import Moves
from bot.services.shown import ShownGames
from bot.storage.games import GameStore
from bot.storage.opening import open_database
from bot.ui.pictures import warm_workers
from rules.caches import all_caches

MIB = 1 << 20
KINDS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("ticket-to-ride", {"map": "usa"}, 4),
    ("ticket-to-ride", {"map": "europe"}, 4),
    ("ticket-to-ride-cards", {}, 3),
    ("dice", {}, 3),
)
"""(game, options, people) of the games opened, in turn."""


def rss() -> int:
    """This process's resident set in bytes, after a full garbage collection."""
    gc.collect()
    return _resident(Path("/proc/self"))


def workers_pss() -> int:
    """What this process's descendants (the render workers and what starts them) hold, in bytes: their proportional
    set sizes, so the pages they share are counted once."""
    total = 0
    pending = [Path("/proc/self")]
    while pending:
        for task in (pending.pop() / "task").iterdir():
            try:
                children = (task / "children").read_text().split()
                for pid in children:
                    rollup = (Path("/proc") / pid / "smaps_rollup").read_text().splitlines()
                    total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:")) * 1024
                    pending.append(Path("/proc") / pid)
            except FileNotFoundError:  # a thread or process that ended meanwhile
                continue
    return total


def _resident(process: Path) -> int:
    return int((process / "statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def hold_games(count: int, moves: int, more: int, pictures: bool) -> dict[str, Any]:
    """Open `count` games and play into them (see the module's docstring); return the figures as JSON-ready data."""
    if pictures:
        warm_workers(GAMES.values())
    with tempfile.TemporaryDirectory() as folder:
        database = await open_database(Path(folder) / "bench.sqlite3")
        service = GameService(GameStore(database), {g: info.engine for g, info in GAMES.items()})
        core = Moves(service, ShownGames(service))
        fixed = rss()
        fixed_workers = workers_pss()
        rng = random.Random(1)
        games: list[int] = []
        for number in range(count):
            game, options, people = KINDS[number % len(KINDS)]
            host = 1_000 * (number + 1)
            record = await LobbyService(service).open_lobby(
                game=game, guild_id=1, channel_id=host, host_id=host, host_name="P0", options=options
            )
            for seat in range(1, people):
                await LobbyService(service).join(record.id, host + seat, f"P{seat}")
            await LobbyService(service).start(record.id, host)
            for _ in range(moves):
                await _move(core, record.id, rng)
            if pictures and game != "dice":
                record = await service.get(record.id)
                public: Any = service.view(record.id, None)
                draw = ttr_pictures.board if game == "ticket-to-ride" else cardgame_pictures.table
                await draw("en", record, public)
            games.append(record.id)
        held = rss()
        held_workers = workers_pss()
        started = time.process_time()
        made = 0
        for number in range(more if games else 0):
            made += await _move(core, games[number % len(games)], rng)
        seconds = time.process_time() - started
        await core.shown.close()
        await service.close()
        await database.close()
    return {
        "games": count,
        "fixed": fixed,
        "rss": held,
        "fixed_workers": fixed_workers,
        "workers": held_workers,
        "moves": count * moves + made,
        "cpu_per_move": seconds / made if made else 0.0,
        "caches": _caches(),
    }


async def _move(core: Any, game_id: int, rng: random.Random) -> int:
    """Make one move of the first person to act, as their click would; 0 when the game is over."""
    try:
        record = await core.games.get(game_id)
    except ServiceError:  # finished
        return 0
    engine = core.games.engine(record.game)
    state = core.games.state(game_id)
    seat = min(engine.to_act(state))
    action = engine.bot_action(state, seat, rng, engine.bot_kinds[-1])
    user = next(s.user_id for s in record.seats if s.seat == seat)
    await core.act(game_id, user, action)
    return 1


def _caches() -> list[dict[str, Any]]:
    """Every cache used: the rules' registry, the renderer's functools caches, and the bot's picture cache."""
    found = [_row(c.name, c.size, c.weight, c.budget, c.unit, c.hits, c.misses) for c in all_caches()]
    for module_name, module in sorted(sys.modules.items()):
        if module_name.startswith("render."):
            for value in vars(module).values():
                info = getattr(value, "cache_info", None)
                if callable(info) and getattr(value, "__module__", None) == module_name:
                    hits, misses, budget, size = info()
                    name = f"{module_name}.{value.__qualname__}"
                    found.append(_row(name, size, size, budget, "entries", hits, misses))
    kept = len(PICTURES._kept)  # the picture cache tells what its entries weigh, not how many there are
    budget, hits, misses = PICTURES.max_bytes, PICTURES.hits, PICTURES.misses
    found.append(_row("bot.drawing.PICTURES", kept, PICTURES.size, budget, "bytes", hits, misses))
    return [row for row in found if row["size"] or row["lookups"]]


def _row(name: str, size: int, weight: int, budget: int | None, unit: str, hits: int, misses: int) -> dict[str, Any]:
    lookups = hits + misses
    rate = hits / lookups if lookups else None
    return {
        "name": name,
        "size": size,
        "weight": weight,
        "budget": budget,
        "unit": unit,
        "lookups": lookups,
        "hit_rate": rate,
    }


def child(args: argparse.Namespace) -> None:
    """Measure one size and print its figures as one line of JSON."""
    figures = asyncio.run(hold_games(args.child, args.moves, args.more, not args.no_pictures))
    print(json.dumps(figures))


def _measure(size: int, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "bench.memory", "--child", str(size), "--moves", str(args.moves)]
    command += ["--more", str(args.more)] + (["--no-pictures"] if args.no_pictures else [])
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _print_caches(caches: list[dict[str, Any]]) -> None:
    print(f"  {'cache':52} {'entries':>8} {'weight / budget':>24} {'hit rate':>8}")
    for c in caches:
        if c["unit"] == "bytes":
            budget = "unbounded" if c["budget"] is None else f"{c['budget'] / MIB:.0f} MiB"
            weight = f"{c['weight'] / MIB:.1f} MiB / {budget}"
        else:
            weight = f"{c['weight']} / {'unbounded' if c['budget'] is None else c['budget']}"
        rate = "n/a" if c["hit_rate"] is None else f"{100 * c['hit_rate']:.1f}%"
        print(f"  {c['name']:52} {c['size']:>8} {weight:>24} {rate:>8}")


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 100, 1000], help="active games per process")
    parser.add_argument("--moves", type=int, default=8, help="moves played into each game before measuring")
    parser.add_argument("--more", type=int, default=300, help="moves played across the games after measuring")
    parser.add_argument("--no-pictures", action="store_true", help="draw no boards (and no static art)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args)
        return
    pictures = "without pictures" if args.no_pictures else "a board or table drawn once per game (dice: none)"
    print(f"RSS of one process holding N active games, {args.moves} moves into each, {pictures}:")
    measured = {size: _measure(size, args) for size in sorted(set(args.sizes))}
    smallest = measured[min(measured)]
    fixed = smallest["fixed"]
    what = "database" if args.no_pictures else "picture cache, database"
    print(f"  fixed overhead (imports, {what}; no game): {fixed / MIB:.1f} MiB")
    if smallest["fixed_workers"]:
        workers = smallest["fixed_workers"] / MIB
        print(f"  render workers (other processes, the static art in each): {workers:.1f} MiB (PSS) at start")
    for size, figures in measured.items():
        if size:  # against the same process before its first game: no noise from another start
            per_game = (figures["rss"] - figures["fixed"]) / size
            workers = f"; render workers {figures['workers'] / MIB:.1f} MiB (PSS)" if figures["workers"] else ""
            line = f"RSS {figures['rss'] / MIB:.1f} MiB, {per_game / 1024:.1f} KiB per active game{workers}"
            print(f"  {size:>5} games: {line}")
    sizes = sorted(s for s in measured if s)
    for smaller, larger in itertools.pairwise(sizes):  # without what the first games warm up once
        added = (measured[larger]["rss"] - measured[smaller]["rss"]) / (larger - smaller)
        print(f"  from {smaller} to {larger} games: {added / 1024:.1f} KiB per game added")
    largest = measured[max(measured)]
    print(
        f"Caches after {largest['moves']} moves in the {largest['games']}-game process "
        f"({1000 * largest['cpu_per_move']:.2f} ms CPU per move of the last {args.more}):"
    )
    _print_caches(largest["caches"])


if __name__ == "__main__":
    main()
