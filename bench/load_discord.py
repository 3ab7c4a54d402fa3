"""Busy games across K bot processes on the local Discord: what one process (or K sharing PostgreSQL) carries.

Run: python -m bench.load_discord [--games 200,500] [--processes 1,2] [--period 30] [--seconds 60]

The bot runs as it would on a server: K processes (`python -m bot.sandbox.child`, shard i of K each), on a SQLite
file for one process and on a throwaway PostgreSQL 15 (tests/postgres.py; fsync off) for several. This process is
the local Discord and the people: N dice games of two people, spread over servers of at most 250 games (servers on
every shard), each person clicking the move the game's sensible bot would choose, once every `--period` seconds per
game (open loop: a move is due at its time whatever happened to the last one); a game that ends is replaced. Dice,
because its moves are one button each, so the people here cost little; every move still goes through the whole bot
(interaction, move, store, timers, the turn message edited with its picture).

Prints, per N and K: moves/s due and served, click → first answer p50/p99 (the stand-in's clock, from dispatching
the interaction until the bot acknowledged it), CPU of each bot process (with its picture workers) and of this one,
RSS per bot process, database bytes per game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bench.loads import Run, family_usage
from bot.games import GAMES
from bot.sandbox.table import bot_policy, button_for, public_controls
from bot.services.guild_config import GuildConfigService
from bot.storage.database import Database
from bot.storage.games import GameRecord, GameStore
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.opening import open_database
from localdiscord import LocalDiscord, LocalUser
from rules.dice import DiceEngine

ENGINE = DiceEngine()
GAMES_PER_SERVER = 250
GAMES_PER_PERSON = 40
STARTUP_TIMEOUT = 300.0


@dataclass
class Slot:
    """One of the N games kept busy: its channel, its two people and the game played there now."""

    channel_id: int
    people: tuple[LocalUser, LocalUser]
    game_id: int = 0


@contextlib.asynccontextmanager
async def store_target(processes: int) -> AsyncIterator[str]:
    """A SQLite file for one process; a fresh database on a throwaway PostgreSQL for several."""
    if processes == 1:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "load.sqlite3")
        return
    from tests.postgres import throwaway_server

    with throwaway_server() as server:
        yield server.url(await server.create_database())


async def configure(database: Database, guild_ids: list[int]) -> None:
    """Let each server hold its games: played in their channels, limits raised (as an admin would)."""
    config = GuildConfigService(GuildSettingsStore(database), GAMES)
    for guild_id in guild_ids:
        await config.change(
            guild_id,
            lambda c: c.model_copy(
                update={
                    "threads": False,
                    "limits": c.limits.model_copy(
                        update={"games_per_person": 50, "games_per_server": 500, "lobbies_per_person": 25}
                    ),
                }
            ),
        )


@contextlib.asynccontextmanager
async def bot_processes(discord: LocalDiscord, target: str, count: int, guilds: list[int]) -> AsyncIterator[list[int]]:
    """Start the bot's K processes and wait until each shard is connected; yield their pids; stop them after."""
    folder = Path(tempfile.mkdtemp(prefix="conductor-load-"))
    environment = {**os.environ, "CONDUCTOR_SHARD_COUNT": str(count)}
    if target.startswith("postgresql://"):
        environment["CONDUCTOR_DATABASE_URL"] = target
    children = []
    for shard in range(count):
        children.append(
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.sandbox.child",
                discord.api_url,
                discord.gateway_url,
                discord.token,
                target if not target.startswith("postgresql://") else str(folder / "unused.sqlite3"),
                env={**environment, "CONDUCTOR_SHARD_IDS": str(shard)},
                stderr=asyncio.subprocess.DEVNULL,
            )
        )
    try:
        for guild_id in guilds:
            await discord.wait_connected(timeout=STARTUP_TIMEOUT, guild_id=guild_id)
        yield [child.pid for child in children]
    finally:
        for child in children:
            if child.returncode is None:
                child.terminate()
        for child in children:
            await child.wait()


async def open_game(discord: LocalDiscord, store: GameStore, slot: Slot) -> None:
    """/newgame dice in the slot's channel, the second person joins, the first starts."""
    host, other = slot.people
    lobby = (await discord.slash(host, "newgame dice", channel=slot.channel_id)).message
    assert lobby is not None, "/newgame opened no lobby"
    for person, verb in ((other, "join"), (host, "start")):
        message = discord.message(lobby.id)
        button = next(c for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await discord.click(person, message, button["custom_id"])
    (record,) = await store.in_channel(slot.channel_id)
    slot.game_id = record.id


async def move(discord: LocalDiscord, store: GameStore, slot: Slot, rng: random.Random) -> float | None:
    """Make the game's next move as its person would click it; seconds until the bot answered, None when the
    channel did not show the move's buttons yet (the last move is still being shown)."""
    record = await store.get(slot.game_id)
    assert record is not None
    if record.status != "active":
        await open_game(discord, store, slot)
        return None
    message = public_controls(discord, record)
    if message is None:
        return None
    state = ENGINE.load_state(record.state or "")
    seat = min(ENGINE.to_act(state))
    person = next(p for p in slot.people if p.id == _user_of(record, seat))
    outcome = await discord.click(person, message, button_for(message, bot_policy(ENGINE, state, seat, rng)))
    return outcome.interaction.ack_seconds


def _user_of(record: GameRecord, seat: int) -> int | None:
    return next(s.user_id for s in record.seats if s.seat == seat)


async def run_load(n: int, processes: int, args: argparse.Namespace) -> None:
    """Open n games on k processes, drive them open-loop for the measured time, print one line."""
    people = [LocalUser(name=f"P{i}") for i in range(max(2, -(-2 * n // GAMES_PER_PERSON)) + 1)]
    async with store_target(processes) as target, LocalDiscord(users=people, timeout=120) as discord:
        servers = max(processes, -(-n // GAMES_PER_SERVER))
        guilds = [discord.add_guild(f"S{g}", shard=(g % processes, processes), channels=()) for g in range(servers)]
        slots = []
        for index in range(n):
            place = discord.add_channel(f"table-{index}", guild_id=guilds[index % servers])
            pair = (people[(2 * index) % len(people)], people[(2 * index + 1) % len(people)])
            slots.append(Slot(place.id, pair))
        database = await open_database(target)
        try:
            await configure(database, guilds)
            store = GameStore(database)
            async with bot_processes(discord, target, processes, guilds) as pids:
                for slot in slots:
                    await open_game(discord, store, slot)
                await measure(n, processes, args, discord, store, slots, pids, database)
        finally:
            await database.close()


async def measure(
    n: int,
    processes: int,
    args: argparse.Namespace,
    discord: LocalDiscord,
    store: GameStore,
    slots: list[Slot],
    pids: list[int],
    database: Database,
) -> None:
    """Drive the games for the measured time and print the figures."""
    run = Run()
    rng = random.Random(n)
    start = time.perf_counter()
    end = start + args.seconds
    before = [family_usage(pid)[0] for pid in [os.getpid(), *pids]]

    async def drive(slot: Slot) -> None:
        due = start + rng.uniform(0, args.period)
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            run.due += 1
            try:
                answered = await move(discord, store, slot, rng)
            except Exception as error:  # counted, not fatal
                run.failures += 1
                print(f"  move failed in game {slot.game_id}: {error!r}", file=sys.stderr)
            else:
                if answered is not None:
                    run.served += 1
                    run.latencies.append(answered)
            due += args.period

    await asyncio.gather(*(drive(slot) for slot in slots))
    wall = time.perf_counter() - start
    after = [family_usage(pid) for pid in [os.getpid(), *pids]]
    cpus = [(cpu - cpu0) / wall * 100 for (cpu, _), cpu0 in zip(after, before, strict=True)]
    p50, p99 = run.percentile_ms(0.5), run.percentile_ms(0.99)
    if database.dialect == "sqlite":
        size = sum(p.stat().st_size for p in Path(database.target).parent.glob("load.sqlite3*"))
    else:
        size = int(await database.fetchval("SELECT pg_database_size(current_database())"))
    bots = " ".join(f"{cpu:>4.0f}%" for cpu in cpus[1:])
    rss = " ".join(f"{mb:>5.0f}" for _, mb in after[1:])
    print(
        f"{n:>6} {processes:>3} {run.due / wall:>7.1f} {run.served / wall:>7.1f} {p50:>7.0f}"
        f" {p99:>7.0f}   bots {bots}   here {cpus[0]:>4.0f}%   rss MB {rss}   db KB/game {size / 1024 / n:>6.1f}"
        f"   failed {run.failures}",
        flush=True,
    )


def main() -> None:
    """Parse the arguments, then one run per number of games and of processes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="200,500")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--period", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'games':>6} {'K':>3} {'due/s':>7} {'moves/s':>7} {'p50 ms':>7} {'p99 ms':>7}")
    for processes in (int(part) for part in args.processes.split(",")):
        for n in (int(part) for part in args.games.split(",")):
            asyncio.run(run_load(n, processes, args))


if __name__ == "__main__":
    main()
