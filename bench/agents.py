"""What each Ticket to Ride playstyle agent achieves head to head against `normal`, so anyone can judge it a fair
opponent.

Run: `.venv/bin/python -m bench.agents` (`--games N` per agent and map, default 100; `--workers N` processes,
default the CPU count; `--maps usa` to pick maps; `--only long_route` to pick agents). Every deal is played twice,
the seats swapped. Per map and agent, averaged over its games against `normal`: tickets kept and completed (and the
share completed), points, cars left, stations built, face-up locomotives taken as a first pick and ticket draws after
the opening per game, and its win share against `normal` with a 95 % Wilson interval. `normal`'s own line is normal
against normal (50 % by construction: a swapped deal is the same game).
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from bench.levels import wilson
from rules.ttr.actions import DrawCard, DrawTickets
from rules.ttr.board import CARD_NAMES, LOCO
from rules.ttr.bots import PERSONALITIES
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.scoring import final_scores
from rules.ttr.state import Phase

ENGINE = TicketToRideEngine()
OPPONENT = "normal"
FACE_UP_LOCO = DrawCard(source=CARD_NAMES[LOCO])


@dataclass(frozen=True)
class Figures:
    """One game's figures for the agent's seat."""

    kept: int
    completed: int
    points: int
    cars: int
    stations: int
    locomotives: int
    ticket_draws: int
    share: float


def play(map_id: str, agent: str, index: int) -> Figures:
    """Play game `index` of the agent against `normal`: each deal twice, the agent in seat `index % 2`."""
    me = index % 2
    kinds = [OPPONENT, OPPONENT]
    kinds[me] = agent
    seed = 1_000_003 * (index // 2 + 1)
    state = ENGINE.new_game(ENGINE.load_options({"map": map_id}), 2, seed)
    rngs = [random.Random(seed * 31 + seat) for seat in range(2)]
    locomotives = ticket_draws = 0
    while not ENGINE.is_over(state):
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rngs[seat], kinds[seat])
            if seat == me and state.phase is Phase.TURN:
                locomotives += action == FACE_UP_LOCO
                ticket_draws += isinstance(action, DrawTickets)
            state, _ = ENGINE.apply(state, seat, action)
    result = ENGINE.result(state)
    assert result is not None
    score = final_scores(state)[me]
    return Figures(
        kept=len(score.tickets),
        completed=score.completed,
        points=score.total,
        cars=state.cars[me],
        stations=len(score.borrowed),
        locomotives=locomotives,
        ticket_draws=ticket_draws,
        share=1 / len(result.winners) if me in result.winners else 0.0,
    )


def _play(job: tuple[str, str, int]) -> tuple[str, str, Figures]:
    map_id, agent, index = job
    return map_id, agent, play(map_id, agent, index)


HEADER = (
    f"{'map':7} {'agent':19} {'games':>5} {'kept':>5} {'done':>5} {'rate':>5} {'points':>6} {'cars':>5}"
    f" {'stat':>5} {'loco1':>5} {'tick':>5} {'wins':>6} {'95 % interval':>15}"
)


def _print_row(map_id: str, agent: str, rows: Sequence[Figures]) -> None:
    """The averages of one agent on one map."""
    n = len(rows)

    def mean(name: str) -> float:
        return sum(getattr(r, name) for r in rows) / n

    wins = sum(r.share for r in rows)
    low, high = wilson(wins, n)
    rate = mean("completed") / mean("kept") if mean("kept") else 0.0
    print(
        f"{map_id:7} {agent:19} {n:5} {mean('kept'):5.2f} {mean('completed'):5.2f} {rate:5.0%} {mean('points'):6.1f}"
        f" {mean('cars'):5.1f} {mean('stations'):5.2f} {mean('locomotives'):5.2f} {mean('ticket_draws'):5.2f}"
        f" {wins / n:6.1%} {low:7.1%}–{high:6.1%}",
        flush=True,
    )


def run(maps: Sequence[str], agents: Sequence[str], games: int, workers: int) -> None:
    """Play every agent `games` times per map over a process pool; print each row when its games are done."""
    jobs = [(m, a, i) for m in maps for a in agents for i in range(games)]
    got: dict[tuple[str, str], list[Figures]] = {(m, a): [] for m in maps for a in agents}
    print(HEADER, flush=True)
    with Pool(workers) as pool:
        for map_id, agent, figures in pool.imap(_play, jobs, chunksize=1):
            rows = got[map_id, agent]
            rows.append(figures)
            if len(rows) == games:
                _print_row(map_id, agent, rows)
    print("kept, done: tickets per game; stat: stations built; loco1: face-up locomotives taken as a first pick;")
    print(f"tick: ticket draws after the opening; wins: the agent's share against {OPPONENT}")


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per agent and map")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--maps", default="usa,europe", help="comma-separated map ids")
    parser.add_argument("--only", default="", help="play only agents whose name contains this text")
    args = parser.parse_args()
    agents = [a for a in (*PERSONALITIES, OPPONENT) if args.only in a]
    run(args.maps.split(","), agents, args.games, args.workers)


if __name__ == "__main__":
    main()
