"""A game's log told as the table told it, for its page: each move's public events and the public scores turn by
turn, kept and extended move by move as the game goes on.

Only the engine's public view and public events are read (as rules/history.py does for replays), so two games that
differ only in what the table never showed (hands, the deck's order, returned tickets, the seed) are told alike.
Pure and synchronous: the board runs it in a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.engine import Event, GameEngine, Seat

AnyEngine = GameEngine[Any, Any, Any]


@dataclass(frozen=True)
class Told:
    """One move as the table told it: who made it and its public events."""

    seat: Seat
    events: tuple[Event, ...]


class Telling:
    """A game told from its start up to the moves of its log read so far."""

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


def told(engine: AnyEngine, start: BaseModel, log: Sequence[tuple[Seat, str]], *, keep_views: bool = False) -> Telling:
    """A game told from `start` through its whole log."""
    telling = Telling(engine, start, keep_views=keep_views)
    telling.extend(log)
    return telling
