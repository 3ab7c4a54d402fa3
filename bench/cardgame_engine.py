"""Card game engine figures: random games per second, worst-case assignment search, sensible-bot win rate.

Run: `.venv/bin/python -m bench.cardgame_engine` (add `--quick` for a short run). Times are CPU time of this one
process (`time.process_time`), so other work on the machine disturbs them less; speed runs start after a short
warm-up, as a long-running bot process would be.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules.cardgame.assignment import best_assignment
from rules.cardgame.engine import CardGameEngine
from rules.cardgame.options import CardGameOptions
from rules.cardgame.state import CardGameState
from rules.cardgame.tickets import Ticket, load_data

ENGINE = CardGameEngine()


def play(n_players: int, seed: int, kinds: list[str]) -> CardGameState:
    """Play one seeded game with bots to the end."""
    state = ENGINE.new_game(CardGameOptions(), n_players, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, kinds[seat]))
    return state


def games_per_second(n_players: int, kind: str, games: int, rounds: int) -> tuple[float, float]:
    """Complete games per CPU second with every seat played by `kind`: (best round, median round)."""
    for seed in range(5):
        play(n_players, 10_000 + seed, [kind] * n_players)
    rates = []
    for r in range(rounds):
        start = time.process_time()
        for seed in range(games):
            play(n_players, r * games + seed, [kind] * n_players)
        rates.append(games / (time.process_time() - start))
    return max(rates), statistics.median(rates)


def assignment_times(hand_size: int, trials: int, seed: int) -> tuple[float, float, list[int]]:
    """Search random stacks against random hands of `hand_size` tickets: (median s, worst s, worst stack).

    The slowest case is timed again (best of 3), so a garbage-collector pause does not pass for the search.
    """
    rng = random.Random(seed)
    tickets: list[Ticket] = list(load_data().tickets)
    times = []
    worst: tuple[float, list[int], list[Ticket]] = (0.0, [], [])
    for _ in range(trials):
        top = rng.randint(1, 10)
        stack = [rng.randint(0, top) for _ in range(8)] + [rng.randint(0, 16)]
        held = rng.sample(tickets, hand_size)
        spent = _timed(stack, held, repeat=1)
        times.append(spent)
        if spent > worst[0]:
            worst = (spent, stack, held)
    return statistics.median(times), _timed(worst[1], worst[2], repeat=3), worst[1]


def _timed(stack: list[int], held: list[Ticket], repeat: int) -> float:
    """CPU seconds of one assignment search, the best of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        best_assignment(stack, held)
        best = min(best, time.process_time() - start)
    return best


def scoring_times(games: int) -> tuple[float, float, int]:
    """Time the assignment at every scoring of 4-player sensible-bot games: (median s, worst s, most tickets)."""
    times = []
    most = 0
    for seed in range(games):
        state = play(4, 70_000 + seed, ["sensible"] * 4)
        for scoring in (state.first_scoring, state.final_scoring):
            for record in scoring or ():
                held = [load_data().ticket(t) for t in (*record.unfinished, *(s.ticket for s in record.completed))]
                most = max(most, len(held))
                start = time.process_time()
                best_assignment(record.stack, held)
                times.append(time.process_time() - start)
    return statistics.median(times), max(times), most


def hardest_stack(start: list[int], steps: int, seed: int) -> tuple[float, list[int]]:
    """Hill-climb from `start` towards the slowest stack for a hand of all 46 tickets: (worst s, its stack)."""
    rng = random.Random(seed)
    tickets = list(load_data().tickets)
    caps = [10] * 8 + [16]

    def cost(stack: list[int]) -> float:
        return _timed(stack, tickets, repeat=2)  # the quicker of two: timer noise must not steer the climb

    worst, stack = cost(start), start
    for _ in range(steps):
        trial = list(stack)
        kind = rng.randrange(9)
        trial[kind] = min(caps[kind], max(0, trial[kind] + rng.choice((-2, -1, 1, 2))))
        spent = cost(trial)
        if spent > worst:
            worst, stack = spent, trial
    return worst, stack


def win_rate(n_players: int, games: int) -> float:
    """Share of games a single sensible bot wins (shared wins count) against random players."""
    wins = 0
    for seed in range(games):
        sensible = seed % n_players
        kinds = ["sensible" if s == sensible else "random" for s in range(n_players)]
        result = ENGINE.result(play(n_players, 50_000 + seed, kinds))
        assert result is not None
        wins += sensible in result.winners
    return wins / games


def main() -> None:
    """Print every figure; `--quick` shortens each run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games and trials")
    quick = parser.parse_args().quick
    games, rounds, trials, matches, climb = (20, 2, 60, 40, 30) if quick else (100, 5, 400, 200, 300)
    print("Complete games per CPU second (one core):")
    for n, kind in ((4, "random"), (4, "sensible"), (3, "random"), (2, "random")):
        best, median = games_per_second(n, kind, games, rounds)
        print(f"  {n} players, {kind:8}: best {best:6.1f}/s, median {median:6.1f}/s over {rounds}×{games} games")
    print("Exact stack-to-ticket assignment, random stacks (up to 10 per colour, 16 locomotives):")
    for size in (6, 12, 20, 30, 46):
        median, worst, stack = assignment_times(size, trials, seed=size)
        print(f"  {size:2} tickets: median {median * 1e3:7.2f} ms, worst {worst * 1e3:7.1f} ms  (stack {stack})")
    median, worst, most = scoring_times(matches // 4)
    print(f"  real scorings of {matches // 4} sensible 4-player games (up to {most} tickets): ", end="")
    print(f"median {median * 1e3:.2f} ms, worst {worst * 1e3:.1f} ms")
    worst, stack = hardest_stack(stack, climb, seed=1)
    print(f"  46 tickets, hardest stack found by hill-climbing ({climb} steps): {worst * 1e3:.1f} ms  (stack {stack})")
    print("Sensible bot against random players (share of games won):")
    for n in (2, 4):
        print(f"  1 sensible vs {n - 1} random: {win_rate(n, matches):.0%} of {matches} games")


if __name__ == "__main__":
    main()
