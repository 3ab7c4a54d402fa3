"""Ticket to Ride engine figures: random games per second and where a move's CPU goes, worst-case graph work, state
copies, normal-bot wins.

Run: `.venv/bin/python -m bench.ttr_engine` (add `--quick` for a short run). Times are CPU time of this one
process (`time.process_time`), so other work on the machine disturbs them less; the speed runs start after a
short warm-up, as a long-running bot process would be.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from bench.ttr_worst_cases import SLOW_NETWORKS, grow
from rules.models import evolve
from rules.ttr.actions import TtrAction
from rules.ttr.board import board_for
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.graph import Edge, longest_trail
from rules.ttr.options import TtrOptions
from rules.ttr.state import TtrState
from rules.ttr.stations import best_station_use

ENGINE = TicketToRideEngine()
Move = Callable[[TtrState, int, TtrAction], object]
"""Something that makes one move: `ENGINE.apply`, or a bot choosing it."""


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


def move_costs(map_id: str, games: int) -> dict[str, float]:
    """CPU microseconds per move of random 4-player games: whole games, the engine's `apply` alone, the random bot
    alone, both again with each move repeated in a row (everything it touches in the CPU's caches: the best case of
    today's code), and the floor of the contract: the same loop making each new state from only the fields the move
    changed, with no rules at all (what any engine that keeps pydantic states and this loop pays)."""
    options = TtrOptions.model_validate({"map": map_id})
    recorded = []
    for seed in range(games):
        state = ENGINE.new_game(options, 4, seed)
        rng = random.Random(seed)
        steps = []
        while not ENGINE.is_over(state):
            seat = min(ENGINE.to_act(state))
            action = ENGINE.bot_action(state, seat, rng, "random")
            after, events = ENGINE.apply(state, seat, action)
            changed = {k: v for k, v in after.__dict__.items() if state.__dict__[k] is not v}
            steps.append((state, seat, action, changed, events))
            state = after
        recorded.append(steps)
    moves = sum(map(len, recorded))
    bot_rng = random.Random(1)

    def whole() -> None:
        for seed in range(games):
            play(map_id, 4, seed, ["random"] * 4)

    def apply_alone() -> None:
        for steps in recorded:
            state = steps[0][0]
            for _, seat, action, _, _ in steps:
                state, _ = ENGINE.apply(state, seat, action)

    def bot_alone() -> None:
        for steps in recorded:
            for state, seat, _, _, _ in steps:
                ENGINE.bot_action(state, seat, bot_rng, "random")

    def floor() -> None:
        for steps in recorded:
            state = steps[0][0]
            for _, _, _, changed, events in steps:
                ENGINE.is_over(state)
                sorted(ENGINE.to_act(state))
                bot_rng.randrange(40)
                state = evolve(state, dict(changed))
                list(events)

    sample = [step for steps in recorded for step in steps[::HOT_EVERY]]

    def hot(move: Move) -> float:
        total = sum(_timed(partial(_repeated, move, state, seat, action)) for state, seat, action, _, _ in sample)
        return total / HOT_REPEAT / len(sample) * 1e6

    parts = {"whole game": whole, "apply alone": apply_alone, "random bot alone": bot_alone, "floor": floor}
    costs = {label: _timed(work) / moves * 1e6 for label, work in parts.items()}
    costs["apply hot"] = hot(ENGINE.apply)
    costs["random bot hot"] = hot(lambda state, seat, _: ENGINE.bot_action(state, seat, bot_rng, "random"))
    return costs


def _repeated(move: Move, state: TtrState, seat: int, action: TtrAction) -> None:
    """Make the same move `HOT_REPEAT` times."""
    for _ in range(HOT_REPEAT):
        move(state, seat, action)


HOT_EVERY = 7
HOT_REPEAT = 200
"""`move_costs` times every 7th move of its games 200 times in a row."""


def _timed(work: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def worst_longest_trail(samples: int) -> tuple[float, str]:
    """The slowest longest-trail search found over many dense random networks of 45 cars, on both maps."""
    worst, label = 0.0, ""
    rnd = random.Random(1)
    for map_id in ("usa", "europe"):
        board = board_for(map_id)
        for _ in range(samples):
            owned = grow(board, rnd, [])
            edges: list[Edge] = [
                (board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned
            ]
            seconds = _timed(lambda edges=edges: longest_trail(edges), repeat=1)  # type: ignore[misc]
            if seconds > worst:
                worst = _timed(lambda edges=edges: longest_trail(edges))  # type: ignore[misc]
                label = f"{map_id}, {len(owned)} tracks"
    return worst, label


HARD_NETWORKS = (
    "europe:0,1,2,3,15,17,21,26,27,29,48,49,54,56,57,59,77,79,84,96,97",
    "usa:2,5,8,17,20,21,26,27,29,40,56,57,60,63,65,66,76,77,83,84,85",
    "usa:2,10,18,20,21,26,29,32,40,50,56,57,60,65,76,77,80,83,85,90,99",
    "europe:0,15,18,20,21,28,30,31,34,38,39,48,49,77,79,84,93,96,97,100",
    "usa:0,2,6,22,24,25,28,30,32,38,56,58,60,63,64,65,66,76,83,93",
    "europe:4,21,26,29,30,31,34,38,39,43,48,49,57,74,78,79,84,89,96,97,100",
    "europe:0,3,13,15,21,22,23,26,27,29,48,49,50,54,55,58,69,79,84",
    "europe:0,1,2,13,15,21,22,23,26,27,29,38,49,54,56,57,59,64,78,79",
    *SLOW_NETWORKS[2:],
)
"""The slowest networks found by hill-climbing (`bench.ttr_worst_cases`, whose `SLOW_NETWORKS` start the same) and by
`worst_longest_trail`, for three successive searches: timed here so a paired run compares them."""


def hard_networks() -> tuple[float, str]:
    """The slowest longest-trail search over `HARD_NETWORKS`."""
    worst, label = 0.0, ""
    for network in HARD_NETWORKS:
        map_id, _, text = network.partition(":")
        board = board_for(map_id)
        owned = [int(i) for i in text.split(",")]
        edges: list[Edge] = [
            (board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned
        ]
        seconds = _timed(lambda edges=edges: longest_trail(edges))  # type: ignore[misc]
        if seconds > worst:
            worst, label = seconds, f"{map_id}, {len(owned)} tracks"
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


def copy_costs(samples: int = 2000) -> tuple[float, float, float, int]:
    """Microseconds per `model_copy`, per `copy.copy` and per pickle round trip of mid-game Europe states, and the
    pickled size in bytes (a search copies states; a process pool pickles them)."""
    state = ENGINE.new_game(TtrOptions.model_validate({"map": "europe"}), 4, 7)
    rng = random.Random(7)
    for _ in range(150):
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "random"))
    blob = pickle.dumps(state)
    assert pickle.loads(blob) == state and copy.copy(state) == state
    model = _timed(lambda: [state.model_copy() for _ in range(samples)]) / samples
    shallow = _timed(lambda: [copy.copy(state) for _ in range(samples)]) / samples
    round_trip = _timed(lambda: [pickle.loads(pickle.dumps(state)) for _ in range(samples)]) / samples
    return model * 1e6, shallow * 1e6, round_trip * 1e6, len(blob)


def win_rate(games: int) -> dict[str, tuple[int, int]]:
    """Games won (shared wins count) by one normal player against 3 random ones, per map; seats rotate."""
    wins: dict[str, tuple[int, int]] = {}
    for map_id in ("usa", "europe"):
        won = 0
        count = games // 2
        for game in range(count):
            seat = game % 4
            kinds = ["random"] * 4
            kinds[seat] = "normal"
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
    parser.add_argument("--winrate-games", type=int, default=1000, help="games for the normal bot's win rate (0: none)")
    parser.add_argument("--trail-samples", type=int, default=300, help="random networks per map for the trail")
    parser.add_argument("--quick", action="store_true", help="a short run: 40 games × 2 rounds, 100 win-rate games")
    args = parser.parse_args()
    if args.quick:
        args.games, args.rounds, args.winrate_games, args.trail_samples = 40, 2, 100, 60
    for map_id in ("usa", "europe"):
        best, median = games_per_second(map_id, args.games, args.rounds)
        print(f"{map_id}: random 4-player games per CPU second: best {best:.0f}, median {median:.0f}")
        costs = move_costs(map_id, args.games // 4)
        print(f"{map_id}: CPU µs per move: " + ", ".join(f"{label} {us:.1f}" for label, us in costs.items()))
    seconds, label = worst_longest_trail(args.trail_samples)
    print(f"longest trail, worst case found: {seconds * 1000:.2f} ms ({label})")
    seconds, label = hard_networks()
    print(f"longest trail, worst of the hill-climbed networks: {seconds * 1000:.2f} ms ({label})")
    seconds, label = worst_stations()
    print(f"station use, worst case constructed: {seconds * 1000:.2f} ms ({label})")
    model, shallow, round_trip, size = copy_costs()
    print(
        f"state copy: model_copy {model:.1f} µs, copy.copy {shallow:.1f} µs, "
        f"pickle round trip {round_trip:.1f} µs ({size} bytes)"
    )
    if args.winrate_games <= 0:
        return
    for map_id, (won, count) in win_rate(args.winrate_games).items():
        print(f"{map_id}: normal vs 3 random: won {won}/{count} = {100 * won / count:.1f}%")


if __name__ == "__main__":
    main()
