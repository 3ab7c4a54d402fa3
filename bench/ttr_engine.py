"""Ticket to Ride engine figures: random games per second, worst-case graph work, sensible-bot win rate.

Run: `.venv/bin/python -m bench.ttr_engine` (add `--quick` for a short run). Times are CPU time of this one
process (`time.process_time`), so other work on the machine disturbs them less; the speed runs start after a
short warm-up, as a long-running bot process would be.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from rules.ttr.board import Board, board_for
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.graph import Edge, longest_trail
from rules.ttr.options import TtrOptions
from rules.ttr.state import TtrState
from rules.ttr.stations import best_station_use

ENGINE = TicketToRideEngine()


def play(map_id: str, n_players: int, seed: int, kinds: list[str]) -> TtrState:
    """Play one seeded game with bots to the end."""
    state = ENGINE.new_game(TtrOptions.model_validate({"map": map_id}), n_players, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, kinds[seat]))
    return state


def games_per_second(map_id: str, games: int, rounds: int) -> tuple[float, float]:
    """Random 4-player games per CPU second: (best round, median round)."""
    for seed in range(10):
        play(map_id, 4, 10_000 + seed, ["random"] * 4)
    rates = []
    for r in range(rounds):
        start = time.process_time()
        for seed in range(games):
            play(map_id, 4, r * games + seed, ["random"] * 4)
        rates.append(games / (time.process_time() - start))
    return max(rates), statistics.median(rates)


def _timed(work: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def _grow(board: Board, rnd: random.Random, cars: int) -> list[int]:
    """A connected set of one player's tracks within `cars`, preferring short tracks (many edges, many cycles)."""
    owned: list[int] = []
    cities: set[int] = set()
    left = cars
    while True:
        options = [
            i
            for i in range(board.n_tracks)
            if i not in owned
            and board.track_partner[i] not in owned
            and board.track_len[i] <= left
            and (not cities or board.track_a[i] in cities or board.track_b[i] in cities)
        ]
        if not options:
            return owned
        weights = [1.0 / board.track_len[i] ** 2 for i in options]
        pick = rnd.choices(options, weights)[0]
        owned.append(pick)
        cities |= {board.track_a[pick], board.track_b[pick]}
        left -= board.track_len[pick]


def worst_longest_trail(samples: int) -> tuple[float, str]:
    """The slowest longest-trail search found over many dense random networks of 45 cars, on both maps."""
    worst, label = 0.0, ""
    rnd = random.Random(1)
    for map_id in ("usa", "europe"):
        board = board_for(map_id)
        for _ in range(samples):
            owned = _grow(board, rnd, 45)
            edges: list[Edge] = [
                (board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned
            ]
            seconds = _timed(lambda edges=edges: longest_trail(edges), repeat=1)  # type: ignore[misc]
            if seconds > worst:
                worst = _timed(lambda edges=edges: longest_trail(edges))  # type: ignore[misc]
                label = f"{map_id}, {len(owned)} tracks"
    return worst, label


def worst_stations() -> tuple[float, str]:
    """Best station use with 3 stations on the busiest Europe cities, every route there another player's."""
    board = board_for("europe")
    busiest = sorted(range(len(board.city_ids)), key=lambda c: -len(board.city_tracks[c]))[:3]
    borrowable = [
        [(board.track_a[i], board.track_b[i], board.track_ids[i]) for i in board.city_tracks[c]] for c in busiest
    ]
    tickets = list(board.tickets.values())  # every ticket of the map held by one player
    seconds = _timed(lambda: best_station_use(len(board.city_ids), [], busiest, borrowable, tickets))
    combos = 1
    for options in borrowable:
        combos *= len(options) + 1
    names = ", ".join(board.city_ids[c] for c in busiest)
    return seconds, f"stations at {names}, {len(tickets)} tickets, ≤ {combos} combinations"


def win_rate(games: int) -> dict[str, tuple[int, int]]:
    """Games won (shared wins count) by one sensible player against 3 random ones, per map; seats rotate."""
    wins: dict[str, tuple[int, int]] = {}
    for map_id in ("usa", "europe"):
        won = 0
        count = games // 2
        for game in range(count):
            seat = game % 4
            kinds = ["random"] * 4
            kinds[seat] = "sensible"
            result = ENGINE.result(play(map_id, 4, 50_000 + game, kinds))
            assert result is not None
            won += seat in result.winners
        wins[map_id] = (won, count)
    return wins


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random games per speed round")
    parser.add_argument("--rounds", type=int, default=3, help="speed rounds (best and median reported)")
    parser.add_argument("--winrate-games", type=int, default=1000, help="games for the sensible bot's win rate")
    parser.add_argument("--trail-samples", type=int, default=300, help="random networks per map for the trail")
    parser.add_argument("--quick", action="store_true", help="a short run: 40 games × 2 rounds, 100 win-rate games")
    args = parser.parse_args()
    if args.quick:
        args.games, args.rounds, args.winrate_games, args.trail_samples = 40, 2, 100, 60
    for map_id in ("usa", "europe"):
        best, median = games_per_second(map_id, args.games, args.rounds)
        print(f"{map_id}: random 4-player games per CPU second: best {best:.0f}, median {median:.0f} (goal ≥ 150)")
    seconds, label = worst_longest_trail(args.trail_samples)
    print(f"longest trail, worst case found: {seconds * 1000:.2f} ms ({label})")
    seconds, label = worst_stations()
    print(f"station use, worst case constructed: {seconds * 1000:.2f} ms ({label})")
    for map_id, (won, count) in win_rate(args.winrate_games).items():
        print(f"{map_id}: sensible vs 3 random: won {won}/{count} = {100 * won / count:.1f}%")


if __name__ == "__main__":
    main()
