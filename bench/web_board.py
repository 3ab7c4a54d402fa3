"""The live board pages' figures from the server's side: bytes of a page's data and of one update, memory per 100 open
live connections, and the time from a move stored to its update sent.

Run: `.venv/bin/python -m bench.web_board` (`--streams 100`, `--moves 60`, `--skip-live` for the bytes alone).

- bytes: `state.json` of each kind of game (4 players, played by the games' own bot players) at its start, halfway
  and at its end, as sent and gzipped (the pages ask for compression); a live update there, the same data as one
  Server-Sent Event (never compressed); a finished game's `replay.json`; each map's geometry.
- memory: a bot on the local Discord with its board pages on, serving one Ticket to Ride game; its resident set
  (after a garbage collection) before and after `--streams` event streams of that game are opened by another process
  (so the clients' memory is not counted), each having received its first update; and the Python heap those streams
  took (tracemalloc), which the resident set may hide in memory the allocator already held. The kernel's socket
  buffers are in neither.
- move to update: the same bot plays a game of bot players (a move every 0.3 s, as people could follow it) while a
  page follows it; for each update received, the time from its move's write to the store returning to the update's
  arrival at the page (both on this machine's monotonic clock).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import aiohttp

from bot.games import GAMES
from bot.storage.games import GameRecord, SeatRecord
from bot.web.board.live import event
from bot.web.board.maps import map_data
from bot.web.board.page_data import as_json, page_data, replay_data
from localdiscord import LocalDiscord
from rules.engine import Level
from rules.history import bots_play, tell_moves
from tests.bot.e2e.helpers import playing, table, usual_people
from tests.web.support import board_links, next_event, web_runner

KINDS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Ticket to Ride USA", "ticket-to-ride", {"map": "usa"}),
    ("Ticket to Ride Europe", "ticket-to-ride", {"map": "europe"}),
    ("the card game", "ticket-to-ride-cards", {}),
    ("the dice game", "dice", {}),
)
PLAYERS = 4
SEED = 11
KIB = 1024


def sizes() -> dict[str, Any]:
    """Bytes of each kind's page data (start, half, end), of one update, of its replay, and of each map."""
    found: dict[str, Any] = {}
    for name, game, options in KINDS:
        info = GAMES[game]
        log = bots_play(info.engine, options, PLAYERS, SEED, Level.NORMAL)
        seats = tuple(SeatRecord(seat=s, name=f"Player {s + 1}", user_id=100 + s) for s in range(PLAYERS))
        record = GameRecord(
            id=1, game=game, guild_id=1, channel_id=1, host_id=100, status="active", options=options, seed=SEED,
            version=len(log), state=None, seats=seats,
        )  # fmt: skip
        start = info.engine.new_game(info.engine.load_options(options), PLAYERS, SEED)
        row: dict[str, Any] = {"moves": len(log)}
        for moment, moves in (("start", 0), ("half", len(log) // 2), ("end", len(log))):
            telling = tell_moves(info.engine, start, log[:moves])
            data = as_json(page_data(info, record, telling.state, telling, "en"))
            row[moment] = _bytes(data)
            row[f"update at {moment}"] = len(event(data))
        finished = tell_moves(info.engine, start, log, keep_views=True)
        row["replay"] = _bytes(as_json(replay_data(info, record, finished, "en")))
        found[name] = row
    for map_id in ("usa", "europe"):
        found[f"map {map_id}"] = _bytes(as_json(map_data(map_id)))
    return found


def _bytes(data: bytes) -> dict[str, int]:
    return {"raw": len(data), "gzip": len(gzip.compress(data, 6))}


def rss() -> int:
    """This process's resident set in bytes, after a full garbage collection."""
    gc.collect()
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def live(streams: int, moves: int) -> dict[str, Any]:
    """Memory per open stream, and the time from a move stored to its update arriving (see the module's doc)."""
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        async with LocalDiscord(users=usual_people(), timeout=120) as stand_in:
            running = web_runner(stand_in, Path(folder) / "bench.sqlite3")
            async with running(web_streams_per_game=streams + 10, bot_move_delay=0.3) as bot:
                players, game_id = await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), seed=SEED)
                link = board_links(await players.turn_message(game_id))[0]
                found["memory"] = await _memory(link, streams)
                await bot.moves.end(game_id)  # the channel's game is over: the next one opens there
                found["move to update"] = await _move_to_update(stand_in, bot, moves)
    return found


async def _memory(link: str, streams: int) -> dict[str, float]:
    """The bot's resident set before and after `streams` streams opened by a child process."""
    async with aiohttp.ClientSession() as session, session.get(f"{link}/events") as warm:
        await next_event(warm)  # the game's data built, the stream code run once
    await asyncio.sleep(0.5)
    before = rss()
    tracemalloc.start()
    heap = tracemalloc.get_traced_memory()[0]
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.web_board", "--clients", link, str(streams),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    assert child.stdout is not None and child.stdin is not None
    ready = await child.stdout.readline()
    assert ready.strip() == b"ready", ready
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - heap
    tracemalloc.stop()
    after = rss()
    child.stdin.close()
    await child.wait()
    return {
        "before MiB": before / (1 << 20),
        "after MiB": after / (1 << 20),
        "RSS per stream KiB": (after - before) / streams / KIB,
        "Python heap per stream KiB": held / streams / KIB,
    }


async def _move_to_update(stand_in: LocalDiscord, bot: Any, moves: int) -> dict[str, float]:
    """Seconds from each move's write returning to its update's arrival, over a game of Ann and 3 bot players (Ann
    moves as the scripted table does; the page is read by a task of its own, so arrivals are noted as they come)."""
    stored: dict[int, float] = {}
    store = bot.service.store
    record_action = store.record_action

    async def noted(*args: Any, **kwargs: Any) -> GameRecord:
        after: GameRecord = await record_action(*args, **kwargs)
        stored[after.version] = time.monotonic()
        return after

    store.record_action = noted
    players = table(stand_in, bot, "Ann")
    record = await players.open("ticket-to-ride", bots=3, options={"map": "usa"})
    link = board_links(await players.turn_message(record.id))[0]
    arrivals: list[tuple[int, float]] = []
    timeout = aiohttp.ClientTimeout(total=None, sock_read=120)
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(f"{link}/events") as stream:
        await next_event(stream)

        async def follow() -> None:
            while len(arrivals) < moves:
                _, data = await next_event(stream)
                game = json.loads(data)["game"]
                arrivals.append((game["version"], time.monotonic()))
                if game["finished"]:
                    return

        following = asyncio.create_task(follow())
        playing_on = asyncio.create_task(players.play_to_the_end(record.id, seed=SEED))
        await following
        playing_on.cancel()
        await asyncio.gather(playing_on, return_exceptions=True)
    delays = sorted(arrived - stored[version] for version, arrived in arrivals if version in stored)
    return {
        "updates": len(delays),
        "p50 ms": 1000 * statistics.median(delays),
        "p99 ms": 1000 * delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))],
        "max ms": 1000 * delays[-1],
    }


async def clients(link: str, count: int) -> None:
    """Open `count` streams of a page, read the first update of each, say `ready`, and hold them until stdin closes."""
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=0)) as session:
        opened = [await session.get(f"{link}/events") for _ in range(count)]
        for response in opened:
            assert response.status == 200, response.status
            await next_event(response)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for response in opened:
            response.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--skip-live", action="store_true")
    parser.add_argument("--clients", nargs=2, metavar=("LINK", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients:
        asyncio.run(clients(args.clients[0], int(args.clients[1])))
        return
    figures: dict[str, Any] = {"bytes": sizes()}
    if not args.skip_live:
        figures |= asyncio.run(live(args.streams, args.moves))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
