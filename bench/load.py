"""How many busy games one process carries: an open-loop load through the game service with its real store.

Run: python -m bench.load [--games 250,500,1000] [--period 30] [--seconds 60] [--no-pictures] [--no-timers]

N Ticket to Ride games (4 people, USA) each make a move every `--period` seconds (open loop: a move is due at its
time whether or not the game's previous one was served), replaying moves chosen offline by seeded sensible bots, so
the process under test spends its CPU on what a server does for a click: apply and store the move, draw the board
when the table changed (as the turn message would), mark it shown, and tell the turn timers. A game that ends is
replaced by a new one. Before the clock starts, every game's board is drawn once, as in a process that has been
running for a while (the picture workers keep a base per game).

Prints, per N: moves/s due and served, boards drawn per second, due → served p50/p99 (the click → reply the bot
can give), CPU of this process and of its picture workers, moves per CPU-second, RSS (with the workers) in all and
per game, database bytes per game, SQL statements and transactions per move.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time
from collections.abc import Hashable
from dataclasses import dataclass, replace
from pathlib import Path

from bench.loads import Run, family_usage
from bot.exts.ttr import _pictures as ttr_pictures
from bot.exts.ttr._presenter import TtrPresenter
from bot.games import GAMES
from bot.services.bot_players import BotPlayers
from bot.services.games import GameService
from bot.services.lobby import LobbyService
from bot.services.moves import Moves
from bot.services.shown import ShownGames
from bot.services.timers import TimerService
from bot.storage.games import GameRecord, GameStore, SeatRecord
from bot.storage.opening import open_database
from bot.storage.timers import TimerStore
from bot.ui.pictures import warm_workers
from rules.ttr import TicketToRideEngine
from rules.ttr.view import PublicView, public_view

ENGINE = TicketToRideEngine()
PLAYERS = 4
SCRIPTS = 12
"""Distinct seeded games whose moves are replayed (game k plays script k mod SCRIPTS)."""


@dataclass(frozen=True)
class Script:
    """A whole game chosen offline: its seed and every move as (seat, encoded action)."""

    seed: int
    moves: tuple[tuple[int, str], ...]
    snapshots: tuple[str, ...]
    """The state as stored after each number of moves (0: the opening deal)."""


def play_script(seed: int) -> Script:
    """Play a 4-player USA game among sensible bots and keep its moves."""
    options = ENGINE.load_options({})
    state = ENGINE.new_game(options, PLAYERS, seed)
    rng = random.Random(seed)
    moves, snapshots = [], [state.model_dump_json()]
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        action = ENGINE.bot_action(state, seat, rng, "sensible")
        moves.append((seat, action.encode()))
        state, _ = ENGINE.apply(state, seat, action)
        snapshots.append(state.model_dump_json())
    return Script(seed, tuple(moves), tuple(snapshots))


@dataclass
class Slot:
    """One of the N games kept busy: the game now played there and how far its script is."""

    index: int
    script: Script
    game_id: int = 0
    step: int = 0
    board: Hashable = None


class Load:
    """The service under test, with its store, timers and the board pictures of the turn messages."""

    def __init__(self, moves: Moves, timers: TimerService | None, pictures: bool, scripts: list[Script]):
        self.service = moves.games
        self.moves = moves
        self.timers = timers
        self.pictures = pictures
        self.scripts = scripts
        self._seeds: list[int] = []
        self.table = TtrPresenter()
        self.boards = 0

    def next_seed(self) -> int:
        """The seed of the game being opened (its script's)."""
        return self._seeds.pop()

    async def open(self, slot: Slot) -> None:
        """Open and start a fresh game in a slot."""
        slot.script = self.scripts[slot.index % len(self.scripts)]
        self._seeds.append(slot.script.seed)
        users = [slot.index * 10 + seat + 1 for seat in range(PLAYERS)]
        lobby = LobbyService(self.service, new_seed=self.next_seed)
        record = await lobby.open_lobby(
            game="ticket-to-ride", guild_id=1, channel_id=10_000 + slot.index, host_id=users[0], host_name="P0"
        )
        for seat, user in enumerate(users[1:], start=1):
            await lobby.join(record.id, user, f"P{seat}")
        record = await lobby.start(record.id, users[0])
        slot.game_id, slot.step, slot.board = record.id, 0, None
        await self.show(slot, record, public_view(self.service.state(record.id)))

    async def move(self, slot: Slot) -> None:
        """Make the slot's next scripted move as the person would click it, and show it."""
        seat, action = slot.script.moves[slot.step]
        slot.step += 1
        outcome = await self.moves.act(slot.game_id, slot.index * 10 + seat + 1, ENGINE.parse_action(action))
        await self.show(slot, outcome.record, public_view(outcome.state))
        await self.service.after_move(outcome)
        if outcome.finished:
            await self.open(slot)

    async def show(self, slot: Slot, record: GameRecord, public: PublicView) -> None:
        """What a turn message costs beyond the move: the board when the table changed, then marking it shown."""
        key = self.table.board_key(public)
        if self.pictures and key != slot.board:
            await ttr_pictures.board("en", record, public)
            slot.board = key
            self.boards += 1
        self.moves.shown.mark_shown(record.id, record.version)


async def stored_mid_game(store: GameStore, slot: Slot, rng: random.Random) -> None:
    """Store the slot's game as it stands some way into its script (its log and snapshot written directly, as the
    moves would have left them), so the load starts from games in every phase, not all at their ticket choice."""
    script = slot.script
    step = rng.randrange(len(script.moves) - 1)
    users = [slot.index * 10 + seat + 1 for seat in range(PLAYERS)]
    seats = [SeatRecord(seat=seat, name=f"P{seat}", user_id=user) for seat, user in enumerate(users)]
    record = await store.create_game(
        game="ticket-to-ride",
        guild_id=1,
        channel_id=10_000 + slot.index,
        host_id=users[0],
        options=ENGINE.load_options({}).model_dump(mode="json"),
        seed=script.seed,
        seats=seats,
    )
    record = await store.start(record, seats, script.snapshots[0])
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, '')",
            [(record.id, i + 1, seat, action) for i, (seat, action) in enumerate(script.moves[:step])],
        )
        await db.execute(
            "UPDATE games SET state = ?, version = version + ?, shown_version = version + ? WHERE id = ?",
            (script.snapshots[step], step, step, record.id),
        )
    slot.game_id, slot.step = record.id, step


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds of this process (its threads included) and of its descendants (the picture workers)."""
    own = time.process_time()
    return own, family_usage(os.getpid())[0] - own


def rss_mb() -> float:
    """Resident memory of this process and its picture workers, in MB."""
    return family_usage(os.getpid())[1]


async def run_load(n: int, args: argparse.Namespace, scripts: list[Script]) -> None:
    """Open n games, drive them open-loop for the measured time, print one line."""
    folder = Path(tempfile.mkdtemp(prefix="conductor-load-"))
    path = folder / "load.sqlite3"
    db = await open_database(path)
    store = GameStore(db)
    load: Load
    service = GameService(store, {"ticket-to-ride": ENGINE})
    moves = Moves(service, ShownGames(service))
    bots = BotPlayers(moves, bot_move_delay=0)
    timers = None
    if args.timers:
        timers = TimerService(TimerStore(db), service, moves, bots)
        service.add_listener(timers)
    load = Load(moves, timers, args.pictures, scripts)
    gc.collect()
    rss_fixed = rss_mb()
    slots = [Slot(i, scripts[i % len(scripts)]) for i in range(n)]
    rng = random.Random(n)
    for slot in slots:
        await stored_mid_game(store, slot, rng)
    await service.resume_all()
    await service.snapshots_checked()
    for slot in slots:  # each board drawn once already, as in a process that has run for a while
        public = public_view(service.state(slot.game_id))
        slot.board = load.table.board_key(public)
        if args.pictures:
            await ttr_pictures.board("en", await service.get(slot.game_id), public)
    if timers is not None:
        for slot in slots:  # the games were stored without timers: arm them now, not during the measured time
            await timers.sync(slot.game_id)
        timers.start()
    run = Run()
    start = time.perf_counter()
    end = start + args.seconds
    own0, kids0 = cpu_seconds()
    boards0 = load.boards
    stats0 = replace(db.stats)
    pending: set[asyncio.Task[None]] = set()

    async def serve(slot: Slot, due: float) -> None:
        try:
            await load.move(slot)
        except Exception as error:  # counted, not fatal: the figure says how many failed
            run.failures += 1
            print(f"  move failed in game {slot.game_id}: {error!r}", file=sys.stderr)
            return
        run.served += 1
        run.latencies.append(time.perf_counter() - due)

    async def drive(slot: Slot) -> None:
        due = start + rng.uniform(0, args.period)
        busy: asyncio.Task[None] | None = None
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            run.due += 1
            if busy is not None and not busy.done():
                await busy  # a game's moves are made one after the other, as its players would; its lateness counts
            busy = asyncio.create_task(serve(slot, due))
            pending.add(busy)
            busy.add_done_callback(pending.discard)
            due += args.period

    await asyncio.gather(*(drive(slot) for slot in slots))
    await asyncio.gather(*pending)
    wall = time.perf_counter() - start
    own1, kids1 = cpu_seconds()
    own, kids = own1 - own0, kids1 - kids0
    p50, p99 = run.percentile_ms(0.5), run.percentile_ms(0.99)
    files = sum(p.stat().st_size for p in folder.iterdir())
    figures = [
        f"{n:>6}",
        f"{run.due / wall:>8.1f}",
        f"{run.served / wall:>8.1f}",
        f"{(load.boards - boards0) / wall:>8.1f}",
        f"{p50:>8.0f}",
        f"{p99:>8.0f}",
        f"{own / wall * 100:>6.0f}%",
        f"{kids / wall * 100:>6.0f}%",
        f"{run.served / max(own + kids, 1e-9):>11.0f}",
        f"{rss_mb():>7.0f}",
        f"{(rss_mb() - rss_fixed) * 1024 / n:>7.0f}",
        f"{files / 1024 / n:>7.1f}",
        f"{(db.stats.statements - stats0.statements) / max(run.served, 1):>7.1f}",
        f"{(db.stats.transactions - stats0.transactions) / max(run.served, 1):>6.2f}",
        f"{run.failures:>5}",
    ]
    print(" ".join(figures), flush=True)
    if timers is not None:
        await timers.close()
    await bots.close()
    await moves.shown.close()
    await service.close()
    await db.close()


def main() -> None:
    """Parse the arguments, play the scripts offline, then run one load per number of games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="250,500,1000")
    parser.add_argument("--period", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--no-pictures", dest="pictures", action="store_false")
    parser.add_argument("--no-timers", dest="timers", action="store_false")
    args = parser.parse_args()
    scripts = [play_script(seed) for seed in range(1, SCRIPTS + 1)]
    if args.pictures:
        warm_workers(GAMES.values())
    print(
        f"{'games':>6} {'due/s':>8} {'served/s':>8} {'boards/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'cpu':>7} {'pics':>7}"
        f" {'moves/cpu-s':>11} {'rss MB':>7} {'KB/game':>7} {'db KB/g':>7} {'sql/mv':>7} {'tx/mv':>6} {'fail':>5}"
    )
    for n in (int(part) for part in args.games.split(",")):
        asyncio.run(run_load(n, args, scripts))


if __name__ == "__main__":
    main()
