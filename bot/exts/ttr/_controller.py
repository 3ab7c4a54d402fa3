"""Presenting Ticket to Ride: every accepted move is told privately to whoever made it, then shown publicly.

The actor's answer comes first and carries no picture, so the first response is fast; the board is drawn
after it, off the event loop. Public messages are presented one move at a time, in version order (one lock per
game): the opening message is edited as players choose, a turn's steps edit the turn message in place, and a
finished turn retires that message's buttons and posts the next one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.exts.ttr import _pictures
from bot.exts.ttr._presenter import (
    GAME,
    board_picture,
    final_message,
    hand_button,
    is_bot_seat,
    narration,
    opening_message,
    turn_buttons,
    turn_message,
)
from bot.exts.ttr._private import PrivateMessage, hand_message, needs_choice, payment_choice, routes_from
from bot.i18n import language_of, render
from bot.services.games import Outcome, ServiceError
from bot.storage.games import GameRecord
from bot.ui.components import view_of
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import ComponentId
from rules.engine import Event, Message
from rules.ttr import TicketToRideEngine
from rules.ttr.state import TtrState
from rules.ttr.view import PublicView, SeatView

log = logging.getLogger(__name__)

_CONTINUING = frozenset({"second_pick", "tunnel", "tickets"})
"""Phases in which the player who just moved goes on with the same turn."""
_NARROWING = frozenset({"city", "route", "station", "paycolor"})
"""Verbs of the private menus that narrow a claim or a station down to one action."""


class TtrController(GameController):
    """Ticket to Ride's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self.engine = TicketToRideEngine()
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        """Game id → the newest version shown publicly."""
        self._events: dict[int, list[Event]] = {}
        """Game id → public events since the last new turn message (the turn in play)."""
        self._last_turn: dict[int, list[Event]] = {}
        """Game id → public events of the turn before (what the turn message tells first)."""
        self._boards: dict[int, tuple[int, str, bytes]] = {}
        """Game id → (version, language, PNG) of the newest board drawn."""

    # ---- the game's life --------------------------------------------------------------------------------

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the opening message (who has chosen their tickets), and hand the host their choice at once."""
        async with self._lock(record.id):
            language = await self.public_language(record)
            public = self._public(record.id)
            message = opening_message(language, record, public, await self._board(language, record, public))
            message.ping = True
            channel = self.bot.get_partial_messageable(record.channel_id)
            posted = await channel.send(files=message.files(), **message.send_kwargs())
            await self.service.store.set_message(record.id, "opening", record.channel_id, posted.id)
            self._shown[record.id] = record.version
            seat = record.seat_of(interaction.user.id)
            if seat is not None:
                mine = await hand_message(language_of(interaction.locale), record, self._seat_view(record.id, seat))
                await interaction.followup.send(
                    mine.content, files=mine.files(), view=mine.view() or discord.utils.MISSING, ephemeral=True
                )
        self.service.wake_bots(record.id)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Tell the actor privately (if a person), then update the public messages."""
        async with self._lock(outcome.record.id):
            if interaction is not None:
                await self._answer_actor(outcome, interaction)
            await self._present(outcome, interaction)

    async def publish_bot_move(self, outcome: Outcome) -> None:
        """Publish a bot player's move (no interaction to answer)."""
        await self.publish(outcome, None)

    # ---- components -------------------------------------------------------------------------------------

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Face-up cards, the ticket choice, My hand, and the menus that narrow down a claim or station."""
        if cid.verb == "take":
            colour = cid.arg.partition(":")[2]
            await self.act(interaction, cid.game_id, f"draw:{colour}", version=cid.version)
        elif cid.verb == "keep":
            # Not bound to the version: the opening choice is simultaneous, so others' choices move the version
            # on; the action names the exact tickets kept, so the engine refuses it if the offer has changed.
            ids = sorted(values, key=lambda v: (not v.isdigit(), int(v) if v.isdigit() else 0, v))
            await self.act(interaction, cid.game_id, "keep:" + ",".join(ids), version=None)
        elif cid.verb == "hand":
            await self.show_hand(interaction, cid.game_id)
        elif cid.verb in _NARROWING:
            await self._narrow(interaction, cid, values[0] if values else "")
        else:
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))

    async def fresh_controls(
        self, interaction: discord.Interaction[Any], game_id: int, language: str
    ) -> discord.ui.View | None:
        """For a stale click: the turn's buttons if it is this player's turn to draw, else their My hand button."""
        try:
            record = await self.service.get(game_id)
        except ServiceError:
            return None
        seat = record.seat_of(interaction.user.id)
        if seat is None or record.status != "active":
            return None
        public = self._public(game_id)
        if public.current == seat and public.phase in ("turn", "second_pick"):
            return view_of(turn_buttons(language, record, public, self._legal(game_id, seat)))
        return view_of([hand_button(language, record)])

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Answer privately with the player's hand and what they can do now (or their pending choice)."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        mine = await hand_message(language_of(interaction.locale), record, self._seat_view(game_id, seat))
        await self._reply(interaction, mine)

    async def offer_payment(self, interaction: discord.Interaction[Any], game_id: int, target: str) -> None:
        """Claim a route or build a station chosen by a command: at once if only one way to pay, else ask how."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        choice = payment_choice(language_of(interaction.locale), record, self._seat_view(game_id, seat), target)
        if isinstance(choice, PrivateMessage):
            await self._reply(interaction, choice)
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
        record = await self.service.get(game_id)
        language = await self.public_language(record)
        picture = await self._board(language, record, self._public(game_id))
        await self._reply(interaction, PrivateMessage("", {_pictures.BOARD: picture}))

    # ---- answering the actor ------------------------------------------------------------------------------

    async def _answer_actor(self, outcome: Outcome, interaction: discord.Interaction[Any]) -> None:
        """The actor's own answer: their next private choice, what they drew, or what they did (commands and
        private menus); a public button with nothing private to say is answered by the public update."""
        language = language_of(interaction.locale)
        names = self.names(outcome.record)
        private = [render(language, e, names) for e in outcome.events if e.to == outcome.seat]
        mine: SeatView = self.engine.view(outcome.state, outcome.seat)  # type: ignore[arg-type, assignment]
        from_private = _is_private(interaction.message)
        typed = interaction.type is discord.InteractionType.application_command
        if needs_choice(mine):
            answer = await hand_message(language, outcome.record, mine, private)
        elif private or from_private or typed:
            lines = private or narration(language, outcome.events, names, summary=True)
            answer = PrivateMessage("\n".join(lines))
        else:
            return
        await self._reply(interaction, answer)

    async def _reply(self, interaction: discord.Interaction[Any], message: PrivateMessage) -> None:
        """Edit the private message that was clicked, or send a new ephemeral one."""
        view = message.view()
        if _is_private(interaction.message) and not interaction.response.is_done():
            await interaction.response.edit_message(
                content=message.content, attachments=message.files(), embed=None, view=view
            )
            return
        kwargs: dict[str, Any] = {"files": message.files(), "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(message.content or "\u200b", **kwargs)
        else:
            await interaction.response.send_message(message.content or None, **kwargs)

    async def _narrow(self, interaction: discord.Interaction[Any], cid: ComponentId, value: str) -> None:
        """A city, route, station city or colour picked in a private menu: the next menu, or the move itself."""
        found = await self._player(interaction, cid.game_id)
        if found is None:
            return
        record, seat = found
        if cid.version != record.version:
            await self.refuse(interaction, Message(key="bot.reason.stale"), game_id=cid.game_id)
            return
        language = language_of(interaction.locale)
        view = self._seat_view(cid.game_id, seat)
        result: PrivateMessage | str | None
        if cid.verb == "city":
            result = routes_from(language, record, view, value)
        elif cid.verb == "route":
            result = payment_choice(language, record, view, f"claim:{value}")
        elif cid.verb == "station":
            result = payment_choice(language, record, view, f"station:{value}")
        else:
            result = payment_choice(language, record, view, cid.arg, colour=value)
        if isinstance(result, str):
            await self.act(interaction, cid.game_id, result, version=cid.version)
        elif result is None:
            await self.refuse(interaction, Message(key="ttr_bot.reason.not_possible_now"), game_id=cid.game_id)
        else:
            await self._reply(interaction, result)

    async def _player(self, interaction: discord.Interaction[Any], game_id: int) -> tuple[GameRecord, int] | None:
        """The running game and the clicker's seat, or a private refusal and None."""
        try:
            record = await self.service.get(game_id)
        except ServiceError as error:
            await self.refuse(interaction, error.message)
            return None
        seat = record.seat_of(interaction.user.id)
        if record.status != "active":
            await self.refuse(interaction, Message(key="bot.reason.not_running"))
            return None
        if seat is None:
            await self.refuse(interaction, Message(key="bot.reason.not_a_player"))
            return None
        return record, seat

    # ---- the public messages ------------------------------------------------------------------------------

    async def _present(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Update the public messages for one accepted move (older moves than the one shown are skipped)."""
        record = outcome.record
        if record.version <= self._shown.get(record.id, -1):
            return
        self._shown[record.id] = record.version
        events = self._events.setdefault(record.id, [])
        events.extend(e for e in outcome.events if e.public)
        language = await self.public_language(record)
        state: TtrState = outcome.state  # type: ignore[assignment]
        public: PublicView = self.engine.view(state, None)
        responding = interaction if interaction is not None and not interaction.response.is_done() else None
        if outcome.finished:
            await self._finish(record, language, state, public, responding)
        elif public.phase == "opening":
            await self._edit_opening(record, language, public)
        elif any(e.key == "ttr.event.play_begins" for e in outcome.events):
            await self._edit_opening(record, language, public)
            await self._new_turn(record, language, state, public, responding)
        elif public.phase in _CONTINUING and public.current == outcome.seat:
            if not outcome.by_bot:  # a bot finishes its turn at once: show the turn when it is done
                await self._same_turn(record, language, state, public, responding)
        else:
            await self._new_turn(record, language, state, public, responding)
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()

    async def _edit_opening(self, record: GameRecord, language: str, public: PublicView) -> None:
        """Redraw who has chosen their tickets; the buttons go once everyone has."""
        where = await self.service.store.get_message(record.id, "opening")
        if where is None:
            return
        message = opening_message(language, record, public, None)
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(**{**message.send_kwargs(), "view": message.view})
        except discord.NotFound:
            log.info("opening message %s of game %s was deleted; play goes on", message_id, record.id)

    async def _same_turn(
        self,
        record: GameRecord,
        language: str,
        state: TtrState,
        public: PublicView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """A step inside a turn (first card, tunnel revealed, tickets drawn): edit the turn message in place."""
        names = self.names(record)
        lines = narration(language, self._last_turn.get(record.id, []), names, summary=True)
        lines += narration(language, self._events.get(record.id, []), names, summary=False)
        message = await self._turn_message(record, language, state, public, lines)
        current = await self.service.store.get_message(record.id, "turn")
        if current is None:
            await self._post(record, message)
            return
        if responding is not None and _clicked(responding) == current[1]:
            await responding.response.edit_message(attachments=message.files(), **message.send_kwargs())
            return
        channel_id, message_id = current
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(attachments=message.files(), **message.send_kwargs())
        except discord.NotFound:  # deleted by someone: show the turn in a new message instead
            await self._post(record, message)

    async def _new_turn(
        self,
        record: GameRecord,
        language: str,
        state: TtrState,
        public: PublicView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """Retire the last turn message's buttons (answering the click with it if it was clicked), then post the
        next turn's message with the board and what happened."""
        current = await self.service.store.get_message(record.id, "turn")
        if current is not None:
            if responding is not None and _clicked(responding) == current[1]:
                await responding.response.edit_message(view=None)
            else:
                await self._retire(current)
        names = self.names(record)
        self._last_turn[record.id] = self._events.pop(record.id, [])
        lines = narration(language, self._last_turn[record.id], names, summary=True)
        message = await self._turn_message(record, language, state, public, lines)
        message.ping = True
        await self._post(record, message)

    async def _finish(
        self,
        record: GameRecord,
        language: str,
        state: TtrState,
        public: PublicView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """The end: retire the last turn message, post the score sheet, every ticket and the winner."""
        current = await self.service.store.get_message(record.id, "turn")
        if current is not None:
            if responding is not None and _clicked(responding) == current[1]:
                await responding.response.edit_message(view=None)
            else:
                await self._retire(current)
        result = self.engine.result(state)
        assert result is not None
        names = self.picture_names(record)
        scores = await _pictures.score_sheet(language, public, names)
        board = await self._board(language, record, public)
        lines = narration(language, self._events.pop(record.id, []), self.names(record), summary=True)
        message = final_message(language, record, public, lines, result, scores, board)
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(files=message.files(), **message.send_kwargs())
        for table in (self._shown, self._boards, self._locks, self._last_turn):
            table.pop(record.id, None)

    async def _turn_message(
        self, record: GameRecord, language: str, state: TtrState, public: PublicView, lines: list[str]
    ) -> TurnMessage:
        seat = public.current
        human = seat is not None and not is_bot_seat(record, seat)
        legal = [a.encode() for a in self.engine.legal_actions(state, seat)] if human and seat is not None else []
        return turn_message(language, record, public, legal, lines, await self._board(language, record, public))

    async def _post(self, record: GameRecord, message: TurnMessage) -> None:
        channel = self.bot.get_partial_messageable(record.channel_id)
        posted = await channel.send(files=message.files(), **message.send_kwargs())
        await self.service.store.set_message(record.id, "turn", record.channel_id, posted.id)

    # ---- helpers --------------------------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _public(self, game_id: int) -> PublicView:
        return self.service.view(game_id, None)  # type: ignore[return-value]

    def _seat_view(self, game_id: int, seat: int) -> SeatView:
        return self.service.view(game_id, seat)  # type: ignore[return-value]

    def _legal(self, game_id: int, seat: int) -> list[str]:
        return [choice.action for choice in self._seat_view(game_id, seat).legal]

    async def _board(self, language: str, record: GameRecord, public: PublicView) -> bytes:
        """The board of this version, drawn once per version and language."""
        cached = self._boards.get(record.id)
        if cached is not None and cached[:2] == (record.version, language):
            return cached[2]
        picture = await board_picture(language, record, public)
        self._boards[record.id] = (record.version, language, picture)
        return picture


def _is_private(message: discord.Message | None) -> bool:
    """Whether an interaction came from an ephemeral message."""
    return message is not None and message.flags.ephemeral


def _clicked(interaction: discord.Interaction[Any]) -> int | None:
    return interaction.message.id if interaction.message is not None else None
