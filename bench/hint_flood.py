"""How long a bot player's move in game B waits while one person in game A asks for a hint every second: p50/p99.

Run: `.venv/bin/python -m bench.hint_flood [--budget 0.5] [--every 1.0] [--moves 20] [--workers N]`

Through the game services on a real SQLite file, with the real Thinker and thinking workers (as many as this checkout's
settings give, unless `--workers`). Game A is a Ticket to Ride game of Ann and Ben at its opening, where both choose
tickets, so Ann may ask for a hint at any time; thinking one up takes the whole budget. Game B is a dice game of two
bot players, whose moves are cheap: a move's delay, from asking for it to its being applied, is mostly its wait for a
worker. Moves are timed with nobody asking for hints, then while Ann asks every `--every` seconds without waiting for
the answers (as a person clicking /hint again does). It calls only what older checkouts have as well
(`BotPlayers.hint`, `play_bot_move`, `Moves.hand_to_bot`, `start_thinking`), so a copy of it in an older checkout gives
the figure before.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from concurrent.futures import wait
from pathlib import Path
from typing import Any

from bot.services.bot_players import BotPlayers
from bot.services.errors import ServiceError
from bot.services.games import GameService
from bot.services.lobby import LobbyService
from bot.services.moves import Moves
from bot.services.shown import ShownGames
from bot.services.thinking import Thinker, start_thinking
from bot.settings import Settings
from bot.storage.games import GameStore
from bot.storage.opening import open_database
from rules.dice import DiceEngine
from rules.engine import Budget, GameEngine
from rules.ttr import TicketToRideEngine

ANN, BEN, CAT = 1, 2, 3
CHANNELS = itertools.count(100)
"""A channel of its own for each game B (a channel holds one open game)."""


async def bots_game(svc: BotPlayers) -> int:
    """A dice game of two bot players, started (Cat opens it and hands her seat to a bot)."""
    channel = next(CHANNELS)
    record = await LobbyService(svc.games).open_lobby(
        game="dice", guild_id=1, channel_id=channel, host_id=CAT, host_name="Cat"
    )
    await LobbyService(svc.games).add_bot(record.id, CAT, "normal")
    await LobbyService(svc.games).start(record.id, CAT)
    await svc.moves.hand_to_bot(record.id, 0, "normal")
    return record.id


async def opening(svc: BotPlayers) -> int:
    """A Ticket to Ride game of Ann and Ben at its opening: both choose tickets, so both may ask for hints."""
    record = await LobbyService(svc.games).open_lobby(
        game="ticket-to-ride", guild_id=1, channel_id=1, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).start(record.id, ANN)
    return record.id


class Flood:
    """Ann asking for a hint in game A every `every` seconds, each answer left to come whenever it does."""

    def __init__(self, svc: BotPlayers, game_id: int, every: float) -> None:
        self.svc, self.game_id, self.every = svc, game_id, every
        self.answered = self.refused = 0
        self.asked: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        while True:
            task = asyncio.create_task(self.hint())
            self.asked.add(task)
            task.add_done_callback(self.asked.discard)
            await asyncio.sleep(self.every)

    async def hint(self) -> None:
        try:
            await self.svc.hint(self.game_id, ANN)
            self.answered += 1
        except ServiceError:
            self.refused += 1


async def delays(svc: BotPlayers, moves: int, every: float, rng: random.Random) -> list[float]:
    """Seconds each of `moves` bot moves in game B took, asked at random moments (a new game when one ends)."""
    game_id, taken = await bots_game(svc), list[float]()
    while len(taken) < moves:
        await asyncio.sleep(rng.uniform(0, every))
        started = time.perf_counter()
        outcome = await svc.play_bot_move(game_id)
        if outcome is None:
            game_id = await bots_game(svc)
            continue
        taken.append(time.perf_counter() - started)
        if outcome.finished:
            game_id = await bots_game(svc)
    return taken


def figures(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"{label}: p50 {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} moves)"


async def measure(budget: float, every: float, moves: int, workers: int) -> None:
    wait(start_thinking(workers, [TicketToRideEngine(), DiceEngine()]))
    with tempfile.TemporaryDirectory() as folder:
        database = await open_database(Path(folder) / "bench.sqlite3")
        engines: dict[str, GameEngine[Any, Any, Any]] = {"dice": DiceEngine(), "ticket-to-ride": TicketToRideEngine()}
        games = GameService(GameStore(database), engines)
        shown = ShownGames(games)
        svc = BotPlayers(Moves(games, shown), bot_move_delay=3600, thinker=Thinker(Budget(budget)))
        rng = random.Random(1)
        try:
            flooded = await opening(svc)
            await svc.hint(flooded, BEN)  # every worker used once: what a first thought builds is built
            print(f"budget {budget} s, {workers} thinking workers, a hint every {every} s")
            print(figures("game B's bot move, no hints", await delays(svc, moves, every, rng)))
            flood = Flood(svc, flooded, every)
            flooding = asyncio.create_task(flood.run())
            print(figures("game B's bot move, under the flood", await delays(svc, moves, every, rng)))
            flooding.cancel()
            print(f"hints answered {flood.answered}, refused {flood.refused}, unanswered {len(flood.asked)}")
            for task in set(flood.asked):
                task.cancel()
            await asyncio.gather(flooding, *flood.asked, return_exceptions=True)
        finally:
            await svc.close(timeout=0)
            await shown.close()
            await games.close()
            await database.close()


def main() -> None:
    """Parse flags, run, print figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=float, default=0.5, help="seconds of thought per move or hint")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between Ann's hints")
    parser.add_argument("--moves", type=int, default=20, help="bot moves timed each way")
    parser.add_argument("--workers", type=int, default=None, help="thinking workers (default: the settings')")
    args = parser.parse_args()
    workers = args.workers or Settings().thinking_workers
    asyncio.run(measure(args.budget, args.every, args.moves, workers))


if __name__ == "__main__":
    main()
