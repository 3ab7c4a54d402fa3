"""Bot levels of the card game and «Поезд»: head-to-head win rates with 95 % Wilson intervals, hard's time per move.

Run: `.venv/bin/python -m bench.levels_cardgame_dice` (`--games N` per match, `--quick` for a short run,
`--workers N` processes). Two players, the two kinds swap seats every game, a shared win counts half; the goal is
the issue's (each level beats the one below in at least 65 % of games, hard's p99 per move at most 1 s). Times
are CPU seconds of the process thinking (`time.process_time`), one move at a time, on one core.

`MATCHES` and `play_game` are the data and the runner a merged `bench/levels.py` can take over as they are.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from rules.cardgame.engine import CardGameEngine
from rules.dice.bot.winning import race_tables
from rules.dice.engine import DiceEngine
from rules.dice.options import DiceOptions
from rules.engine import GameEngine

ENGINES: dict[str, GameEngine[Any, Any, Any]] = {
    CardGameEngine.game_id: CardGameEngine(),
    DiceEngine.game_id: DiceEngine(),
}


@dataclass(frozen=True)
class Match:
    """One row of the table: `kinds[0]` against `kinds[1]` head to head, and the share of wins it should reach."""

    game_id: str
    kinds: tuple[str, str]
    goal: float = 0.65
    options: dict[str, Any] = field(default_factory=dict)
    n_players: int = 2

    @property
    def label(self) -> str:
        """How the row is named in the table."""
        return f"{self.game_id}: {self.kinds[0]} vs {self.kinds[1]}"


MATCHES: tuple[Match, ...] = (
    Match(CardGameEngine.game_id, ("normal", "easy")),
    Match(CardGameEngine.game_id, ("hard", "normal")),
    Match(DiceEngine.game_id, ("normal", "easy")),
    Match(DiceEngine.game_id, ("hard", "normal")),
)


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the first kind's share of the win, and the CPU seconds of each hard move."""

    share: float
    hard_times: tuple[float, ...]


def play_game(match: Match, index: int) -> GameRecord:
    """Play game `index` of `match`: seed `index`, the first kind in seat `index % 2`."""
    engine = ENGINES[match.game_id]
    state = engine.new_game(engine.load_options(match.options), match.n_players, index)
    rng = random.Random(index)
    first_seat = index % match.n_players
    kinds = {seat: match.kinds[0] if seat == first_seat else match.kinds[1] for seat in range(match.n_players)}
    times: list[float] = []
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        start = time.process_time()
        action = engine.bot_action(state, seat, rng, kinds[seat])
        if kinds[seat] == "hard":
            times.append(time.process_time() - start)
        state, _ = engine.apply(state, seat, action)
    result = engine.result(state)
    assert result is not None
    share = 1.0 if result.winners == [first_seat] else 0.5 if first_seat in result.winners else 0.0
    return GameRecord(share=share, hard_times=tuple(times))


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] if ordered else 0.0


def _warm() -> None:
    """Pool initializer: build the dice player's once-per-process tables, as a long-running bot process has them."""
    start = time.process_time()
    race_tables(DiceOptions().target)
    print(f"dice hard: once-per-process tables built in {time.process_time() - start:.2f} CPU s", flush=True)


def _run(job: tuple[int, int]) -> tuple[int, GameRecord]:
    """Pool worker: play one game of one match."""
    row, index = job
    return row, play_game(MATCHES[row], index)


def main() -> None:
    """Play every match and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per match (seats alternate)")
    parser.add_argument("--quick", action="store_true", help="a short run: 20 games per match")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games")
    parser.add_argument("--only", default="", help="play only the matches whose label contains this text")
    args = parser.parse_args()
    games = 20 if args.quick else args.games
    rows = [row for row, match in enumerate(MATCHES) if args.only in match.label]
    jobs = [(row, index) for row in rows for index in range(games)]
    records: dict[int, list[GameRecord]] = {row: [] for row in rows}
    started = time.perf_counter()
    with Pool(args.workers, initializer=_warm) as pool:
        for done, (row, record) in enumerate(pool.imap_unordered(_run, jobs, chunksize=1), 1):
            records[row].append(record)
            if done % max(1, len(jobs) // 40) == 0:
                tally = ", ".join(
                    f"{MATCHES[r].kinds[0]} vs {MATCHES[r].kinds[1]} {sum(x.share for x in got)}/{len(got)}"
                    for r, got in records.items()
                    if got
                )
                print(f"  {done}/{len(jobs)} games: {tally}", file=sys.stderr, flush=True)
    print(f"{games} games per match, {args.workers} workers, {time.perf_counter() - started:.0f} s wall")
    print(f"{'match':42} {'games':>5} {'wins':>7} {'95 % interval':>15} {'goal':>5}  met")
    for row in rows:
        match, played = MATCHES[row], records[row]
        wins = sum(record.share for record in played)
        low, high = wilson(wins, len(played))
        verdict = "yes" if low >= match.goal else "likely" if wins / len(played) >= match.goal else "no"
        print(
            f"{match.label:42} {len(played):5} {wins / len(played):7.1%} {f'{low:.1%} – {high:.1%}':>15} "
            f"{match.goal:5.0%}  {verdict}"
        )
    for row in rows:
        times = [t for record in records[row] for t in record.hard_times]
        if times:
            print(
                f"{MATCHES[row].game_id} hard, CPU s per move over {len(times)} moves: p50 {percentile(times, 0.5):.4f}"
                f"  p90 {percentile(times, 0.9):.4f}  p99 {percentile(times, 0.99):.4f}  max {max(times):.4f}"
            )


if __name__ == "__main__":
    main()
