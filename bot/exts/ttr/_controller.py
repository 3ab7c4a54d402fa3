"""Presenting Ticket to Ride: the shared card-table presentation (bot/ui/table_controller.py) with the board,
the tunnel step, and the menus that narrow a claim or a station down to one way to pay.

The actor's answer comes first and carries no picture, so the first response is fast; the board is drawn
after it, off the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.exts.ttr import _pictures
from bot.exts.ttr._presenter import (
    GAME,
    board_picture,
    final_message,
    hand_button,
    narration,
    opening_message,
    turn_buttons,
    turn_message,
)
from bot.exts.ttr._private import PrivateMessage, hand_message, needs_choice, payment_choice, routes_from
from bot.i18n import language_of
from bot.services.games import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import answer
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.table_controller import TableController
from rules.engine import Event, GameResult
from rules.ttr import TicketToRideEngine
from rules.ttr.state import TtrState
from rules.ttr.view import PublicView, SeatView

PLAY_BEGINS = "ttr.event.play_begins"


class TtrController(TableController[TtrState, PublicView, SeatView]):
    """Ticket to Ride's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME
    continuing = frozenset({"second_pick", "tunnel", "tickets"})
    narrowing = frozenset({"city", "route", "station", "paycolor"})
    not_possible = "ttr_bot.reason.not_possible_now"

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, TicketToRideEngine())

    # ---- what players ask for -----------------------------------------------------------------------------

    def _turn_buttons(
        self, language: str, record: GameRecord, public: PublicView, legal: list[str]
    ) -> list[GameComponent]:
        """The face-up cards, the deck, tickets, pass and My hand."""
        return turn_buttons(language, record, public, legal)

    def _hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The My hand button."""
        return hand_button(language, record)

    def _legal_codes(self, seat_view: SeatView) -> list[str]:
        """The action texts listed in the seat's view."""
        return [choice.action for choice in seat_view.legal]

    async def offer_payment(self, interaction: discord.Interaction[Any], game_id: int, target: str) -> None:
        """Claim a route or build a station chosen by a command: at once if only one way to pay, else ask how."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        choice = payment_choice(language_of(interaction.locale), record, self._seat_view(game_id, seat), target)
        if isinstance(choice, PrivateMessage):
            await answer(interaction, choice, replace=True)
        elif choice is not None:
            await self.act(interaction, game_id, choice, version=record.version)

    async def seat_view(self, game_id: int, user_id: int) -> SeatView | None:
        """A running game as this person's seat sees it (None if they do not play in it or it is not running)."""
        try:
            record = await self.service.get(game_id)
        except ServiceError:
            return None
        seat = record.seat_of(user_id)
        if seat is None or record.status != "active":
            return None
        return self._seat_view(game_id, seat)

    async def board(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Show the current board privately."""
        await self.show_picture(interaction, game_id, _pictures.BOARD)

    # ---- the shared presentation's hooks ------------------------------------------------------------------

    def _narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """Ticket to Ride's narration, summed up for a finished turn."""
        return narration(language, events, names, summary=summary)

    async def _hand(
        self, language: str, record: GameRecord, view: SeatView, lines: Sequence[str] = ()
    ) -> PrivateMessage:
        """The hand, or the pending ticket or tunnel choice."""
        return await hand_message(language, record, view, lines)

    def _needs_choice(self, view: SeatView) -> bool:
        """Tickets to keep, or a tunnel to pay for."""
        return needs_choice(view)

    def _narrowed(
        self, language: str, record: GameRecord, view: SeatView, cid: ComponentId, values: list[str]
    ) -> PrivateMessage | str | None:
        """A city, route, station city or colour picked: the next menu, or the move itself."""
        value = values[0] if values else ""
        if cid.verb == "city":
            return routes_from(language, record, view, value)
        if cid.verb == "route":
            return payment_choice(language, record, view, f"claim:{value}")
        if cid.verb == "station":
            return payment_choice(language, record, view, f"station:{value}")
        return payment_choice(language, record, view, cid.arg, colour=value)

    async def _draw(self, language: str, record: GameRecord, public: PublicView) -> bytes:
        """The board."""
        return await board_picture(language, record, public)

    def _opening(self, language: str, record: GameRecord, public: PublicView, picture: bytes | None) -> TurnMessage:
        """Who has chosen their tickets, with the board when first posted."""
        return opening_message(language, record, public, picture)

    def _turn(
        self,
        language: str,
        record: GameRecord,
        public: PublicView,
        legal: list[str],
        lines: list[str],
        picture: bytes,
    ) -> TurnMessage:
        """The turn in play with the board."""
        return turn_message(language, record, public, legal, lines, picture)

    async def _final(
        self, language: str, record: GameRecord, public: PublicView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet, every ticket and the winner, with the final board."""
        scores = await _pictures.score_sheet(language, record, public)
        board = await self._draw(language, record, public)
        return final_message(language, record, public, lines, result, scores, board)

    def _turn_begins(self, events: list[Event]) -> bool:
        """The last opening choice: play begins."""
        return any(e.key == PLAY_BEGINS for e in events)

    async def _between_turns(self, record: GameRecord, language: str, public: PublicView, events: list[Event]) -> None:
        """Play begins: the opening message loses its buttons."""
        await self._edit_opening(record, language, public)
