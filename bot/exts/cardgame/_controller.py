"""Presenting the card game: the shared card-table presentation (bot/ui/table_controller.py) with the table
picture, the menus that narrow a play down to one action, and a 4-player first scoring in a message of its own.

The actor's answer comes first and carries no public picture, so the first response is fast; the table is drawn
after it, off the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import (
    GAME,
    final_message,
    first_scoring_message,
    hand_button,
    narration,
    opening_message,
    turn_buttons,
    turn_message,
)
from bot.exts.cardgame._private import (
    PrivateMessage,
    colour_plays,
    hand_message,
    legal_codes,
    needs_choice,
    size_plays,
)
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.table_controller import TableController
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.view import CardGameView
from rules.engine import Event, GameResult

FIRST_SCORING = "cardgame.event.first_scoring"
TURN_STARTED = "cardgame.event.turn_started"


class CardGameController(TableController[CardGameState, CardGameView, CardGameView]):
    """The card game's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME
    continuing = frozenset({"second_pick", "tickets"})
    narrowing = frozenset({"color", "size", "three"})
    not_possible = "cardgame_bot.reason.not_possible_now"
    empty_keep = "none"

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, CardGameEngine())

    # ---- what players ask for -----------------------------------------------------------------------------

    def _turn_buttons(
        self, language: str, record: GameRecord, public: CardGameView, legal: list[str]
    ) -> list[GameComponent]:
        """The face-up cards, the deck, tickets and My hand."""
        return turn_buttons(language, record, public, legal)

    def _hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The My hand button."""
        return hand_button(language, record)

    def _legal_codes(self, seat_view: CardGameView) -> list[str]:
        """The action codes listed in the seat's view."""
        return legal_codes(seat_view)

    async def show_table(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Show the table as it is now, privately."""
        await self.show_picture(interaction, game_id, _pictures.TABLE)

    def public_view(self, game_id: int) -> CardGameView:
        """The public view of a running game already loaded."""
        return self._public(game_id)

    # ---- the shared presentation's hooks ------------------------------------------------------------------

    def _narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The card game's narration (the same summed up or not)."""
        return narration(language, events, names)

    def _own_move(self, events: list[Event]) -> list[Event]:
        """The events of the move itself, without the next turn's start (its step 1 is told publicly)."""
        for index, event in enumerate(events):
            if event.key == TURN_STARTED:
                return events[:index]
        return events

    async def _hand(
        self, language: str, record: GameRecord, view: CardGameView, lines: Sequence[str] = ()
    ) -> PrivateMessage:
        """The hand and the plays possible now, or the pending ticket choice."""
        return await hand_message(language, record, view, lines)

    def _needs_choice(self, view: CardGameView) -> bool:
        """Tickets to keep."""
        return needs_choice(view)

    def _narrowed(
        self, language: str, record: GameRecord, view: CardGameView, cid: ComponentId, values: list[str]
    ) -> PrivateMessage | str | None:
        """A colour, a size or three colours picked: the next menu, or the play itself."""
        if cid.verb == "three":
            return "play3:" + ",".join(values)
        if cid.verb == "color":
            return colour_plays(language, record, view, values[0] if values else "")
        size = values[0] if values else ""
        return size_plays(language, record, view, cid.arg, int(size)) if size.isdigit() else None

    async def _draw(self, language: str, record: GameRecord, public: CardGameView) -> bytes:
        """The table."""
        return await _pictures.table(language, record, public)

    def _opening(self, language: str, record: GameRecord, public: CardGameView, picture: bytes | None) -> TurnMessage:
        """Who has chosen their tickets, with the table when first posted."""
        return opening_message(language, record, public, picture)

    def _turn(
        self,
        language: str,
        record: GameRecord,
        public: CardGameView,
        legal: list[str],
        lines: list[str],
        picture: bytes,
    ) -> TurnMessage:
        """The turn in play with the table, step 1 of this turn included."""
        return turn_message(language, record, public, legal, lines, picture)

    async def _final(
        self, language: str, record: GameRecord, public: CardGameView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet with every stack revealed, and the winner."""
        scores = await _pictures.final_scoring(language, record, public)
        return final_message(language, record, public, lines, result, scores)

    def _turn_begins(self, events: list[Event]) -> bool:
        """Every turn's start is an event."""
        return any(e.key == TURN_STARTED for e in events)

    async def _between_turns(
        self, record: GameRecord, language: str, public: CardGameView, events: list[Event]
    ) -> None:
        """Turn 1 ends the opening; a first scoring gets its own message."""
        if any(e.key == TURN_STARTED and e.params.get("turn") == 1 for e in events):
            await self._edit_opening(record, language, public)  # the last opening choice: play begins
        if any(e.key == FIRST_SCORING for e in events):
            await self._first_scoring(record, language, public)

    async def _first_scoring(self, record: GameRecord, language: str, public: CardGameView) -> None:
        """4 players, first deck out: retire the turn message, then post the scoring with its picture."""
        await self._retire_turn(record)
        events = self._events.get(record.id, [])
        names = self.names(record)
        scored = narration(language, [e for e in events if e.key == FIRST_SCORING], names)
        self._events[record.id] = [e for e in events if e.key != FIRST_SCORING]  # told here, not again
        picture = await _pictures.first_scoring(language, record, public)
        message = first_scoring_message(language, record, scored, picture)
        await self.post(record, message, kind="first_scoring")
