"""A finished game told turn by turn from its log: the public view and public scores after each turn.

Replays (the animation, the score-over-time chart) are public, so everything here is read from the engine's public
view, never from a seat's. A turn is one seat's complete turn, not each step of it:

- Ticket to Ride: from one player's first action to the next player's (a two-card draw, a tunnel's payment and a
  ticket draw with its choice are one turn); the opening ticket choice, everyone at once, is turn 0. The score is
  the route points every player sees on the board.
- Ticket to Ride card game: each turn is numbered by the engine (a play with its second card or ticket choice is
  one); the opening choice is turn 0. Points are only known at the scorings, so the score is each player's points
  from the 4-player first scoring once it has happened, else 0.
- Dice: a player's rolls and adds up to their stop or bust; the score is their public total.

The final result adds what is revealed only at the end (tickets and bonus in Ticket to Ride; the card game's
final scoring), so it is kept apart as the history's last point, `final`.

`spectate` tells the same log as the table told it, move by move, for the public log a replay comes with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from pydantic import BaseModel

from rules.cardgame import CardGameEngine
from rules.cardgame.view import CardGameView
from rules.dice import DiceEngine
from rules.dice.view import DiceView
from rules.engine import GameEngine, GameResult, Level, Options, Seat
from rules.ttr import TicketToRideEngine
from rules.ttr.view import PublicView


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


@dataclass(frozen=True)
class _Reading:
    """How a game's public view tells whose turn it is (None: everyone's opening), where a turn ends (its marker
    changes) and what each seat has scored."""

    player: Callable[[Any], Seat | None]
    marker: Callable[[Any], Hashable]
    scores: Callable[[Any], tuple[int, ...]]


def _card_game_scores(view: CardGameView) -> tuple[int, ...]:
    points = {s.seat: s.points for s in view.first_scoring or []}
    return tuple(points.get(seat, 0) for seat in range(view.n_players))


_READINGS: dict[str, _Reading] = {
    "ticket-to-ride": _Reading(
        player=lambda view: cast(PublicView, view).current,
        marker=lambda view: cast(PublicView, view).current,
        scores=lambda view: tuple(p.route_points for p in cast(PublicView, view).players),
    ),
    "ticket-to-ride-cards": _Reading(
        player=lambda view: None if cast(CardGameView, view).phase == "opening" else cast(CardGameView, view).current,
        marker=lambda view: cast(CardGameView, view).turn,
        scores=lambda view: _card_game_scores(cast(CardGameView, view)),
    ),
    "dice": _Reading(
        player=lambda view: turn.seat if (turn := cast(DiceView, view).turn) is not None else None,
        marker=lambda view: sum(len(p.turns) for p in cast(DiceView, view).players),
        scores=lambda view: tuple(p.total for p in cast(DiceView, view).players),
    ),
}


_ENGINES: dict[str, Callable[[], GameEngine[Any, Any, Any]]] = {
    TicketToRideEngine.game_id: TicketToRideEngine,
    CardGameEngine.game_id: CardGameEngine,
    DiceEngine.game_id: DiceEngine,
}


def replayable(game: str) -> bool:
    """Whether a game can be told turn by turn here."""
    return game in _READINGS and game in _ENGINES


@cache
def engine_of(game: str) -> GameEngine[Any, Any, Any]:
    """The engine of a game by id (one per process: engines keep caches)."""
    return _ENGINES[game]()


def bots_play(
    game: str, options: Mapping[str, Any], n_players: int, seed: int, level: str = Level.NORMAL
) -> list[tuple[Seat, str]]:
    """The log of a whole game of bot players of one level, seeded (for benchmarks and tests of replays)."""
    engine = engine_of(game)
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
    game: str, options: Mapping[str, Any], n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]
) -> Story:
    """`tell` a stored game: its id, options as stored (JSON-like), seat count, seed and action log."""
    engine = engine_of(game)
    return tell(engine, engine.load_options(dict(options)), n_players, seed, actions)


def tell(
    engine: GameEngine[Any, Any, Any], options: Options, n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]
) -> Story:
    """Replay a game's log: its start, then the table after each turn (the last one ends the game if it ended)."""
    reading = _READINGS[engine.game_id]
    state = engine.new_game(options, n_players, seed)
    view = engine.view(state, None)
    told = [Turn(None, 0, view, reading.scores(view))]
    player = reading.player(view)
    for done, (seat, text) in enumerate(actions, start=1):
        state, _ = engine.apply(state, seat, engine.parse_action(text))
        after = engine.view(state, None)
        if reading.marker(after) != reading.marker(view) or engine.is_over(state):
            told.append(Turn(player, done, after, reading.scores(after)))
            player = reading.player(after)
        view = after
    return Story(tuple(told), engine.result(state))


def spectated(
    game: str, options: Mapping[str, Any], n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]
) -> dict[str, Any]:
    """`spectate` a stored game: its id, options as stored (JSON-like), seat count, seed and action log."""
    engine = engine_of(game)
    return spectate(engine, engine.new_game(engine.load_options(dict(options)), n_players, seed), actions)


def spectate(
    engine: GameEngine[Any, Any, Any], start: BaseModel, actions: Sequence[tuple[Seat, str]]
) -> dict[str, Any]:
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
