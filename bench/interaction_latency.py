"""Time from a click reaching the bot to its first answer, over whole sandbox games; and Discord calls per move.

Run: python bench/interaction_latency.py [--game dice] [--games 3] [--players 3]
Prints the median and p99 in milliseconds. The clock runs around the stand-in's dispatch of the interaction
until the bot's callback has been answered over HTTP, so it includes the gateway hop on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

from bot.app import create_bot
from bot.sandbox.run import SANDBOX_PEOPLE, sandbox_settings
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord, LocalUser


async def measure(game: str, games: int, players: int) -> tuple[list[float], int, int]:
    """Play `games` games with `players - 1` people and one bot player; return click latencies and counts."""
    latencies: list[float] = []
    moves = calls = 0
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[: players - 1]]
    with tempfile.TemporaryDirectory() as folder:
        async with LocalDiscord(users=people) as discord:
            bot = create_bot(sandbox_settings(Path(folder) / "bench.sqlite3", bot_move_delay=0))
            async with discord.connected(bot):
                for number in range(games):
                    table = ScriptedTable(discord, bot, people)
                    record = await table.open(game, bots=1)
                    before = len(discord.requests)
                    await table.play_to_the_end(record.id, seed=number)
                    latencies += table.latencies
                    moves = len(await bot.service.store.actions(record.id))
                    calls = len(discord.requests) - before
    return latencies, moves, calls


def main() -> None:
    """Parse flags, run, print figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="dice")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    latencies, moves, calls = asyncio.run(measure(args.game, args.games, args.players))
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(f"{args.game}: {len(ms)} clicks over {args.games} games of {args.players} players")
    print(
        f"interaction -> first response: median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"
    )
    print(f"Discord API calls in the last game: {calls} for {moves} moves ({calls / max(moves, 1):.2f} per move)")


if __name__ == "__main__":
    main()
