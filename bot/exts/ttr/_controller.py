"""Ticket to Ride's controller: the shared card-table presentation with its presenter (`_presenter.py`) plugged
in, and what its commands need besides (paying for a claim or a station typed as a command, the board on request).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.exts.ttr._presenter import TtrPresenter, face_up_row
from bot.exts.ttr._private import GAME, PrivateMessage, Target, payment_choice
from bot.i18n import language_of
from bot.services.errors import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import answer
from bot.ui.controller import TurnMessage
from bot.ui.pictures import Picture
from bot.ui.table_controller import TableController
from rules.engine import Event
from rules.ttr import TicketToRideEngine
from rules.ttr.actions import TtrAction
from rules.ttr.state import TtrState
from rules.ttr.view import PublicView, SeatView


class TtrController(TableController[TtrState, PublicView, SeatView, TtrAction]):
    """Ticket to Ride's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, TicketToRideEngine(), TtrPresenter())
        self._row_pictured: dict[int, tuple[str, ...]] = {}
        """Game id → the face-up row the last board posted in its turn messages shows."""

    async def offer_payment(self, interaction: discord.Interaction[Any], game_id: int, target: Target) -> None:
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
        await self.show_picture(interaction, game_id)

    async def _between_turns(self, record: GameRecord, language: str, public: PublicView, events: list[Event]) -> None:
        """Play begins: the opening message loses its buttons."""
        await self._edit_opening(record, language, public)

    def _turn_message(
        self,
        record: GameRecord,
        language: str,
        state: TtrState,
        public: PublicView,
        lines: list[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The turn message, which says the face-up cards in words while the last board posted shows another row
        (cards taken face up since: no board is posted when only cards were drawn)."""
        if any(picture.data for picture in pictures):  # a board drawn for this very message shows the row as it is
            self._row_pictured[record.id] = tuple(public.market)
        message = super()._turn_message(record, language, state, public, lines, pictures)
        if self._row_pictured.get(record.id) != tuple(public.market):
            message.status.insert(0, face_up_row(language, public))
        return message

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a game that ended, the face-up row its last board shows included."""
        super().forget(game_id)
        self._row_pictured.pop(game_id, None)
