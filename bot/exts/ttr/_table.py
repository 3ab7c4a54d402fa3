"""What Ticket to Ride plugs into the shared card-table presentation (bot/ui/table_presenter.py): its narration,
the board, the turn messages, the hand with the tunnel step, and the menus that narrow a claim or a station down to
one way to pay. Nothing here posts or edits a message: the controller does.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar

from bot.exts.ttr import _pictures
from bot.exts.ttr._presenter import (
    board_picture,
    final_alt,
    final_message,
    hand_button,
    narration,
    opening_message,
    turn_buttons,
    turn_message,
)
from bot.exts.ttr._private import (
    PrivateMessage,
    Target,
    hand_message,
    legal_moves,
    needs_choice,
    payment_choice,
    routes_from,
)
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import Picture
from bot.ui.table_presenter import ControlMove, face_up_colour, picked_tickets
from rules.engine import Event, GameResult
from rules.ttr.actions import DrawCard, KeepTickets, TtrAction
from rules.ttr.state import Phase
from rules.ttr.view import PublicView, SeatView

PLAY_BEGINS = "ttr.event.play_begins"


def take_card(cid: ComponentId, values: list[str]) -> DrawCard:
    """A face-up card's button: draw that colour (the engine refuses a colour it does not know)."""
    return DrawCard(source=face_up_colour(cid))


def keep_tickets(cid: ComponentId, values: list[str]) -> KeepTickets | None:
    """The ticket choice's menu: keep exactly the tickets picked (not bound to the version: the opening choice is
    simultaneous, so others' choices move the version on; the engine refuses it if the offer has changed)."""
    picked = picked_tickets(values)
    return KeepTickets(tickets=picked) if picked is not None else None


class TtrTable:
    """Ticket to Ride's words, pictures and controls for the shared presentation."""

    continuing = frozenset({Phase.SECOND_PICK, Phase.TUNNEL, Phase.TICKETS})
    narrowing = frozenset({"city", "route", "station", "paycolor"})
    not_possible = "ttr_bot.reason.not_possible_now"
    moves: ClassVar[Mapping[str, ControlMove]] = {
        "take": ControlMove(take_card),
        "keep": ControlMove(keep_tickets, bound=False),
    }

    def turn_buttons(
        self, language: str, record: GameRecord, public: PublicView, legal: list[TtrAction]
    ) -> list[GameComponent]:
        """The face-up cards, the deck, tickets, pass and My hand."""
        return turn_buttons(language, record, public, legal)

    def hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The My hand button."""
        return hand_button(language, record)

    def legal_moves(self, seat_view: SeatView) -> list[TtrAction]:
        """The legal actions listed in the seat's view."""
        return legal_moves(seat_view)

    def own_move(self, events: list[Event]) -> list[Event]:
        """All of a move's events are the actor's own."""
        return events

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """Ticket to Ride's narration, summed up for a finished turn."""
        return narration(language, events, names, summary=summary)

    async def hand(
        self, language: str, record: GameRecord, view: SeatView, lines: Sequence[str] = ()
    ) -> PrivateMessage:
        """The hand, or the pending ticket or tunnel choice."""
        return await hand_message(language, record, view, lines)

    def needs_choice(self, view: SeatView) -> bool:
        """Tickets to keep, or a tunnel to pay for."""
        return needs_choice(view)

    def narrowed(
        self, language: str, record: GameRecord, view: SeatView, cid: ComponentId, values: list[str]
    ) -> PrivateMessage | TtrAction | None:
        """A city, route, station city or colour picked: the next menu, or the move itself."""
        value = values[0] if values else ""
        if cid.verb == "city":
            return routes_from(language, record, view, value)
        if cid.verb == "route":
            return payment_choice(language, record, view, Target.claim(value))
        if cid.verb == "station":
            return payment_choice(language, record, view, Target.station(value))
        target = Target.read(cid.parts)
        return payment_choice(language, record, view, target, colour=value) if target is not None else None

    async def draw(self, language: str, record: GameRecord, public: PublicView) -> Picture:
        """The board."""
        return await board_picture(language, record, public)

    def board_key(self, public: PublicView) -> Hashable:
        """The routes and stations taken and the tunnel being paid: drawing cards changes none of them."""
        tunnel = public.tunnel.track if public.tunnel is not None else None
        return (tuple(sorted(public.owners.items())), tuple(sorted(public.stations.items())), tunnel)

    def opening(self, language: str, record: GameRecord, public: PublicView, picture: Picture) -> TurnMessage:
        """Who has chosen their tickets, with the board."""
        return opening_message(language, record, public, picture)

    def turn(
        self,
        language: str,
        record: GameRecord,
        public: PublicView,
        legal: list[TtrAction],
        lines: list[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The turn in play (with the board when it changed)."""
        return turn_message(language, record, public, legal, lines, pictures)

    async def final(
        self, language: str, record: GameRecord, public: PublicView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet, every ticket and the winner, with the final board."""
        scores = Picture(
            _pictures.SCORES,
            await _pictures.score_sheet(language, record, public),
            final_alt(language, record, result),
        )
        board = await self.draw(language, record, public)
        return final_message(language, record, public, lines, result, scores, board)

    def turn_begins(self, events: list[Event]) -> bool:
        """The last opening choice: play begins."""
        return any(e.key == PLAY_BEGINS for e in events)
