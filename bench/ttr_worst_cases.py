"""Hill-climb for the slowest longest-trail and station-use inputs of Ticket to Ride, and print the worst found.

Run: `.venv/bin/python -m bench.ttr_worst_cases` (`--quick` for a short run). The search mutates one player's
network (at most 45 cars of tracks it could own: never both tracks of a double route) and keeps a mutation when it
makes the work slower (CPU time, best of 3 timings); for stations it also mutates the 3 station cities and the
tickets held, every other track being another player's. It first times the fixed `SLOW_NETWORKS`.
`--trail europe:12,40,…` times a given network instead (the network line of another run); `--compare old.py`
times another version of rules/ttr/graph.py (e.g. `git show HEAD:rules/ttr/graph.py > /tmp/old.py`) on the same
networks in the same run, the hill-climbs included, so before and after are paired. `--games N` times ordinary
networks instead: every player's at the end of N seeded games of `normal` bots per map (2 to 4 players).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable, Sequence

from rules.ttr.board import Board, board_for
from rules.ttr.graph import Edge, longest_trail
from rules.ttr.stations import best_station_use

CARS = 45

Trail = Callable[[Sequence[Edge]], tuple[int, list[int]]]

SLOW_NETWORKS = (
    "europe:0,1,2,3,15,17,21,26,27,29,48,49,54,56,57,59,77,79,84,96,97",
    "usa:2,5,8,17,20,21,26,27,29,40,56,57,60,63,65,66,76,77,83,84,85",
    "europe:0,1,2,3,15,16,20,21,26,27,29,37,47,49,54,55,59,79,84,97,100",
    "europe:0,2,3,17,21,26,27,28,38,47,49,54,57,59,74,77,78,79,84,89,97,100",
    "europe:0,1,2,3,15,21,26,27,28,38,48,49,54,56,57,58,72,74,77,78,100",
    "usa:0,2,5,16,17,21,25,27,28,31,34,40,54,56,58,59,63,65,66,76,92",
    "europe:0,1,3,15,16,20,26,27,29,38,39,48,49,54,57,59,74,77,79,89,97,100",
    "usa:0,2,6,7,9,16,22,25,27,28,56,58,60,63,65,66,76,78,80,83,85,86,93",
    "europe:0,1,2,13,15,21,22,23,26,28,37,47,49,54,57,78,79,82,84,100",
    "europe:0,17,21,26,27,29,35,37,39,47,49,54,57,74,78,79,84,96,97,100",
    "usa:2,4,6,21,25,27,29,32,34,38,41,49,57,59,63,66,76,81,82,91",
    "europe:0,2,13,21,22,23,26,29,48,49,57,58,71,72,74,77,79,96,97",
    "usa:0,2,6,7,9,16,17,20,21,29,41,55,57,60,63,65,66,76,78,80,86,92",
    "usa:2,3,6,18,20,22,25,27,28,41,54,55,58,59,64,65,74,76,83,93",
    "europe:0,1,2,15,21,22,26,28,36,38,39,49,54,57,74,77,78,84,96,97,100",
    "europe:0,2,3,11,12,13,26,27,29,48,49,50,57,69,74,77,79,83,96,97",
    "europe:0,1,2,15,16,20,26,29,30,37,39,49,54,57,58,74,77,79,96,97,100",
)
"""The slowest networks the hill-climb found: against the search before the bridge split (first five), after it
(the next seven; the seventh against that search before its removal search could go first), and against the
search by blocks and arms (the last five)."""


def timed(work: Callable[[], object], repeat: int = 3) -> float:
    """Best CPU time of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def edges_of(board: Board, owned: list[int]) -> list[Edge]:
    """A player's tracks as graph edges."""
    return [(board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in owned]


def cars(board: Board, owned: list[int]) -> int:
    """Cars a network uses."""
    return sum(board.track_len[i] for i in owned)


def grow(board: Board, rnd: random.Random, owned: list[int]) -> list[int]:
    """Add tracks touching the network (short ones preferred: many tracks make many cycles) while cars are left."""
    owned = list(owned)
    cities = {c for i in owned for c in (board.track_a[i], board.track_b[i])}
    while True:
        left = CARS - cars(board, owned)
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
        pick = rnd.choices(options, [1.0 / board.track_len[i] ** 2 for i in options])[0]
        owned.append(pick)
        cities |= {board.track_a[pick], board.track_b[pick]}


def mutate(board: Board, rnd: random.Random, owned: list[int]) -> list[int]:
    """Drop one to three tracks and grow again."""
    owned = list(owned)
    for _ in range(rnd.randint(1, 3)):
        if owned:
            owned.pop(rnd.randrange(len(owned)))
    return grow(board, rnd, owned)


def worst_trail(map_id: str, steps: int, seed: int, trail: Trail = longest_trail) -> tuple[float, list[int]]:
    """Hill-climb for the network whose longest trail takes `trail` longest."""
    board = board_for(map_id)
    rnd = random.Random(seed)
    owned = grow(board, rnd, [])
    worst = timed(lambda: trail(edges_of(board, owned)))
    for _ in range(steps):
        candidate = mutate(board, rnd, owned)
        edges = edges_of(board, candidate)
        seconds = timed(lambda: trail(edges))  # noqa: B023 (timed at once)
        if seconds > worst:
            worst, owned = seconds, candidate
    return worst, owned


def network(text: str) -> tuple[Board, list[int]]:
    """A network line `map:track index,…` read back."""
    map_id, _, indices = text.partition(":")
    return board_for(map_id), [int(i) for i in indices.split(",")]


def load_trail(path: str) -> Trail:
    """The `longest_trail` of another version of rules/ttr/graph.py."""
    spec = importlib.util.spec_from_file_location("other_graph", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    trail: Trail = module.longest_trail
    return trail


def versions(other: Trail | None) -> list[tuple[str, Trail]]:
    """This `longest_trail`, and the other one to compare if any, by name."""
    return [("this", longest_trail)] + ([("other", other)] if other else [])


def trail_figures(steps: int, seeds: list[int], other: Trail | None) -> None:
    """Time the fixed slow networks, hill-climb per map and seed, and print the worst; with `other`, time it on
    every network too (and hill-climb against it as well, so its own worst cases count)."""
    found = list(SLOW_NETWORKS)
    for map_id in ("usa", "europe"):
        for seed in seeds:
            for name, trail in versions(other):
                seconds, owned = worst_trail(map_id, steps, seed, trail)
                line = f"{map_id}:{','.join(map(str, sorted(owned)))}"
                print(f"hill-climb vs {name}, {map_id} seed {seed}: {seconds * 1000:.2f} ms  {line}")
                found.append(line)
    worst = {name: (0.0, "") for name, _ in versions(other)}
    for text in dict.fromkeys(found):
        board, owned = network(text)
        edges = edges_of(board, owned)
        figures = []
        for name, trail in versions(other):
            seconds = timed(lambda: trail(edges))  # noqa: B023 (timed at once)
            figures.append(f"{name} {seconds * 1000:.2f} ms")
            if seconds > worst[name][0]:
                worst[name] = (seconds, text)
        length, _ = longest_trail(edges)
        print(f"  {', '.join(figures)}  ({len(owned)} tracks, {cars(board, owned)} cars, trail {length})  {text}")
    for name, (seconds, text) in worst.items():
        print(f"longest trail, worst over these networks ({name}): {seconds * 1000:.2f} ms (goal ≤ 2 ms)  {text}")
    if other:
        ratio = worst["other"][0] / worst["this"][0]
        print(f"longest trail, worst case other / this: {ratio:.1f}×")


def end_networks(games: int) -> list[list[Edge]]:
    """Every player's network at the end of `games` seeded games of `normal` bots per map, 2 to 4 players."""
    # Imported here: the graph's tests import this module (`grow`) and need no engine.
    from rules.ttr.engine import TicketToRideEngine
    from rules.ttr.options import TtrOptions
    from rules.ttr.scoring import own_edges

    engine = TicketToRideEngine()
    networks = []
    for map_id in ("usa", "europe"):
        board = board_for(map_id)
        for seed in range(games):
            n_players = 2 + seed % 3
            state = engine.new_game(TtrOptions.model_validate({"map": map_id}), n_players, seed)
            rng = random.Random(seed)
            while not engine.is_over(state):
                for seat in sorted(engine.to_act(state)):
                    state, _ = engine.apply(state, seat, engine.bot_action(state, seat, rng, "normal"))
            networks.extend(own_edges(board, state.owners, seat) for seat in range(n_players))
    return networks


def ordinary_figures(games: int, other: Trail | None) -> None:
    """Median, 99th percentile and worst time of the longest trail over ordinary end-of-game networks; with
    `other`, its figures too and the ratios, timed network by network in the same run."""
    networks = end_networks(games)
    timings: dict[str, list[float]] = {name: [] for name, _ in versions(other)}
    for edges in networks:
        for name, trail in versions(other):
            timings[name].append(timed(lambda: trail(edges)))  # noqa: B023 (timed at once)
    figures = {}
    for name, seconds in timings.items():
        seconds.sort()
        figures[name] = (statistics.median(seconds), seconds[min(len(seconds) - 1, len(seconds) * 99 // 100)])
        median, p99 = figures[name]
        print(
            f"longest trail over {len(networks)} end-of-game networks ({name}): median {median * 1000:.3f} ms, "
            f"p99 {p99 * 1000:.3f} ms, worst {seconds[-1] * 1000:.3f} ms"
        )
    if other:
        ratios = [a / b for a, b in zip(figures["other"], figures["this"], strict=True)]
        print(f"longest trail, end-of-game networks other / this: median {ratios[0]:.1f}×, p99 {ratios[1]:.1f}×")


StationCase = tuple[list[int], list[int], list[int]]
"""(the player's own tracks, its 3 station cities, its ticket ids)."""


def station_work(board: Board, case: StationCase) -> Callable[[], object]:
    """The end-of-game station choice for this case, every track not the player's being another player's."""
    owned, cities, ticket_ids = case
    own = set(owned)
    borrowable = [
        [(board.track_a[i], board.track_b[i], board.track_ids[i]) for i in board.city_tracks[c] if i not in own]
        for c in cities
    ]
    own_edges = [(board.track_a[i], board.track_b[i]) for i in owned]
    tickets = [board.tickets[t] for t in ticket_ids]
    return lambda: best_station_use(len(board.city_ids), own_edges, cities, borrowable, tickets)


def worst_stations(steps: int, seed: int) -> tuple[float, StationCase]:
    """Hill-climb for the station choice that takes longest: from the busiest cities and every ticket."""
    board = board_for("europe")
    rnd = random.Random(seed)
    busiest = sorted(range(len(board.city_ids)), key=lambda c: -len(board.city_tracks[c]))[:3]
    case: StationCase = ([], busiest, sorted(board.tickets))
    worst = timed(station_work(board, case))
    for _ in range(steps):
        owned, cities, tickets = list(case[0]), list(case[1]), list(case[2])
        roll = rnd.random()
        if roll < 0.4:
            cities[rnd.randrange(3)] = rnd.choice([c for c in range(len(board.city_ids)) if c not in cities])
        elif roll < 0.8:
            owned = mutate(board, rnd, owned) if rnd.random() < 0.5 else owned[: rnd.randrange(len(owned) + 1)]
        else:
            tickets = sorted(rnd.sample(sorted(board.tickets), rnd.randrange(20, len(board.tickets) + 1)))
        candidate: StationCase = (owned, cities, tickets)
        seconds = timed(station_work(board, candidate))
        if seconds > worst:
            worst, case = seconds, candidate
    return worst, case


def main() -> None:
    """Print the worst cases found."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400, help="hill-climbing steps per search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 steps")
    parser.add_argument("--trail", help="time this network instead: map:track index,track index,…")
    parser.add_argument("--compare", help="another rules/ttr/graph.py to time on the same networks")
    parser.add_argument("--seeds", type=int, default=1, help="hill-climbs per map for the longest trail")
    parser.add_argument("--trail-only", action="store_true", help="skip the station search")
    parser.add_argument("--games", type=int, help="time ordinary end-of-game networks of this many games per map")
    args = parser.parse_args()
    other = load_trail(args.compare) if args.compare else None
    if args.trail:
        board, owned = network(args.trail)
        edges = edges_of(board, owned)
        for name, trail in versions(other):
            seconds = timed(lambda: trail(edges))  # noqa: B023 (timed at once)
            print(f"longest trail of the given network ({name}): {seconds * 1000:.3f} ms")
        return
    if args.games:
        ordinary_figures(args.games, other)
        return
    steps = 100 if args.quick else args.steps
    trail_figures(steps, [args.seed + n for n in range(args.seeds)], other)
    if args.trail_only:
        return
    seconds, (owned, cities, tickets) = worst_stations(steps, args.seed)
    names = ", ".join(board_for("europe").city_ids[c] for c in cities)
    print(
        f"europe: station use, worst found: {seconds * 1000:.3f} ms "
        f"(stations at {names}, {len(owned)} own tracks, {len(tickets)} tickets; goal ≤ 2 ms)"
    )


if __name__ == "__main__":
    main()
