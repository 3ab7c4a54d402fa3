"""Bot level figures: win rates with 95 % Wilson intervals, and the `hard` player's CPU time per move.

Run: `.venv/bin/python -m bench.levels` (`--quick` for a short run, `--games N` per row, `--workers N` processes,
`--maps usa` to pick maps, `--only cards` or `--only dice` to pick rows by label, `--start N` to play games N onwards:
runs over disjoint ranges add up; `--subject normal` plays another kind against the agents; `--budget 0.25` gives the
hard seats that many CPU seconds a move instead of 1; `--log FILE` appends a line per game as it ends, so a run cut
short keeps what it played; `--tally FILE ...` prints the table from such logs, of runs on several machines, instead of
playing: only the games played by this checkout's rules and bots, whose digest each line ends with). Games are dealt
round by round over the rows, so every row fills at the same pace. Each row is a match spec: a game, its options, the
bot kind of each seat and the goal for the first seat's kind (the subject). Seats rotate from game to game so every kind
plays from every seat; a shared win counts as half (a third, … for a three-way share). The rows: Ticket to Ride's `hard`
against each playstyle agent and against three different ones at a 4-player table, `hard` vs `normal` and `normal` vs
`easy` per map; the card game's and «Поезд»'s levels each against the one below. Times are CPU seconds of the process
thinking, one move at a time, on one core; each worker first builds what a bot process builds once.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any, TextIO

from bot.services.thinking import warm
from rules.engine import Budget, GameEngine
from rules.ttr.bots.agents import AGENTS

RULES = Path(__file__).resolve().parent.parent / "rules"
"""The rules and bots every game here is played by."""
TIMED_KIND = "hard"
"""The kind whose think time per move is measured."""
TTR = "ticket-to-ride"
CARDS = "ticket-to-ride-cards"
DICE = "dice"
AGENT_KINDS = tuple(AGENTS)
"""The playstyle agents, each a yardstick row of its own."""
TABLES = (
    ("route_focus", "destination_hungry", "one_step_thinker"),
    ("long_route", "ticket_planner", "blocker"),
)
"""The 4-player tables: the subject against three different agents (kinds not in `AGENT_KINDS` are left out)."""


@dataclass(frozen=True)
class Match:
    """One row of the table: seat kinds (the first is the subject) in a game with these options, and the goal."""

    label: str
    game_id: str
    kinds: tuple[str, ...]
    goal: float
    """The subject's win share wanted (0–1)."""
    options: dict[str, Any] = field(default_factory=dict)
    budget: float = 1.0
    """CPU seconds a move the `hard` seats may think."""


@dataclass(frozen=True)
class Outcome:
    """One game's result for the subject and the timed kind's think times."""

    share: float
    times: tuple[float, ...]


def ttr_matches(maps: Sequence[str], subject: str = "hard", budget: float = 1.0) -> list[Match]:
    """The Ticket to Ride rows of issue 28, per map: `subject` (normally `hard`, thinking `budget` seconds a move)
    against each agent head to head and three different agents at a 4-player table; hard against normal, normal
    against easy."""
    rows = []
    name = subject if budget == 1.0 else f"{subject} at {budget:g} s"
    for map_id in maps:
        options = {"map": map_id}
        for agent in AGENT_KINDS:
            rows.append(Match(f"{map_id}: {name} vs {agent}", TTR, (subject, agent), 0.75, options, budget))
        for table in TABLES:
            others = tuple(kind for kind in table if kind in AGENT_KINDS)
            label = f"{map_id}: {name} vs {', '.join(others)}"
            rows.append(Match(label, TTR, (subject, *others), 0.5, options, budget))
        if subject == "hard":
            rows.append(Match(f"{map_id}: {name} vs normal", TTR, ("hard", "normal"), 0.65, options, budget))
            rows.append(Match(f"{map_id}: normal vs easy", TTR, ("normal", "easy"), 0.75, options))
    return rows


def level_matches() -> list[Match]:
    """The card game's and «Поезд»'s rows: each level against the one below, head to head (goal 65 %)."""
    return [
        Match(f"{name}: {upper} vs {lower}", game_id, (upper, lower), 0.65)
        for game_id, name in ((CARDS, "cards"), (DICE, "dice"))
        for upper, lower in (("normal", "easy"), ("hard", "normal"))
    ]


def players_version(root: Path = RULES) -> str:
    """A digest of every file of the rules and bots: a logged game counts only towards the version that played it."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _engine(game_id: str) -> GameEngine[Any, Any, Any]:
    from bot.games import GAMES

    return GAMES[game_id].engine


def _warm() -> None:
    """A worker's first job: what a bot process builds once for every game."""
    from bot.games import GAMES

    warm([game.engine for game in GAMES.values()])


def play(match: Match, index: int) -> Outcome:
    """Play game `index` of a match with seats rotated by `index`; the subject's share of the win."""
    engine = _engine(match.game_id)
    n = len(match.kinds)
    shift = index % n
    kinds = match.kinds[shift:] + match.kinds[:shift]
    subject = (n - shift) % n
    seed = 1_000_003 * (index + 1)
    state = engine.new_game(engine.load_options(match.options), n, seed)
    rngs = [random.Random(seed * 31 + seat) for seat in range(n)]
    times = []
    while not engine.is_over(state):
        for seat in sorted(engine.to_act(state)):
            start = time.process_time()
            action = engine.bot_action(state, seat, rngs[seat], kinds[seat], Budget(match.budget))
            if kinds[seat] == TIMED_KIND:
                times.append(time.process_time() - start)
            state, _ = engine.apply(state, seat, action)
    result = engine.result(state)
    assert result is not None
    share = 1 / len(result.winners) if subject in result.winners else 0.0
    return Outcome(share, tuple(times))


def _play(job: tuple[Match, int]) -> tuple[str, int, Outcome]:
    match, index = job
    return match.label, index, play(match, index)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0–1) of the values, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] if ordered else 0.0


def run(matches: Sequence[Match], games: int, workers: int, first: int = 0, log: TextIO | None = None) -> None:
    """Play every match `games` times (game indices from `first`) over a process pool, round by round over the rows;
    log each game to `log` as it ends (with the version that played it), print each row when done."""
    version = players_version()
    by_label = {m.label: m for m in matches}
    jobs = [(match, i) for i in range(first, first + games) for match in matches]
    shares: dict[str, list[float]] = {m.label: [] for m in matches}
    times: dict[str, list[float]] = {}
    start = time.perf_counter()
    _print_header()
    with Pool(workers, initializer=_warm) as pool:
        for label, index, outcome in pool.imap_unordered(_play, jobs, chunksize=1):
            if log is not None:
                spent = " ".join(f"{t:.4f}" for t in outcome.times)
                log.write(f"{label}\t{index}\t{outcome.share}\t{spent}\t{version}\n")
                log.flush()
            shares[label].append(outcome.share)
            match = by_label[label]
            times.setdefault(_timing(match), []).extend(outcome.times)
            if len(shares[label]) == games:
                _print_row(match, shares[label])
    _print_times(times)
    print(f"{len(jobs)} games in {time.perf_counter() - start:.0f} s wall on {workers} workers")


def tally(matches: Sequence[Match], paths: Sequence[str]) -> None:
    """Print the rows of these matches from game logs (`run`'s `log`), each game counted once, and the think times;
    games another version of the rules and bots played are left out, and counted."""
    version = players_version()
    by_label = {m.label: m for m in matches}
    games: dict[str, dict[int, float]] = {label: {} for label in by_label}
    times: dict[str, list[float]] = {}
    other = 0
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                label, index, share, spent, *played_by = line.rstrip("\n").split("\t")
                if played_by != [version]:
                    other += 1
                elif label in games and int(index) not in games[label]:
                    games[label][int(index)] = float(share)
                    times.setdefault(_timing(by_label[label]), []).extend(float(t) for t in spent.split())
    _print_header()
    for match in matches:
        if games[match.label]:
            _print_row(match, list(games[match.label].values()))
    _print_times(times)
    if other:
        print(f"left out: {other} games played by other versions of the rules and bots (this one is {version})")


def _print_header() -> None:
    """The table's header line."""
    print(f"{'match':60} {'games':>5} {'wins':>6} {'95 % interval':>15} {'goal':>5}  met", flush=True)


def _timing(match: Match) -> str:
    """The think times a match's moves are counted with: those of the same game at the same budget."""
    return f"{match.game_id} at {match.budget:g} s"


def _print_times(times: Mapping[str, Sequence[float]]) -> None:
    """The timed kind's CPU seconds per move, per game and budget: median, p90, p99 and the longest."""
    for group, spent in times.items():
        if spent:
            print(
                f"{TIMED_KIND} CPU s per move, {group}, over {len(spent)} moves: p50 {statistics.median(spent):.3f}"
                f" p90 {percentile(spent, 0.9):.3f} p99 {percentile(spent, 0.99):.3f} max {max(spent):.3f}"
            )


def _print_row(match: Match, got: list[float]) -> None:
    """One row: games, win share, its 95 % Wilson interval, the goal and whether it is met."""
    wins = sum(got)
    low, high = wilson(wins, len(got))
    rate = wins / len(got)
    met = "yes" if rate >= match.goal else "no"
    print(f"{match.label:60} {len(got):5} {rate:6.1%} {low:7.1%}–{high:6.1%} {match.goal:5.0%}  {met}", flush=True)


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per row")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quick", action="store_true", help="10 games per row")
    parser.add_argument("--maps", default="usa,europe", help="comma-separated map ids")
    parser.add_argument("--only", default="", help="play only rows whose label contains this text")
    parser.add_argument("--start", type=int, default=0, help="first game index (runs with disjoint ranges add up)")
    parser.add_argument("--subject", default="hard", help="the Ticket to Ride kind played against the agents")
    parser.add_argument("--budget", type=float, default=1.0, help="CPU seconds a move for the hard seats")
    parser.add_argument("--log", help="append a line per game to this file")
    parser.add_argument("--tally", nargs="+", metavar="LOG", help="print the table from these game logs, play none")
    args = parser.parse_args()
    games = 10 if args.quick else args.games
    ttr = ttr_matches(args.maps.split(","), args.subject, args.budget)
    matches = [m for m in (*ttr, *level_matches()) if args.only in m.label]
    if args.tally:
        tally(matches, args.tally)
    elif args.log:
        with open(args.log, "a", encoding="utf-8") as log:
            run(matches, games, args.workers, args.start, log)
    else:
        run(matches, games, args.workers, args.start)


if __name__ == "__main__":
    main()
