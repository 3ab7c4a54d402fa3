"""Ticket to Ride in the sandbox: time from an interaction to the bot's first response, and Discord calls per turn.

Run: .venv/bin/python bench/ttr_latency.py [--games 3] [--players 4] [--map usa|europe]

Whole games are played on the local Discord by scripted people (three of four seats) and one bot player, through
the real buttons and menus, with every board rendered. The clock runs from the stand-in dispatching the
interaction until the bot's callback has been answered over HTTP (the gateway hop on 127.0.0.1 included).
"Draw" is a click on the deck or a face-up card; "claim" is the menu choice that makes the claim. The second
table runs to the moment the public messages show the game past that move (the board redrawn). Discord calls
are every REST request the bot made during play (interaction callbacks, follow-ups, message posts and edits),
divided by the game's turns.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bot.app import create_bot
from bot.sandbox.run import SANDBOX_PEOPLE, sandbox_settings
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord, LocalUser
from rules.ttr import TicketToRideEngine

Timings = dict[str, list[float]]


async def measure(games: int, players: int, map_id: str) -> tuple[Timings, Timings, list[float], float]:
    """Play the games; return seconds to the first response and to the public update per kind of move, Discord
    calls per turn per game, and the wall time."""
    by_kind: Timings = defaultdict(list)
    shown: Timings = defaultdict(list)
    calls_per_turn: list[float] = []
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[: players - 1]]
    engine = TicketToRideEngine()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        async with LocalDiscord(users=people) as discord:
            bot = create_bot(sandbox_settings(Path(folder) / "bench.sqlite3", bot_move_delay=0))
            async with discord.connected(bot):
                for number in range(games):
                    table = ScriptedTable(discord, bot, people)
                    record = await table.open("ticket-to-ride", bots=1, options={"map": map_id})
                    before = len(discord.requests)
                    final = await table.play_to_the_end(record.id, seed=number)
                    assert final.state is not None
                    turns = engine.load_state(final.state).turn
                    calls_per_turn.append((len(discord.requests) - before) / turns)
                    for kind, seconds in table.timings:
                        by_kind[kind].append(seconds)
                    for kind, seconds in table.shown:
                        shown[kind].append(seconds)
    return by_kind, shown, calls_per_turn, time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of a list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    """Parse flags, play, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--map", default="usa", choices=("usa", "europe"))
    args = parser.parse_args()
    by_kind, shown, calls, wall = asyncio.run(measure(args.games, args.players, args.map))
    print(f"Ticket to Ride {args.map}: {args.games} games of {args.players} players (1 bot player), {wall:.1f} s")
    for title, timings in (
        ("interaction -> first response (ms):", by_kind),
        ("interaction -> public messages show the move, board rendered (ms):", shown),
    ):
        print(title)
        for kind in ("draw", "claim", "tickets", "keep", "station", "pay", "withdraw", "menu"):
            ms = [s * 1000 for s in timings.get(kind, [])]
            if ms:
                print(
                    f"  {kind:9} n={len(ms):4}  median {statistics.median(ms):6.1f}  "
                    f"p99 {percentile(ms, 0.99):6.1f}  max {max(ms):6.1f}"
                )
    per_game = ", ".join(f"{c:.2f}" for c in calls)
    print(f"Discord API calls per turn: {statistics.mean(calls):.2f} (per game: {per_game})")


if __name__ == "__main__":
    main()
