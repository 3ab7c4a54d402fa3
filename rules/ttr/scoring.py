"""Final scoring (R-P1 … R-P4, R-EU-8 … R-EU-10): per-item breakdown, longest trails, stations, tie-breaks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rules.engine import GameResult, Message, PlayerResult, ScoreLine
from rules.ttr.board import Board, board_for
from rules.ttr.graph import Edge, components, longest_trail
from rules.ttr.state import TtrState
from rules.ttr.stations import best_station_use, ticket_outcome


@dataclass(frozen=True)
class PlayerScore:
    """One player's final figures: everything the end-of-game view and the result need."""

    seat: int
    route_points: int
    tickets: tuple[tuple[int, bool], ...]
    """(ticket id, completed) for every ticket kept."""
    trail_length: int
    trail: tuple[int, ...]
    """Track ids of the longest trail, in order."""
    longest_bonus: bool
    borrowed: tuple[tuple[str, int | None], ...]
    """(station city id, borrowed track id or None) for each station built."""
    stations_left: int
    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        """The final score."""
        return sum(line.points for line in self.lines)

    @property
    def completed(self) -> int:
        """How many tickets were completed."""
        return sum(done for _, done in self.tickets)


def own_edges(board: Board, owners: tuple[int, ...], seat: int) -> list[Edge]:
    """Return a seat's claimed tracks as graph edges."""
    return track_edges(board, (i for i, owner in enumerate(owners) if owner == seat))


def track_edges(board: Board, tracks: Iterable[int]) -> list[Edge]:
    """Return these tracks as graph edges."""
    return [(board.track_a[i], board.track_b[i], board.track_len[i], board.track_ids[i]) for i in tracks]


def connected_tickets(board: Board, owners: tuple[int, ...], seat: int, tickets: tuple[int, ...]) -> list[bool]:
    """Whether each ticket is already connected by the seat's own routes (stations not counted)."""
    labels = components(len(board.city_ids), [(a, b) for a, b, _, _ in own_edges(board, owners, seat)])
    return [labels[board.tickets[t][0]] == labels[board.tickets[t][1]] for t in tickets]


def final_scores(state: TtrState) -> tuple[PlayerScore, ...]:
    """Return every player's final figures (cached: states are immutable)."""
    return _final_scores(
        state.map_id,
        state.n_players,
        state.owners,
        state.stations,
        state.tickets,
        state.stations_left,
        state.options.longest_bonus,
    )


@lru_cache(maxsize=256)
def _final_scores(
    map_id: str,
    n_players: int,
    owners: tuple[int, ...],
    stations: tuple[int, ...],
    tickets: tuple[tuple[int, ...], ...],
    stations_left: tuple[int, ...],
    bonus_on: bool,
) -> tuple[PlayerScore, ...]:
    board = board_for(map_id)
    rules = board.game_map.rules
    n_cities = len(board.city_ids)
    trails = [longest_trail(own_edges(board, owners, seat)) for seat in range(n_players)]
    best_trail = max(length for length, _ in trails)
    scores = []
    for seat in range(n_players):
        edges = own_edges(board, owners, seat)
        specs = [board.tickets[t] for t in tickets[seat]]
        station_cities = [c for c, owner in enumerate(stations) if owner == seat]
        if station_cities:
            borrowable = [
                [
                    (board.track_a[i], board.track_b[i], board.track_ids[i])
                    for i in board.city_tracks[c]
                    if owners[i] >= 0 and owners[i] != seat
                ]
                for c in station_cities
            ]
            choice = best_station_use(n_cities, [(a, b) for a, b, _, _ in edges], station_cities, borrowable, specs)
            done = choice.completed
            borrowed = tuple((board.city_ids[c], t) for c, t in zip(station_cities, choice.borrowed, strict=True))
        else:
            _, done = ticket_outcome(components(n_cities, [(a, b) for a, b, _, _ in edges]), specs)
            borrowed = ()
        lines = _route_lines(board, owners, seat)
        for ticket_id, ok in zip(tickets[seat], done, strict=True):
            points = board.tickets[ticket_id][2]
            key = "ttr.score.ticket_won" if ok else "ttr.score.ticket_lost"
            lines.append(
                ScoreLine(
                    label=Message(key=key, params={"ticket": board.ticket_message(ticket_id)}),
                    points=points if ok else -points,
                )
            )
        length, trail = trails[seat]
        bonus = bonus_on and length > 0 and length == best_trail
        if bonus:
            lines.append(
                ScoreLine(label=Message(key="ttr.score.longest", params={"length": length}), points=rules.longest_bonus)
            )
        if rules.stations_per_player:
            left = stations_left[seat]
            lines.append(
                ScoreLine(
                    label=Message(key="ttr.score.stations_left", params={"count": left}),
                    points=left * rules.station_value,
                )
            )
        scores.append(
            PlayerScore(
                seat=seat,
                route_points=sum(board.track_points[i] for i, o in enumerate(owners) if o == seat),
                tickets=tuple(zip(tickets[seat], done, strict=True)),
                trail_length=length,
                trail=tuple(trail),
                longest_bonus=bonus,
                borrowed=borrowed,
                stations_left=stations_left[seat],
                lines=tuple(lines),
            )
        )
    return tuple(scores)


def _route_lines(board: Board, owners: tuple[int, ...], seat: int) -> list[ScoreLine]:
    """One line per route length claimed: how many routes of that length and their points (R-P1)."""
    counts = Counter(board.track_len[i] for i, o in enumerate(owners) if o == seat)
    points = board.game_map.rules.route_points
    return [
        ScoreLine(
            label=Message(key="ttr.score.routes", params={"length": length, "count": count}),
            points=count * points[length],
        )
        for length, count in sorted(counts.items())
    ]


def tie_key(score: PlayerScore, tie_breaks: tuple[str, ...]) -> tuple[int, ...]:
    """Return the comparison key for the win: total first, then the map's tie-breaks in order."""
    values = {
        "completed_tickets": score.completed,
        "longest_trail": score.trail_length,
        "stations_left": score.stations_left,
        "longest_bonus": int(score.longest_bonus),
    }
    return (score.total, *(values[name] for name in tie_breaks))


def game_result(state: TtrState) -> GameResult:
    """Return final totals, best first, and the winners after the map's tie-breaks (R-P4, R-EU-10)."""
    scores = final_scores(state)
    tie_breaks = board_for(state.map_id).game_map.rules.tie_breaks
    keys = {s.seat: tie_key(s, tie_breaks) for s in scores}
    best = max(keys.values())
    ordered = sorted(scores, key=lambda s: (keys[s.seat], -s.seat), reverse=True)
    return GameResult(
        players=[PlayerResult(seat=s.seat, total=s.total, breakdown=list(s.lines)) for s in ordered],
        winners=sorted(seat for seat, key in keys.items() if key == best),
    )
