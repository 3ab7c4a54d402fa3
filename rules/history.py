"""A finished game told turn by turn from its log: the public view and public scores after each turn.

Replays (the animation, the score-over-time chart) are public, so everything here is read from the engine's public
view, never from a seat's. A turn is one seat's complete turn, not each step of it: the engine says where one
ends (`turn_marker`), whose it was (`public_turn`) and what each seat has scored so far (`public_scores`); no game
is named here, each engine tells its own.

The final result adds what is revealed only at the end (tickets and bonus in Ticket to Ride, say), so it is kept
apart as the history's last point, `final`.

`spectate` tells the same log as the table told it, move by move, for the public log a replay comes with; `Telling`
does so as a game goes on, a move at a time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.engine import Event, GameEngine, GameResult, Level, Options, Seat

AnyEngine = GameEngine[Any, Any, Any]


@dataclass(frozen=True)
class Turn:
    """The table once a turn is over: whose turn it was (None: the opening, or the start), how many actions of the
    log it took to get here, what everyone sees, and each seat's public score."""

    seat: Seat | None
    actions: int
    view: BaseModel
    scores: tuple[int, ...]


@dataclass(frozen=True)
class ScoreHistory:
    """Each seat's public score at the start and after every turn, and the final totals when the end reveals
    more (None when the last turn's scores are already final)."""

    scores: tuple[tuple[int, ...], ...]
    final: tuple[int, ...] | None


@dataclass(frozen=True)
class Story:
    """A game told turn by turn: its start, the table after each turn, and its result once over."""

    turns: tuple[Turn, ...]
    result: GameResult | None

    def history(self) -> ScoreHistory:
        """Each seat's public score turn by turn, and the final totals when they differ from the last turn's."""
        scores = tuple(turn.scores for turn in self.turns)
        if self.result is None:
            return ScoreHistory(scores, None)
        totals = {p.seat: p.total for p in self.result.players}
        final = tuple(totals[seat] for seat in range(len(scores[-1])))
        return ScoreHistory(scores, None if final == scores[-1] else final)


def bots_play(
    engine: AnyEngine, options: Mapping[str, Any], n_players: int, seed: int, level: str = Level.NORMAL
) -> list[tuple[Seat, str]]:
    """The log of a whole game of bot players of one level, seeded (for benchmarks and tests of replays)."""
    state = engine.new_game(engine.load_options(dict(options)), n_players, seed)
    rng = random.Random(seed)
    log: list[tuple[Seat, str]] = []
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        action = engine.bot_action(state, seat, rng, level)
        log.append((seat, action.encode()))
        state, _ = engine.apply(state, seat, action)
    return log


def tell_log(
    engine: AnyEngine, options: Mapping[str, Any], n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]
) -> Story:
    """`tell` a stored game: its engine, options as stored (JSON-like), seat count, seed and action log."""
    return tell(engine, engine.load_options(dict(options)), n_players, seed, actions)


def tell(engine: AnyEngine, options: Options, n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]) -> Story:
    """Replay a game's log: its start, then the table after each turn (the last one ends the game if it ended)."""
    state = engine.new_game(options, n_players, seed)
    view = engine.view(state, None)
    told = [Turn(None, 0, view, engine.public_scores(view))]
    player = engine.public_turn(view)
    for done, (seat, text) in enumerate(actions, start=1):
        state, _ = engine.apply(state, seat, engine.parse_action(text))
        after = engine.view(state, None)
        if engine.turn_marker(after) != engine.turn_marker(view) or engine.is_over(state):
            told.append(Turn(player, done, after, engine.public_scores(after)))
            player = engine.public_turn(after)
        view = after
    return Story(tuple(told), engine.result(state))


def spectated(
    engine: AnyEngine, options: Mapping[str, Any], n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]
) -> dict[str, Any]:
    """`spectate` a stored game: its engine, options as stored (JSON-like), seat count, seed and action log."""
    return spectate(engine, engine.new_game(engine.load_options(dict(options)), n_players, seed), actions)


def spectate(engine: AnyEngine, start: BaseModel, actions: Sequence[tuple[Seat, str]]) -> dict[str, Any]:
    """What the table showed of a game from `start`, as JSON-ready data: the public view at the start; each move
    as the table told it (who moved and its public events) with the parts of the public view it changed; the
    public view at the end (the final sheet).

    Only public views and public events go in, so nothing hidden does (the seed, a blind card's colour, the tickets
    a player returned, a hand before the end): two games that differ only in those give the same data.
    """
    state = start
    table = first = engine.view(state, None).model_dump(mode="json")
    moves = []
    for seat, text in actions:
        state, events = engine.apply(state, seat, engine.parse_action(text))
        after = engine.view(state, None).model_dump(mode="json")
        told = [event.model_dump(mode="json", include={"key", "params"}) for event in events if event.public]
        moves.append({"seat": seat, "events": told, "table": {k: v for k, v in after.items() if table.get(k) != v}})
        table = after
    return {"start": first, "moves": moves, "end": table}


@dataclass(frozen=True)
class Told:
    """One move as the table told it: who made it and its public events."""

    seat: Seat
    events: tuple[Event, ...]


class Telling:
    """A game told from `start` move by move as its log grows, as the table told it: each move's public events, the
    public scores turn by turn (turns counted as `tell` counts them) and, if kept, the public view after each move.
    The live board pages tell on from where they were at each move shown, not from the start."""

    def __init__(self, engine: AnyEngine, start: BaseModel, *, keep_views: bool = False) -> None:
        self.engine = engine
        self.state = start
        self.log: list[tuple[Seat, str]] = []
        """The moves told, as the log holds them."""
        self.moves: list[Told] = []
        first = engine.view(start, None)
        self._marker = engine.turn_marker(first)
        self.scores: list[tuple[int, ...]] = [engine.public_scores(first)]
        """Each seat's public score at the start and after every turn (a chart's points, as rules/history.py)."""
        self.turns: list[int] = [0]
        """How many moves had been told at each point of `scores`."""
        self.views: list[BaseModel] | None = [first] if keep_views else None
        """The public view at the start and after each move, when kept (a replay's frames)."""

    def follows(self, log: Sequence[tuple[Seat, str]]) -> bool:
        """Whether `log` goes on from the moves told (no move told was taken back since)."""
        return len(log) >= len(self.log) and list(log[: len(self.log)]) == self.log

    def extend(self, log: Sequence[tuple[Seat, str]]) -> None:
        """Tell the moves of `log` past those told (`log` must follow them)."""
        engine = self.engine
        for seat, text in log[len(self.log) :]:
            self.state, events = engine.apply(self.state, seat, engine.parse_action(text))
            self.log.append((seat, text))
            self.moves.append(Told(seat, tuple(e for e in events if e.public)))
            view = engine.view(self.state, None)
            marker = engine.turn_marker(view)
            if marker != self._marker or engine.is_over(self.state):
                self.scores.append(engine.public_scores(view))
                self.turns.append(len(self.moves))
            self._marker = marker
            if self.views is not None:
                self.views.append(view)

    def score_series(self) -> list[tuple[int, ...]]:
        """The public scores turn by turn, ending with the final totals once the game is over when its end reveals
        more (tickets, bonuses)."""
        result = self.engine.result(self.state) if self.engine.is_over(self.state) else None
        if result is None:
            return list(self.scores)
        totals = {p.seat: p.total for p in result.players}
        final = tuple(totals[seat] for seat in range(len(self.scores[-1])))
        return [*self.scores, final] if final != self.scores[-1] else list(self.scores)


def tell_moves(
    engine: AnyEngine, start: BaseModel, actions: Sequence[tuple[Seat, str]], *, keep_views: bool = False
) -> Telling:
    """A game told from `start` through the moves of its log (`Telling`, its views kept if asked)."""
    telling = Telling(engine, start, keep_views=keep_views)
    telling.extend(actions)
    return telling
