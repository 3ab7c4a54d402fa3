"""The engine contract every game implements (boardgame.io and OpenSpiel are the models).

A game is a `GameEngine` subclass: pure functions over a serializable pydantic state that holds its own seed, so
the same seed and the same actions always give the same game. Nothing here knows about Discord, pictures or I/O.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from pydantic import BaseModel, ConfigDict

Seat = int
"""A player's place at the table, 0 … n-1. Engines never see Discord ids."""


class Message(BaseModel):
    """A translatable text: a message key and parameters, never a finished sentence.

    Parameter values may themselves be messages (for example a card colour), or lists of them; the bot's
    translator renders nested messages first and joins lists.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    params: dict[str, Param] = {}


Param = str | int | bool | Message | list[str | int | Message]
"""A message parameter: a scalar, a nested message, or a flat list of them (joined when shown)."""


class Event(Message):
    """Something that happened: public when `to` is None, otherwise private to seat `to`."""

    to: Seat | None = None

    @property
    def public(self) -> bool:
        """Whether everyone may be told of this event."""
        return self.to is None


class CommonReason(StrEnum):
    """Rejections every game shares; each game adds its own enum for its own rules.

    A reason's value is its translation key, `<namespace>.reason.<name>`, so the bot can word it.
    """

    NOT_YOUR_TURN = "common.reason.not_your_turn"
    GAME_OVER = "common.reason.game_over"
    NOT_A_SEAT = "common.reason.not_a_seat"
    MALFORMED_ACTION = "common.reason.malformed_action"
    NOT_LEGAL_NOW = "common.reason.not_legal_now"


class UndoReason(StrEnum):
    """Why a move may not be taken back by consent: it let someone see what was hidden (values are keys)."""

    SAW_HIDDEN = "undo.reason.saw_hidden"
    """The mover saw cards nobody else has seen: a blind card, drawn tickets."""
    TURNED_UP = "undo.reason.turned_up"
    """Chance or a hidden pile showed something to everyone: dice rolled, a tunnel's cards, a card to refill a row."""


def turned_up(before: Any, after: Any, piles: Sequence[str]) -> bool:
    """Whether a move used chance or took from a hidden pile: the generator (`rng`) moved, or a pile named here no
    longer starts with what it held (a pile only grows at its far end, as returned tickets go under a deck)."""
    if before.rng != after.rng:
        return True
    return any(getattr(after, pile)[: len(getattr(before, pile))] != getattr(before, pile) for pile in piles)


class IllegalAction(Exception):
    """Raised by `apply` (and action parsing) for a move the rules forbid; the state is left untouched."""

    def __init__(self, reason: StrEnum, **params: Param) -> None:
        super().__init__(f"{reason.value} {params}" if params else reason.value)
        self.reason = reason
        self.params = params

    @property
    def message(self) -> Message:
        """The rejection as a translatable message (the reason's value is its key)."""
        return Message(key=self.reason.value, params=self.params)


class Action(BaseModel):
    """A move. Each game's actions encode to a short stable text (fits a Discord custom id)."""

    model_config = ConfigDict(frozen=True)

    judged_when_stale: ClassVar[bool] = False
    """Whether a click on this move drawn at an older version is still judged by the engine as the game stands
    (a simultaneous choice, such as the opening tickets, whose version others' choices move on), not refused."""
    reveals: ClassVar[UndoReason | None] = None
    """What every move of this kind lets someone see, so none may be taken back (None: it depends on the move, or
    on what it turned up)."""

    def revealed(self) -> UndoReason | None:
        """What this move lets someone see for certain (its kind's `reveals` unless the move itself tells more)."""
        return self.reveals

    def encode(self) -> str:
        """Return the short stable text form that `GameEngine.parse_action` reads back."""
        raise NotImplementedError

    def describe(self) -> Message:
        """Return what this move does, as a translatable message."""
        raise NotImplementedError


class LegalView(Protocol):
    """What every game's seat view holds alike: the seat's legal moves as the engine's actions."""

    @property
    def legal_moves(self) -> Sequence[Action]:
        """The moves the seat may make now, in the engine's order."""
        ...


class ScoreLine(BaseModel):
    """One item of a player's final score (a ticket, a bonus, a train…), with its points."""

    model_config = ConfigDict(frozen=True)

    label: Message
    points: int


class PlayerResult(BaseModel):
    """A player's final total and the items that make it up."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    total: int
    breakdown: list[ScoreLine] = []


class GameResult(BaseModel):
    """Final scores, best first, and the winner(s) after tie-breaks (more than one is a shared win)."""

    model_config = ConfigDict(frozen=True)

    players: list[PlayerResult]
    winners: list[Seat]


class Options(BaseModel):
    """Base of a game's variant options: each field has a description and defaults to the printed rule.

    Fields are bools, bounded ints or string enums, so the bot can build its choices from the model.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")


StateT = TypeVar("StateT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=Action)
OptionsT = TypeVar("OptionsT", bound=Options)

NOBODY: frozenset[Seat] = frozenset()


@dataclass(frozen=True)
class Phase(Generic[StateT, ActionT]):
    """One phase of a game: who acts in it, their legal moves, and one handler per kind of move.

    This is every engine's idiom: an engine maps each of its phases to a `Phase`, so `to_act`, `legal_actions`
    and `apply` look the phase up instead of branching on it, and each rule lives in one handler. A handler gets a
    move of its kind from a seat allowed to act, and returns the new state and what happened, or raises
    `IllegalAction` leaving the state untouched.
    """

    to_act: Callable[[StateT], frozenset[Seat]]
    moves: Callable[[StateT, Seat], Sequence[ActionT]]
    handlers: Mapping[type[Action], Callable[[StateT, Seat, Any], tuple[StateT, list[Event]]]]


OVER: Phase[Any, Any] = Phase(to_act=lambda state: NOBODY, moves=lambda state, seat: (), handlers={})
"""The phase of a finished game: nobody acts."""


class Level(StrEnum):
    """How well a bot player plays; every game offers all three (a level's value is its translation key's tail)."""

    EASY = "easy"
    """For people learning the game: plays toward its goals, with slips a beginner would make."""
    NORMAL = "normal"
    """Plays like a decent person: a sound heuristic."""
    HARD = "hard"
    """Searches: samples what its seat cannot see and plays the moves out."""


LEGACY_KINDS: Mapping[str, str] = {"sensible": Level.NORMAL.value}
"""Bot kinds stored before levels existed, and the level each now plays as."""


@dataclass(frozen=True)
class Budget:
    """How long a bot may think about one move, in CPU seconds of the process thinking.

    A search also has a fixed number of iterations for a given budget (a smaller budget may buy fewer), so it is
    deterministic per seed whenever it finishes them within the budget; the budget only cuts a search short on a
    machine too slow for it.
    """

    seconds: float = 1.0


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Hint(Generic[ActionT]):
    """The move a coach suggests and why, in one translatable sentence."""

    action: ActionT
    reason: Message


class GameState(Protocol):
    """What the engine contract reads of any game's state."""

    n_players: int


class GameEngine(ABC, Generic[StateT, ActionT, OptionsT]):
    """One game's rules: pure, deterministic, and the only judge of what is legal.

    An engine names the `Phase` its state is in (`phase`); the contract's `to_act`, `legal_actions` and `apply`
    follow from that table of phases, and an engine overrides them only to add what is its own.
    """

    game_id: ClassVar[str]
    options_model: ClassVar[type[Options]]
    state_model: ClassVar[type[BaseModel]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    bot_kinds: ClassVar[tuple[str, ...]] = tuple(Level)
    """The bot players a lobby offers: the three levels, then this game's personalities, if any."""

    @abstractmethod
    def new_game(self, options: OptionsT, n_players: int, seed: int) -> StateT:
        """Return the opening state: decks shuffled from `seed`, whose generator state lives in the state."""

    @abstractmethod
    def phase(self, state: StateT) -> Phase[StateT, ActionT]:
        """Return the rules of the phase `state` is in (`OVER` once the game has ended)."""

    def to_act(self, state: StateT) -> frozenset[Seat]:
        """Return the seats that must act now (several during a simultaneous phase; none once over)."""
        return self.phase(state).to_act(state)

    def legal_actions(self, state: StateT, seat: Seat) -> list[ActionT]:
        """Return every move `seat` may make now, in a stable order a UI or a bot can enumerate."""
        phase = self.phase(state)
        return list(phase.moves(state, seat)) if seat in phase.to_act(state) else []

    def apply(self, state: StateT, seat: Seat, action: ActionT) -> tuple[StateT, list[Event]]:
        """Validate and apply a move: a new state and what happened, or `IllegalAction` and no change."""
        phase = self.phase(state)
        self.check_turn(state, phase, seat)
        handler = phase.handlers.get(type(action))
        if handler is None:
            raise IllegalAction(CommonReason.NOT_LEGAL_NOW, action=action.encode())
        return handler(state, seat, action)

    def check_turn(self, state: StateT, phase: Phase[StateT, ActionT], seat: Seat) -> None:
        """Refuse a move after the end, from no seat, or from a seat not to act now."""
        if phase is OVER:
            raise IllegalAction(CommonReason.GAME_OVER)
        if not 0 <= seat < cast(GameState, state).n_players:
            raise IllegalAction(CommonReason.NOT_A_SEAT)
        if seat not in phase.to_act(state):
            raise IllegalAction(CommonReason.NOT_YOUR_TURN)

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> BaseModel:
        """Return what `seat` may see; `None` is the public view, holding nothing hidden."""

    @abstractmethod
    def result(self, state: StateT) -> GameResult | None:
        """Return the final scores once the game is over, else None."""

    @abstractmethod
    def public_turn(self, view: Any) -> Seat | None:
        """Whose turn a public view shows (None: everyone's at once, as an opening choice, or nobody's), which is
        whose turn a replay names."""

    @abstractmethod
    def turn_marker(self, view: Any) -> Hashable:
        """What changes in the public view when one seat's whole turn is over (a replay's turn ends there)."""

    @abstractmethod
    def public_scores(self, view: Any) -> tuple[int, ...]:
        """Each seat's score as everyone sees it in a public view (a score chart's points turn by turn)."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Read an action from its `encode()` text, or raise `IllegalAction(MALFORMED_ACTION)`."""

    @abstractmethod
    def bot_action(
        self, state: StateT, seat: Seat, rng: random.Random, kind: str = Level.NORMAL, budget: Budget = DEFAULT_BUDGET
    ) -> ActionT:
        """Choose a legal move for a bot player of `kind` in `seat`, from only what that seat may see and saw.

        `kind` is a `Level`, one of this game's personalities, a `LEGACY_KINDS` key, or `random` (uniform over the
        legal moves; for benchmarks and tests); anything else raises ValueError. Deterministic for a given `rng`.
        """

    @abstractmethod
    def hint(self, state: StateT, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Hint[ActionT]:
        """What the `hard` player would do in `seat` now, and why in one sentence."""

    def undo_refusal(self, before: StateT, seat: Seat, action: ActionT) -> UndoReason | None:
        """Why `seat`'s move `action`, made from `before`, may not be taken back (None: it may). A game allows it
        only for the moves it knows reveal nothing; by default none."""
        return UndoReason.TURNED_UP

    def warm(self) -> None:
        """Build once what this game's bot players reuse in every game (a thinking worker does it as it starts)."""

    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended."""
        return self.phase(state) is OVER

    def load_state(self, data: str) -> StateT:
        """Validate a state from its JSON snapshot."""
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def load_options(self, data: str | dict[str, object]) -> OptionsT:
        """Validate options from JSON text or a dict."""
        if isinstance(data, str):
            return self.options_model.model_validate_json(data)  # type: ignore[return-value]
        return self.options_model.model_validate(data)  # type: ignore[return-value]

    def replay(self, options: OptionsT, n_players: int, seed: int, actions: Sequence[tuple[Seat, str]]) -> StateT:
        """Rebuild a game from its log of (seat, encoded action); must equal the stored snapshot."""
        state = self.new_game(options, n_players, seed)
        for seat, text in actions:
            state, _ = self.apply(state, seat, self.parse_action(text))
        return state
