"""What a card-table game plugs into the shared presentation (bot/ui/table_controller.py): its words, pictures and
controls, made from its views and events, and the reading of its own controls' clicks. The controller posts and
edits; the game's presenter only says what to show, so bot/ui knows no game's verbs, phases, words or pictures, and
adding a game touches only its own package (and one list).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from enum import StrEnum
from typing import Protocol, TypeVar

from bot.storage.games import GameRecord
from bot.ui.answers import PrivateReply
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.pictures import Picture
from rules.engine import Action, Event, GameResult

PublicT = TypeVar("PublicT", contravariant=True)
SeatT = TypeVar("SeatT", contravariant=True)
MoveT = TypeVar("MoveT", bound=Action)


class Verb(StrEnum):
    """What a card-table game's click asks that is neither a move nor a step of one of its menus."""

    HAND = "hand"
    """My hand: the player's private hand and what they can do now."""
    UNKNOWN = "unknown"
    """A verb the game does not know (an id from an older bot, or forged)."""


class Step:
    """A pick in one of a game's private menus that narrows a move down; each game's subclasses hold what was
    picked, and its presenter answers it (`narrowed`)."""


class TablePresenter(Protocol[PublicT, SeatT, MoveT]):
    """A card-table game's part of the presentation."""

    @property
    def not_possible(self) -> str:
        """The refusal key for a narrowed choice the game no longer allows."""
        ...

    def read(self, verb: str, arg: str, values: list[str]) -> MoveT | Step | Verb | None:
        """What a click on one of the game's own controls asks: a move, a menu's step, or UNKNOWN (None: a garbled
        id or value, refused as malformed)."""
        ...

    def in_opening(self, public: PublicT) -> bool:
        """Whether the game is in its opening (the opening message is edited, not a turn's)."""
        ...

    def drawing_turn(self, public: PublicT, seat: int) -> bool:
        """Whether it is `seat`'s turn and the public turn message's buttons are theirs to click."""
        ...

    def turn_goes_on(self, public: PublicT) -> bool:
        """Whether the player whose turn it is goes on with it after their last move (a second card, …)."""
        ...

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The public events worded for a message (summary: the turn as told afterwards)."""
        ...

    def own_move(self, events: list[Event]) -> list[Event]:
        """The events told to the actor as what they did."""
        ...

    async def hand(
        self, language: str, record: GameRecord, view: SeatT, lines: Sequence[str] = (), *, places: str | None = None
    ) -> PrivateReply:
        """The player's private hand message, or their pending choice; its pictures name cities in `places` (the
        game's public language, as its board does; None: the reader's)."""
        ...

    def needs_choice(self, view: SeatT) -> bool:
        """Whether the seat owes a private decision now."""
        ...

    def narrowed(self, language: str, record: GameRecord, view: SeatT, step: Step) -> PrivateReply | MoveT | None:
        """A narrowing menu's pick: the next menu, the action itself, or None if it is not possible now."""
        ...

    async def draw(self, language: str, record: GameRecord, public: PublicT) -> Picture:
        """The game's public picture (board or table) of this state, with its alt text."""
        ...

    def board_key(self, public: PublicT) -> Hashable:
        """What the public picture shows that matters (not what the text says too): a turn after which it is the
        same (cards drawn) posts no new picture."""
        ...

    def opening(self, language: str, record: GameRecord, public: PublicT, picture: Picture) -> TurnMessage:
        """The opening message: who has chosen their tickets, with the picture."""
        ...

    def turn(
        self,
        language: str,
        record: GameRecord,
        public: PublicT,
        legal: list[MoveT],
        lines: list[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The message of the turn in play (with the picture when there is a new one)."""
        ...

    async def final(
        self, language: str, record: GameRecord, public: PublicT, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet message posted at the end."""
        ...

    def turn_buttons(
        self, language: str, record: GameRecord, public: PublicT, legal: list[MoveT]
    ) -> list[GameComponent]:
        """The public turn message's buttons for these legal moves."""
        ...

    def hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The button that opens a player's private hand."""
        ...

    def turn_begins(self, events: list[Event]) -> bool:
        """Whether a move's events start a new turn explicitly (the opening's end included)."""
        ...
