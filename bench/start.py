"""Process start → gateway ready: wall time and CPU of every process before ready, on the local Discord.

Run: python -m bench.start [--games 0,1000] [--rounds 3] [--against DIR] [--sandbox]

Each start is a fresh process (`python bench/start.py --child`) that imports the bot, opens a SQLite store holding
`--games` running Ticket to Ride games (a few moves each), connects to a local Discord and prints when it is ready;
the wall time runs from before the process is created, and the CPU time adds up that process and every process it
started (picture and thinking workers) at the moment it is ready. Each count is measured with a cold art store
(an empty folder: the first start after an install) and a warm one (filled by an earlier start that drew a board
and a hand). `--against DIR` measures another checkout the same way in the same run, alternating start by start, and
prints the ratio; `--sandbox` also times `python -m bot` (a whole offline dice game, from a fresh install's state) in
each tree.
The child runs only APIs the bot has had since its first sharded release, so an older checkout can be measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
TREE = HERE.parent.parent


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of a process and all its living descendants, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    family = {root}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        grew = bool(more)
        family |= more
    return sum(cpu.get(pid, 0.0) for pid in family)


async def child(database: Path, art: Path, draw: bool) -> dict[str, float]:
    """In the measured process: start the bot on the store, note when it is ready (and optionally draw pictures)."""
    from bot.app import create_bot
    from bot.sandbox.run import sandbox_settings
    from localdiscord import LocalDiscord, LocalUser

    settings = sandbox_settings(database, bot_move_delay=0)
    if "art_folder" in type(settings).model_fields:
        settings = settings.model_copy(update={"art_folder": art})
    people = [LocalUser(name=name) for name in ("Ann", "Ben")]
    channels = ("trains", "trains-usa", "trains-europe")
    async with LocalDiscord(users=people, channels=channels, timeout=600, ack_deadline=None) as discord:
        bot = create_bot(settings)
        async with discord.connected(bot, timeout=600):
            figures = {"ready_cpu_s": tree_cpu(os.getpid())}
            print("READY", flush=True)
            if draw:  # fill the art store as players would: a board and a hand of each map
                await bot.config.change(discord.guild_id, lambda c: c.model_copy(update={"threads": False}))
                for map_id in ("usa", "europe"):
                    await draw_pictures(discord, people, f"trains-{map_id}", map_id)
    return figures


async def draw_pictures(discord: Any, people: list[Any], channel: str, map_id: str) -> None:
    """Open a 2-player Ticket to Ride game through the bot's slash commands and buttons; ask for /board and /hand."""
    host, guest = people
    lobby = (await discord.slash(host, "newgame ticket-to-ride", {"map": map_id}, channel=channel)).message
    for person, verb in ((guest, "join"), (host, "start")):
        message = discord.message(lobby.id)
        button = next(c for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await discord.click(person, message, button["custom_id"])
    for command in ("board", "hand"):
        await (await discord.slash(host, command, channel=channel)).private_answer()


async def stored_games(database: Path, count: int) -> None:
    """Fill a store with `count` running 2-player Ticket to Ride games, each six moves in, through the service."""
    import random

    from bot.games import GAMES
    from bot.services.games import GameService
    from bot.services.lobby import LobbyService
    from bot.services.moves import Moves
    from bot.services.shown import ShownGames
    from bot.storage.games import GameStore
    from bot.storage.opening import open_database

    store = await open_database(database)
    service = GameService(GameStore(store), {g: info.engine for g, info in GAMES.items()})
    moves = Moves(service, ShownGames(service))
    engine = service.engine("ticket-to-ride")
    try:
        for index in range(count):
            record = await LobbyService(service).open_lobby(
                game="ticket-to-ride", guild_id=1, channel_id=10_000 + index, host_id=1, host_name="Ann"
            )
            await LobbyService(service).join(record.id, 2, "Ben")
            await LobbyService(service).start(record.id, 1)
            rng = random.Random(index)
            for _ in range(6):
                state = service.state(record.id)
                seat = min(engine.to_act(state))
                action = engine.bot_action(state, seat, rng, "sensible")
                await moves.act(record.id, 1 if seat == 0 else 2, action)
        await moves.shown.close()
        await service.close()
    finally:
        await store.close()


def run_child(tree: Path, *args: str) -> tuple[float, dict[str, float]]:
    """Start a measured process in `tree`; (seconds from creating it to its READY line, its figures)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "CONDUCTOR_LOG_LEVEL": "WARNING"}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(HERE), "--child", *args], cwd=tree, env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    ready = None
    lines = []
    for line in process.stdout:
        if line.strip() == "READY" and ready is None:
            ready = time.perf_counter() - started
        lines.append(line)
    if process.wait() != 0 or ready is None:
        raise SystemExit(f"the child in {tree} failed:\n{''.join(lines)}")
    return ready, json.loads(lines[-1])


def prepared(tree: Path, folder: Path, games: int) -> Path:
    """A store of `games` games made by `tree`'s own code (each tree migrates to its own schema)."""
    path = folder / f"{tree.name}-{games}.sqlite3"
    if not path.exists():
        env = {**os.environ, "PYTHONPATH": str(tree), "CONDUCTOR_LOG_LEVEL": "WARNING"}
        subprocess.run([sys.executable, str(HERE), "--prepare", str(path), str(games)], cwd=tree, env=env, check=True)
    return path


def measure(tree: Path, folder: Path, games: int, art: str) -> tuple[float, float]:
    """One start of `tree` on a copy of its store of `games` games, with the art store `cold` or `warm`."""
    database = folder / "run.sqlite3"
    shutil.copyfile(prepared(tree, folder, games), database)
    store = folder / f"art-{tree.name}"
    if art == "cold":
        shutil.rmtree(store, ignore_errors=True)
    elif not store.exists():
        run_child(tree, str(database), str(store), "draw")
        shutil.copyfile(prepared(tree, folder, games), database)
    wall, figures = run_child(tree, str(database), str(store), "")
    return wall, figures["ready_cpu_s"]


def sandbox(tree: Path) -> tuple[float | None, float]:
    """`python -m bot` in `tree` (a whole offline dice game) from a fresh install's state (no art kept, no caches):
    seconds until it opens the game (None where it does not say so) and until it exits."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "PYTHONPATH": str(tree), "XDG_CACHE_HOME": scratch}
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--seed", "1", "--out", scratch],
            cwd=tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert process.stdout is not None
        opened = None
        for line in process.stdout:
            if opened is None and "opening the game" in line:
                opened = time.perf_counter() - started
        if process.wait() != 0:
            raise SystemExit(f"python -m bot failed in {tree}")
        return opened, time.perf_counter() - started


def main() -> None:
    """Parse flags, measure each tree alternately, print the figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="0,1000", help="stored running games, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="starts per figure (the median is printed)")
    parser.add_argument("--against", type=Path, help="another checkout to measure alternately (e.g. the base)")
    parser.add_argument("--sandbox", action="store_true", help="also time `python -m bot` to its exit")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--prepare", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        database, art, draw = args.child
        print(json.dumps(asyncio.run(child(Path(database), Path(art), draw == "draw"))))
        return
    if args.prepare:
        asyncio.run(stored_games(Path(args.prepare[0]), int(args.prepare[1])))
        return
    trees = [TREE, *([args.against.resolve()] if args.against else [])]
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as scratch:
        for games in (int(n) for n in args.games.split(",")):
            for art in ("cold", "warm"):
                samples: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in trees}
                for _ in range(args.rounds):
                    for tree in trees:
                        folder = Path(scratch) / tree.name
                        folder.mkdir(exist_ok=True)
                        samples[tree].append(measure(tree, folder, games, art))
                walls = {tree: statistics.median(w for w, _ in s) for tree, s in samples.items()}
                cpus = {tree: statistics.median(c for _, c in s) for tree, s in samples.items()}
                line = f"{games:>5} games, art {art}: " + "; ".join(
                    f"{tree.name} ready {walls[tree]:.2f} s wall, {cpus[tree]:.2f} CPU-s" for tree in trees
                )
                if args.against:
                    other = trees[1]
                    line += f"; ratio {walls[other] / walls[TREE]:.1f}x wall, {cpus[other] / cpus[TREE]:.1f}x CPU"
                print(line, flush=True)
    if args.sandbox:
        runs: dict[Path, list[tuple[float | None, float]]] = {tree: [] for tree in trees}
        for _ in range(args.rounds):
            for tree in trees:
                runs[tree].append(sandbox(tree))
        for tree, times in runs.items():
            opened = [o for o, _ in times if o is not None]
            said = f"opens its game after {statistics.median(opened):.1f} s, " if opened else ""
            exit_s = statistics.median(e for _, e in times)
            print(f"python -m bot (dice, fresh install) in {tree.name}: {said}exits after {exit_s:.1f} s (median)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
