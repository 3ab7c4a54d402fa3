"""What a card-table game plugs into the shared presentation (bot/ui/table_controller.py): its words, pictures and
controls, made from its views and events. The controller posts and edits; the game's table only says what to show,
so bot/ui knows no game's verbs, words or pictures, and adding a game touches only its own package (and one list).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.storage.games import GameRecord
from bot.ui.answers import PrivateReply
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import Picture
from rules.engine import Action, Event, GameResult

PublicT = TypeVar("PublicT", contravariant=True)
SeatT = TypeVar("SeatT", contravariant=True)
MoveT = TypeVar("MoveT", bound=Action)


@dataclass(frozen=True)
class ControlMove:
    """A game's control whose click or pick is a move: the action its custom id and the picked values name."""

    action: Callable[[ComponentId, list[str]], Action | None]
    """The move clicked, or None when the click names none (a garbled id or value: refused as malformed)."""
    bound: bool = True
    """Whether a click from an older version is refused as stale (False: the action names exactly what it does,
    so the engine judges it as it stands)."""


def face_up_colour(cid: ComponentId) -> str:
    """The colour a face-up card's button names (`take` with `slot:colour`), or "" for a garbled one."""
    parts = cid.parts
    return parts[1] if len(parts) == 2 else ""


def picked_tickets(values: list[str]) -> tuple[int, ...] | None:
    """The ticket ids picked in a ticket choice's menu, ascending; None if one is not a ticket id."""
    if not all(value.isdigit() for value in values):
        return None
    return tuple(sorted(int(value) for value in values))


class TablePresenter(Protocol[PublicT, SeatT, MoveT]):
    """A card-table game's part of the presentation."""

    @property
    def continuing(self) -> frozenset[str]:
        """Phases in which the player who just moved goes on with the same turn."""
        ...

    @property
    def narrowing(self) -> frozenset[str]:
        """Verbs of the private menus that narrow a move down to one action."""
        ...

    @property
    def not_possible(self) -> str:
        """The refusal key for a narrowed choice the game no longer allows."""
        ...

    @property
    def moves(self) -> Mapping[str, ControlMove]:
        """The game's verbs whose click (or pick) is a move, and how each names its action."""
        ...

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The public events worded for a message (summary: the turn as told afterwards)."""
        ...

    def own_move(self, events: list[Event]) -> list[Event]:
        """The events told to the actor as what they did."""
        ...

    async def hand(self, language: str, record: GameRecord, view: SeatT, lines: Sequence[str] = ()) -> PrivateReply:
        """The player's private hand message, or their pending choice."""
        ...

    def needs_choice(self, view: SeatT) -> bool:
        """Whether the seat owes a private decision now."""
        ...

    def narrowed(
        self, language: str, record: GameRecord, view: SeatT, cid: ComponentId, values: list[str]
    ) -> PrivateReply | MoveT | None:
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

    def legal_moves(self, view: SeatT) -> list[MoveT]:
        """The legal moves listed in a seat's view."""
        ...

    def turn_begins(self, events: list[Event]) -> bool:
        """Whether a move's events start a new turn explicitly (the opening's end included)."""
        ...
