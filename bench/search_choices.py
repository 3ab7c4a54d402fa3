"""How well `hard`'s search chooses, decision by decision, judged by many more playouts than it plays itself.

Run: `.venv/bin/python -m bench.search_choices` (`--games N` per map and player count, default 3; `--every N` keeps
one decision in N, default 4; `--worlds N` reference worlds per decision, default 64; `--budget S` for the search,
default 1; `--workers N` processes, default the CPU count). The decisions come from seeded games that `normal` plays
at every seat, so they are the same whatever search is measured: at each turn of seat 0 where `hard` would search,
its candidates are listed. Each candidate is then played out in `--worlds` sampled worlds of the reference's own, and
`hard`'s search chooses among them with its own worlds, as in a game. Per map and player count it prints the
decisions, how often the search leaves `normal`'s move, how much the playout win rate of its choice gains on
`normal`'s move (percentage points a decision, in the reference worlds, with a 95 % margin), the gain of the
reference's own best candidate (an upper bound, and biased up: its worlds both pick and judge), the search's CPU
seconds a decision, and a reference playout's CPU time over what the search's cost model expects (the median ratio:
near 1 when `ROLLOUT_MS` fits this machine). Two versions of the search are compared on the same decisions and
reference worlds by running this in each: the figures pair decision by decision.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from bench.levels import percentile
from rules.engine import Budget
from rules.ttr.actions import TtrAction
from rules.ttr.board import board_for
from rules.ttr.bots.heuristic import normal
from rules.ttr.bots.search import best_by_rollouts, determinize, playout, rollout_seconds, searched_moves, totals_of
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.moves import move_set
from rules.ttr.state import Phase, TtrState

ENGINE = TicketToRideEngine()
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass(frozen=True)
class Decision:
    """A position where the search runs: seat 0 to move, its candidates (the heuristic's move first)."""

    state: TtrState
    candidates: tuple[TtrAction, ...]
    key: int
    """Seeds this decision's reference worlds and the search's own, the same in every run."""


@dataclass(frozen=True)
class Judged:
    """One decision's figures: the search's pick and gain, the reference's best gain, the search's CPU time."""

    group: str
    left_normal: bool
    gain: float
    best_gain: float
    seconds: float
    cost_ratio: float
    """A reference playout's measured CPU time over what the search's cost model (`ROLLOUT_MS`) expects."""


def decisions(map_id: str, players: int, game: int, every: int) -> list[Decision]:
    """Every `every`-th decision of seat 0 in a seeded game of `normal` at every seat."""
    seed = 7_000_003 * (game + 1) + players
    state = ENGINE.new_game(ENGINE.load_options({"map": map_id}), players, seed)
    board = board_for(map_id)
    rngs = [random.Random(seed * 31 + seat) for seat in range(players)]
    found: list[Decision] = []
    seen = 0
    while state.phase is not Phase.OVER:
        for seat in sorted(ENGINE.to_act(state)):
            moves = move_set(state, seat)
            action = normal(state, seat, moves, board, rngs[seat])
            if seat == 0:
                candidates = searched_moves(state, seat, moves, board, action)
                if len(candidates) > 1:
                    if seen % every == 0:
                        found.append(Decision(state, tuple(candidates), seed * 1_000 + seen))
                    seen += 1
            state, _ = ENGINE.apply(state, seat, action)
    return found


def _decisions(job: tuple[str, int, int, int]) -> list[Decision]:
    return decisions(*job)


def win_share(state: TtrState, seat: int) -> float:
    """The seat's share of the win by final score (ties shared; the tie-breaks are left out)."""
    totals = totals_of(state)
    best = max(totals)
    return 1 / totals.count(best) if totals[seat] == best else 0.0


def judge(decision: Decision, worlds: int, budget: float) -> Judged:
    """Play every candidate in `worlds` reference worlds; let the search choose with its own."""
    state, candidates = decision.state, decision.candidates
    reference = random.Random(decision.key)
    shares: list[list[float]] = [[] for _ in candidates]
    start = time.process_time()
    for _ in range(worlds):
        world = determinize(state, 0, reference)
        seed = reference.getrandbits(32)
        for i, action in enumerate(candidates):
            shares[i].append(win_share(playout(ENGINE, world, 0, action, seed), 0))
    measured = (time.process_time() - start) / (worlds * len(candidates))
    expected = rollout_seconds(state)
    rates = [statistics.fmean(s) for s in shares]
    start = time.process_time()
    pick, _ = best_by_rollouts(ENGINE, state, 0, candidates, random.Random(decision.key + 1), Budget(budget))
    seconds = time.process_time() - start
    chosen = candidates.index(pick)
    group = f"{state.map_id} {state.n_players}p"
    return Judged(group, chosen != 0, rates[chosen] - rates[0], max(rates) - rates[0], seconds, measured / expected)


def _judge(job: tuple[Decision, int, float]) -> Judged:
    return judge(*job)


def report(judged: Sequence[Judged]) -> None:
    """A line per map and player count and one for all: decisions, moves changed, gains, CPU time."""
    print(
        f"{'group':12} {'decisions':>9} {'changed':>8} {'gain pp':>14} {'best pp':>8} {'s p50':>6} {'s p99':>6}"
        f" {'cost':>5}"
    )
    groups = sorted({j.group for j in judged}, key=lambda g: (g.split()[0] != "usa", g))
    for group in (*groups, "all"):
        rows = [j for j in judged if group in ("all", j.group)]
        gains = [j.gain * 100 for j in rows]
        margin = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
        seconds = [j.seconds for j in rows]
        best = statistics.fmean(j.best_gain for j in rows) * 100
        print(
            f"{group:12} {len(rows):9} {statistics.fmean(j.left_normal for j in rows):8.0%}"
            f" {statistics.fmean(gains):+7.2f} ± {margin:4.2f} {best:+8.2f}"
            f" {statistics.median(seconds):6.2f} {percentile(seconds, 0.99):6.2f}"
            f" {statistics.median(j.cost_ratio for j in rows):5.2f}",
            flush=True,
        )


def main() -> None:
    """Parse the options, gather the decisions, judge them and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per map and player count")
    parser.add_argument("--every", type=int, default=4, help="keep one decision in this many")
    parser.add_argument("--worlds", type=int, default=64, help="reference worlds per decision")
    parser.add_argument("--budget", type=float, default=1.0, help="CPU seconds a decision for the search")
    parser.add_argument("--maps", default="usa,europe", help="comma-separated map ids")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = [(m, n, g, args.every) for m in args.maps.split(",") for n in PLAYER_COUNTS for g in range(args.games)]
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        found = [d for batch in pool.imap(_decisions, jobs) for d in batch]
        judged = list(pool.imap_unordered(_judge, [(d, args.worlds, args.budget) for d in found], chunksize=1))
    report(judged)
    print(f"{len(found)} decisions in {time.perf_counter() - start:.0f} s wall on {args.workers} workers")


if __name__ == "__main__":
    main()
