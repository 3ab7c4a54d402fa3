"""What the card game plugs into the shared card-table presentation (bot/ui/table_presenter.py): its narration,
the table, the turn messages, the hand, and the menus that narrow a play down to one action. Nothing here posts or
edits a message: the controller does (the 4-player first scoring included).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import (
    final_message,
    hand_button,
    narration,
    opening_message,
    scores_alt,
    table_alt,
    turn_buttons,
    turn_message,
)
from bot.exts.cardgame._private import (
    PrivateMessage,
    colour_plays,
    hand_message,
    legal_moves,
    needs_choice,
    size_plays,
)
from bot.i18n import text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import Picture
from bot.ui.table_presenter import ControlMove, face_up_colour, picked_tickets
from rules.cardgame.actions import CardGameAction, DrawCard, KeepTickets, PlayThree
from rules.cardgame.cards import kind_of
from rules.cardgame.state import Phase
from rules.cardgame.view import CardGameView
from rules.engine import Event, GameResult

TURN_STARTED = "cardgame.event.turn_started"


def take_card(cid: ComponentId, values: list[str]) -> DrawCard | None:
    """A face-up card's button: draw that colour (None for a colour the game does not know)."""
    kind = kind_of(face_up_colour(cid))
    return DrawCard(kind=kind) if kind is not None else None


def keep_tickets(cid: ComponentId, values: list[str]) -> KeepTickets | None:
    """The ticket choice's menu: keep exactly the tickets picked (not bound to the version: the opening choice is
    simultaneous, so others' choices move the version on; the engine refuses it if the offer has changed)."""
    picked = picked_tickets(values)
    return KeepTickets(tickets=picked) if picked is not None else None


def three_play(values: list[str]) -> PlayThree | None:
    """The three colours picked together, in kind order (None for a colour the game does not know)."""
    kinds = [kind_of(value) for value in values]
    return PlayThree(colors=tuple(sorted(k for k in kinds if k is not None))) if None not in kinds else None


class CardGameTable:
    """The card game's words, pictures and controls for the shared presentation."""

    continuing = frozenset({Phase.SECOND_PICK, Phase.TICKETS})
    narrowing = frozenset({"color", "size", "three"})
    not_possible = "cardgame_bot.reason.not_possible_now"
    moves: ClassVar[Mapping[str, ControlMove]] = {
        "take": ControlMove(take_card),
        "keep": ControlMove(keep_tickets, bound=False),
    }

    def turn_buttons(
        self, language: str, record: GameRecord, public: CardGameView, legal: list[CardGameAction]
    ) -> list[GameComponent]:
        """The face-up cards, the deck, tickets and My hand."""
        return turn_buttons(language, record, public, legal)

    def hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The My hand button."""
        return hand_button(language, record)

    def legal_moves(self, seat_view: CardGameView) -> list[CardGameAction]:
        """The legal actions listed in the seat's view."""
        return legal_moves(seat_view)

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The card game's narration (the same summed up or not)."""
        return narration(language, events, names)

    def own_move(self, events: list[Event]) -> list[Event]:
        """The events of the move itself, without the next turn's start (its step 1 is told publicly)."""
        for index, event in enumerate(events):
            if event.key == TURN_STARTED:
                return events[:index]
        return events

    async def hand(
        self, language: str, record: GameRecord, view: CardGameView, lines: Sequence[str] = ()
    ) -> PrivateMessage:
        """The hand and the plays possible now, or the pending ticket choice."""
        return await hand_message(language, record, view, lines)

    def needs_choice(self, view: CardGameView) -> bool:
        """Tickets to keep."""
        return needs_choice(view)

    def narrowed(
        self, language: str, record: GameRecord, view: CardGameView, cid: ComponentId, values: list[str]
    ) -> PrivateMessage | CardGameAction | None:
        """A colour, a size or three colours picked: the next menu, or the play itself."""
        if cid.verb == "three":
            return three_play(values)
        if cid.verb == "color":
            return colour_plays(language, record, view, values[0] if values else "")
        size = values[0] if values else ""
        return size_plays(language, record, view, cid.arg, int(size)) if size.isdigit() else None

    async def draw(self, language: str, record: GameRecord, public: CardGameView) -> Picture:
        """The table."""
        table = await _pictures.table(language, record, public)
        return Picture(_pictures.TABLE, table, table_alt(language, record, public))

    def board_key(self, public: CardGameView) -> Hashable:
        """The Rail Yards and the stacks' sizes: drawing cards or tickets changes none of them."""
        yards = tuple((tuple((g.color, g.cards, g.locomotives) for g in p.yard), p.stack_size) for p in public.players)
        return (yards, public.deck_number)

    def opening(self, language: str, record: GameRecord, public: CardGameView, picture: Picture) -> TurnMessage:
        """Who has chosen their tickets, with the table."""
        return opening_message(language, record, public, picture)

    def turn(
        self,
        language: str,
        record: GameRecord,
        public: CardGameView,
        legal: list[CardGameAction],
        lines: list[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The turn in play (with the table when it changed)."""
        return turn_message(language, record, public, legal, lines, pictures)

    async def final(
        self, language: str, record: GameRecord, public: CardGameView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet with every stack revealed, and the winner."""
        scores = await _pictures.final_scoring(language, record, public)
        detail = await _pictures.scoring_detail(language, record, public, "final")
        pictures = [
            Picture(_pictures.SCORES, scores, scores_alt(language, record, result)),
            Picture(_pictures.DETAIL, detail, text(language, "cardgame_turn.alt.detail")),
        ]
        return final_message(language, record, public, lines, result, pictures)

    def turn_begins(self, events: list[Event]) -> bool:
        """Every turn's start is an event."""
        return any(e.key == TURN_STARTED for e in events)
