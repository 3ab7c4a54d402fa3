"""What one move costs the store, on SQLite and on PostgreSQL, written as separate writes or as one.

Usage: python bench/storage.py [--games 20] [--moves 100] [--alone 2000] [--against OTHER_CHECKOUT]

`--games` games in play each make `--moves` moves at once (one asyncio task per game). A move is what the game
service stores for it: the action with the new snapshot and version, the turn timers (the mover's dropped, the next
seat's armed) and the version its channel shows. "separate" writes them as three writes (record_action, then
TimerStore.change, then mark_shown: how the service wrote a move before issue 14); "one write" passes the timers and
the shown version to record_action(also=…). Prints, per backend and way: moves/s, CPU µs per move of this process
(SQLite's thread included; PostgreSQL's server not), statements, transactions and hand-offs per move, and the ratio
of one write to separate; then what one move costs alone: one game making `--alone` moves one after another (one
write each), wall and CPU µs per move. PostgreSQL runs on a throwaway server (as the tests start it) when
PostgreSQL 15 is installed.

`--against` compares instead the per-move cost alone on SQLite of this checkout's bot with another checkout's (say,
an older commit in a second worktree), in one run: each is measured in a process of its own, in turns, and the
medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def code_root() -> Path:
    """The checkout whose bot is measured: this one, or the one `--code` names (how `--against` measures another)."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--code", type=Path, default=HERE)
    return early.parse_known_args()[0].code.resolve()


sys.path.insert(0, str(code_root()))

from bot.storage.database import Database  # noqa: E402
from bot.storage.games import GameRecord, GameStore, SeatRecord  # noqa: E402
from bot.storage.timers import TimerStore, TurnTimer  # noqa: E402
from tests import postgres  # noqa: E402

try:
    from bot.storage.opening import open_database
except ImportError:  # a checkout measured with --against from before the opening had a module of its own
    from bot.storage.database import open_database  # type: ignore[attr-defined,no-redef]

SNAPSHOT = '{"board": "' + "x" * 6000 + '"}'  # about the size of a Ticket to Ride snapshot
SEATS = 4

Move = Callable[[GameStore, TimerStore, GameRecord, int], Awaitable[GameRecord]]


async def separate(games: GameStore, timers: TimerStore, record: GameRecord, turn: int) -> GameRecord:
    """A move as three writes: the action, then the timers, then the version shown."""
    seat, following = turn % SEATS, (turn + 1) % SEATS
    record = await games.record_action(record, seat, f"claim:{turn}", SNAPSHOT, finished=False)
    await timers.change(record.id, drop=[seat], put=[TurnTimer(record.id, following, "timeout", turn, turn + 60.0)])
    await games.database.write([games.shown_statement(record.id, record.version)])
    return record


async def one_write(games: GameStore, timers: TimerStore, record: GameRecord, turn: int) -> GameRecord:
    """A move as one write: the timers and the version shown come with the action."""
    seat, following = turn % SEATS, (turn + 1) % SEATS
    timer = TurnTimer(record.id, following, "timeout", turn, turn + 60.0)
    also = [
        *timers.change_statements(record.id, drop=[seat], put=[timer]),
        games.shown_statement(record.id, record.version + 1),
    ]
    return await games.record_action(record, seat, f"claim:{turn}", SNAPSHOT, finished=False, seq=turn, also=also)


async def measure(database: Database, move: Move, games_count: int, moves: int) -> dict[str, float]:
    """Play the moves of every game at once; return the rates and counts per move."""
    games, timers = GameStore(database), TimerStore(database)
    records = []
    for index in range(games_count):
        seats = [SeatRecord(seat=s, name=f"P{s}", user_id=index * 10 + s + 1) for s in range(SEATS)]
        lobby = await games.create_game(
            game="ticket-to-ride", guild_id=1, channel_id=index + 1, host_id=seats[0].user_id or 0, options={},
            seed=index, seats=seats,
        )  # fmt: skip
        records.append(await games.start(lobby, seats, SNAPSHOT))

    async def play(record: GameRecord) -> None:
        for turn in range(1, moves + 1):
            record = await move(games, timers, record, turn)

    stats = database.stats
    before = (stats.statements, stats.transactions, stats.handoffs)
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(play(record) for record in records))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    total = games_count * moves
    return {
        "moves/s": total / wall,
        "cpu_us": cpu / total * 1e6,
        "statements": (stats.statements - before[0]) / total,
        "transactions": (stats.transactions - before[1]) / total,
        "handoffs": (stats.handoffs - before[2]) / total,
    }


async def alone(database: Database, moves: int) -> dict[str, float]:
    """One game making its moves one after another, each one write: wall and CPU µs per move."""
    games, timers = GameStore(database), TimerStore(database)
    seats = [SeatRecord(seat=s, name=f"P{s}", user_id=s + 1) for s in range(SEATS)]
    lobby = await games.create_game(
        game="ticket-to-ride", guild_id=1, channel_id=1, host_id=1, options={}, seed=0, seats=seats
    )
    record = await games.start(lobby, seats, SNAPSHOT)
    wall, cpu = time.perf_counter(), time.process_time()
    for turn in range(1, moves + 1):
        record = await one_write(games, timers, record, turn)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"wall_us": wall / moves * 1e6, "cpu_us": cpu / moves * 1e6}


async def bench(backend: str, target: Callable[[], Awaitable[Path | str]], args: argparse.Namespace) -> None:
    """Measure both ways of writing a move on fresh databases of one backend and print them."""
    results = {}
    for name, move in (("separate", separate), ("one write", one_write)):
        database = await open_database(await target())
        try:
            results[name] = await measure(database, move, args.games, args.moves)
        finally:
            await database.close()
        r = results[name]
        print(
            f"{backend:<10} {name:<9}  {r['moves/s']:8.0f} moves/s  {r['cpu_us']:7.0f} µs CPU/move  per move:"
            f" {r['statements']:4.1f} statements {r['transactions']:3.1f} transactions {r['handoffs']:4.1f} hand-offs"
        )
    a, b = results["separate"], results["one write"]
    print(
        f"{backend:<10} one write / separate: moves/s ×{b['moves/s'] / a['moves/s']:.2f},"
        f" CPU per move ×{b['cpu_us'] / a['cpu_us']:.2f}, hand-offs ×{b['handoffs'] / a['handoffs']:.2f}"
    )
    database = await open_database(await target())
    try:
        one = await alone(database, args.alone)
    finally:
        await database.close()
    print(
        f"{backend:<10} one move alone ({args.alone} in a row, one game):"
        f" {one['wall_us']:5.0f} µs wall {one['cpu_us']:5.0f} µs CPU per move"
    )


async def alone_on_sqlite(moves: int) -> dict[str, float]:
    """The per-move cost alone on a fresh SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        database = await open_database(Path(folder) / "bench.sqlite3")
        try:
            return await alone(database, moves)
        finally:
            await database.close()


def against(other: Path, args: argparse.Namespace) -> None:
    """Measure the per-move cost alone on SQLite of this checkout's bot and of `other`'s, in turns, each in a
    process of its own; print the medians and their ratio."""
    checkouts = {"this": code_root(), "against": other.resolve()}
    found: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, code in checkouts.items():
            command = [sys.executable, __file__, "--code", str(code), "--alone", str(args.alone), "--json-alone"]
            output = subprocess.run(command, check=True, capture_output=True, text=True, cwd=code).stdout
            measured = json.loads(output.splitlines()[-1])
            if not Path(measured.pop("driver")).is_relative_to(code):
                raise SystemExit(f"the run meant for {code} imported its bot from elsewhere")
            found[name].append(measured)
    print(f"SQLite, one move alone ({args.alone} in a row, one game), median of {args.rounds} runs taken in turns:")
    median = {
        name: {k: statistics.median(r[k] for r in runs) for k in ("wall_us", "cpu_us")} for name, runs in found.items()
    }
    for name, code in checkouts.items():
        m = median[name]
        print(f"  {name:<8} {m['wall_us']:6.0f} µs wall {m['cpu_us']:6.0f} µs CPU per move  ({code})")
    a, b = median["this"], median["against"]
    print(f"  this / against: wall ×{a['wall_us'] / b['wall_us']:.2f}, CPU ×{a['cpu_us'] / b['cpu_us']:.2f}")


async def main() -> None:
    """Run the bench on SQLite, then on a throwaway PostgreSQL if one can be started."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--alone", type=int, default=2000, help="moves in a row of the one game measured alone")
    parser.add_argument("--against", type=Path, help="another checkout whose bot's per-move cost to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each checkout with --against")
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout whose bot to measure")
    parser.add_argument("--json-alone", action="store_true", help="print only the per-move cost alone, as JSON")
    args = parser.parse_args()
    if args.json_alone:
        measured = await alone_on_sqlite(args.alone)
        print(json.dumps({**measured, "driver": sys.modules[open_database.__module__].__file__}))
        return
    if args.against is not None:
        against(args.against, args)
        return
    print(f"{args.games} games × {args.moves} moves each, all games at once")
    with tempfile.TemporaryDirectory() as folder:
        files = iter(range(1_000))

        async def sqlite_file() -> Path:
            return Path(folder) / f"bench-{next(files)}.sqlite3"

        await bench("sqlite", sqlite_file, args)
    if not postgres.installed():
        print("postgresql skipped: PostgreSQL 15 is not installed (apt install postgresql-15)")
        return
    async with AsyncExitStack() as stack:
        server = stack.enter_context(postgres.throwaway_server())

        async def postgres_database() -> str:
            name = await server.create_database()
            stack.push_async_callback(server.drop_database, name)
            return server.url(name)

        await bench("postgresql", postgres_database, args)


if __name__ == "__main__":
    asyncio.run(main())
