"""What a backup of the SQLite store costs: the time to take one and restore it, and its size, for a store of N games.

Usage: python bench/backup.py [--games 1000] [--samples 3]

The store is filled with whole games of every kind played by bot players (a few per kind, played once and stored
N times over with their whole logs and final snapshots, as finished games are kept), then backed up `--samples` times
as the bot's schedule does (`bot.storage.backup.take_backup`) and restored once into a new file. Prints the store's
and the backup's size, the median wall time of a backup and the time of the restore.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import GAMES
from bot.storage.backup import restore, take_backup
from bot.storage.database import Statement, now_iso
from bot.storage.opening import open_database
from rules.history import bots_play

PLAYED = 3
"""Games actually played per kind (the store holds copies of them)."""


def played() -> list[tuple[str, int, list[tuple[int, str]], str]]:
    """A few whole games of each kind: (kind, players, log, final snapshot JSON)."""
    games = []
    for kind, info in sorted(GAMES.items()):
        engine = info.engine
        for seed in range(PLAYED):
            players = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
            log = bots_play(engine, {}, players, seed)
            state = engine.replay(engine.load_options({}), players, seed, log)
            games.append((kind, players, log, state.model_dump_json()))
    return games


async def fill(path: Path, count: int) -> None:
    """Store `count` finished games, copies of the played ones, one write per game as the bot stores a finish."""
    database = await open_database(path)
    samples = played()
    try:
        for n in range(count):
            kind, players, log, state = samples[n % len(samples)]
            seed = n % PLAYED
            stamp = now_iso()
            game_id = await database.fetchval(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version, state,"
                " created_at, updated_at) VALUES (?, 1, ?, 1, 'finished', '{}', ?, ?, ?, ?, ?) RETURNING id",
                (kind, 1000 + n, seed, len(log), state, stamp, stamp),
            )
            await database.write(
                [
                    Statement(
                        "INSERT INTO seats (game_id, seat, user_id, bot_kind, name) VALUES (?, ?, ?, NULL, ?)",
                        [(game_id, seat, 10 + seat, f"Player {seat}") for seat in range(players)],
                        many=True,
                    ),
                    Statement(
                        "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                        [(game_id, seq, seat, text, stamp) for seq, (seat, text) in enumerate(log, start=1)],
                        many=True,
                    ),
                ]
            )
    finally:
        await database.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "games.sqlite3"
        asyncio.run(fill(database, args.games))
        times = []
        for sample in range(args.samples):
            started = time.perf_counter()
            backup = take_backup(database, Path(folder) / "backups", keep=1)
            times.append(time.perf_counter() - started)
            if sample + 1 < args.samples:
                backup.unlink()  # the next one, taken within the same second, would have the same name
        started = time.perf_counter()
        restore(backup, Path(folder) / "restored.sqlite3")
        restored = time.perf_counter() - started
        store_size = database.stat().st_size + sum(p.stat().st_size for p in Path(folder).glob("games.sqlite3-*"))
        print(f"store of {args.games} finished games: {store_size / 1e6:.1f} MB (database and its WAL)")
        median = statistics.median(times)
        print(f"backup: {backup.stat().st_size / 1e6:.1f} MB, median {median:.2f} s of {args.samples}")
        print(f"restore into a new file: {restored:.2f} s")


if __name__ == "__main__":
    main()
