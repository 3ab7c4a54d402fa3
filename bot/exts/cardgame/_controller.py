"""Presenting the card game: every accepted move is told privately to whoever made it, then shown publicly.

The actor's answer comes first and carries no public picture, so the first response is fast; the table is drawn
after it, off the event loop. Public messages are presented one move at a time, in version order (one lock per
game): the opening message is edited as players choose, a turn's steps edit the turn message in place, a 4-player
first scoring gets a message of its own, and a finished turn retires its message's buttons and posts the next.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import (
    GAME,
    final_message,
    first_scoring_message,
    hand_button,
    is_bot_seat,
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
from bot.i18n import language_of, render
from bot.services.games import Outcome, ServiceError
from bot.storage.games import GameRecord
from bot.ui.components import view_of
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import ComponentId
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.view import CardGameView
from rules.engine import Event, Message

log = logging.getLogger(__name__)

_CONTINUING = frozenset({"second_pick", "tickets"})
"""Phases in which the player who just moved goes on with the same turn."""
_NARROWING = frozenset({"color", "size", "three"})
"""Verbs of the private menus that narrow a play down to one action."""
FIRST_SCORING = "cardgame.event.first_scoring"
TURN_STARTED = "cardgame.event.turn_started"


class CardGameController(GameController):
    """The card game's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self.engine = CardGameEngine()
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        """Game id → the newest version shown publicly."""
        self._events: dict[int, list[Event]] = {}
        """Game id → public events since the last new turn message (the turn in play)."""
        self._last_turn: dict[int, list[Event]] = {}
        """Game id → public events of the turn before (what the turn message tells first)."""
        self._tables: dict[int, tuple[int, str, bytes]] = {}
        """Game id → (version, language, PNG) of the newest table drawn."""

    # ---- the game's life --------------------------------------------------------------------------------

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the opening message (who has chosen their tickets), and hand the host their choice at once."""
        async with self._lock(record.id):
            language = await self.public_language(record)
            public = self._public(record.id)
            message = opening_message(language, record, public, await self._table(language, record, public))
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
        """Publish a move nobody clicked for (a bot player's, or one played for an absent person)."""
        await self.publish(outcome, None)

    # ---- components -------------------------------------------------------------------------------------

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Face-up cards, the ticket choice, My hand, and the menus that narrow down a play."""
        if cid.verb == "take":
            colour = cid.arg.partition(":")[2]
            await self.act(interaction, cid.game_id, f"draw:{colour}", version=cid.version)
        elif cid.verb == "keep":
            # Not bound to the version: the opening choice is simultaneous, so others' choices move the version
            # on; the action names the exact tickets kept, so the engine refuses it if the offer has changed.
            ids = sorted(values, key=lambda v: (not v.isdigit(), int(v) if v.isdigit() else 0, v))
            await self.act(interaction, cid.game_id, "keep:" + (",".join(ids) or "none"), version=None)
        elif cid.verb == "hand":
            await self.show_hand(interaction, cid.game_id)
        elif cid.verb in _NARROWING:
            await self._narrow(interaction, cid, values)
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
            return view_of(turn_buttons(language, record, public, legal_codes(self._seat_view(game_id, seat))))
        return view_of([hand_button(language, record)])

    # ---- what players ask for -----------------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Answer privately with the player's hand and the plays they can make now (or their ticket choice)."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        mine = await hand_message(language_of(interaction.locale), record, self._seat_view(game_id, seat))
        await self._reply(interaction, mine)

    async def show_table(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Show the table as it is now, privately."""
        record = await self.service.get(game_id)
        language = language_of(interaction.locale)
        picture = await self._table(language, record, self._public(game_id))
        await self._reply(interaction, PrivateMessage("", {_pictures.TABLE: picture}))

    def public_view(self, game_id: int) -> CardGameView:
        """The public view of a running game already loaded."""
        return self._public(game_id)

    # ---- answering the actor ------------------------------------------------------------------------------

    async def _answer_actor(self, outcome: Outcome, interaction: discord.Interaction[Any]) -> None:
        """The actor's own answer: their ticket choice, the card they drew blind, or what they did (commands and
        private menus); a public button with nothing private to say is answered by the public update."""
        language = language_of(interaction.locale)
        names = self.names(outcome.record)
        private = [render(language, e, names) for e in outcome.events if e.to == outcome.seat]
        mine = self.engine.view(outcome.state, outcome.seat)  # type: ignore[arg-type]
        from_private = _is_private(interaction.message)
        typed = interaction.type is discord.InteractionType.application_command
        if needs_choice(mine):
            answer = await hand_message(language, outcome.record, mine, private)
        elif private or from_private or typed:
            lines = private or narration(language, _own_turn(outcome.events), names)
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

    async def _narrow(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """A colour, a size or three colours picked in a private menu: the next menu, or the play itself."""
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
        if cid.verb == "three":
            result = "play3:" + ",".join(values)
        elif cid.verb == "color":
            result = colour_plays(language, record, view, values[0] if values else "")
        else:
            size = values[0] if values else ""
            result = size_plays(language, record, view, cid.arg, int(size)) if size.isdigit() else None
        if isinstance(result, str):
            await self.act(interaction, cid.game_id, result, version=cid.version)
        elif result is None:
            await self.refuse(interaction, Message(key="cardgame_bot.reason.not_possible_now"), game_id=cid.game_id)
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
        state: CardGameState = outcome.state  # type: ignore[assignment]
        public = self.engine.view(state, None)
        responding = interaction if interaction is not None and not interaction.response.is_done() else None
        if outcome.finished:
            await self._finish(record, language, state, public, responding)
        elif public.phase == "opening":
            await self._edit_opening(record, language, public)
        elif any(e.key == TURN_STARTED for e in outcome.events):
            if any(e.key == TURN_STARTED and e.params.get("turn") == 1 for e in outcome.events):
                await self._edit_opening(record, language, public)  # the last opening choice: play begins
            if any(e.key == FIRST_SCORING for e in outcome.events):
                await self._first_scoring(record, language, public, responding)
                responding = None
            await self._new_turn(record, language, state, public, responding)
        elif public.phase in _CONTINUING and public.current == outcome.seat:
            if not outcome.by_bot:  # a bot finishes its turn at once: show the turn when it is done
                await self._same_turn(record, language, state, public, responding)
        else:
            await self._new_turn(record, language, state, public, responding)
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()

    async def _edit_opening(self, record: GameRecord, language: str, public: CardGameView) -> None:
        """Redraw who has chosen their tickets; the button goes once everyone has."""
        where = await self.service.store.get_message(record.id, "opening")
        if where is None:
            return
        message = opening_message(language, record, public, None)
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        await partial.edit(**{**message.send_kwargs(), "view": message.view})

    async def _same_turn(
        self,
        record: GameRecord,
        language: str,
        state: CardGameState,
        public: CardGameView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """A step inside a turn (first card taken, tickets drawn): edit the turn message in place."""
        names = self.names(record)
        lines = narration(language, self._last_turn.get(record.id, []), names)
        lines += narration(language, self._events.get(record.id, []), names)
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
        await partial.edit(attachments=message.files(), **message.send_kwargs())

    async def _new_turn(
        self,
        record: GameRecord,
        language: str,
        state: CardGameState,
        public: CardGameView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """Retire the last turn message's buttons (answering the click with it if it was clicked), then post the
        next turn's message with the table and what happened, step 1 of this turn included."""
        await self._retire_turn(record, responding)
        names = self.names(record)
        self._last_turn[record.id] = self._events.pop(record.id, [])
        lines = narration(language, self._last_turn[record.id], names)
        message = await self._turn_message(record, language, state, public, lines)
        message.ping = True
        await self._post(record, message)

    async def _first_scoring(
        self,
        record: GameRecord,
        language: str,
        public: CardGameView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """4 players, first deck out: retire the turn message, then post the scoring with its picture."""
        await self._retire_turn(record, responding)
        events = self._events.get(record.id, [])
        names = self.names(record)
        scored = narration(language, [e for e in events if e.key == FIRST_SCORING], names)
        self._events[record.id] = [e for e in events if e.key != FIRST_SCORING]  # told here, not again
        picture = await _pictures.first_scoring(language, public, self.picture_names(record))
        message = first_scoring_message(language, record, scored, picture)
        await self._post(record, message, kind="first_scoring")

    async def _finish(
        self,
        record: GameRecord,
        language: str,
        state: CardGameState,
        public: CardGameView,
        responding: discord.Interaction[Any] | None,
    ) -> None:
        """The end: retire the last turn message, post the score sheet with every stack revealed and the winner."""
        await self._retire_turn(record, responding)
        result = self.engine.result(state)
        assert result is not None
        scores = await _pictures.final_scoring(language, public, self.picture_names(record))
        lines = narration(language, self._events.pop(record.id, []), self.names(record))
        message = final_message(language, record, public, lines, result, scores)
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(files=message.files(), **message.send_kwargs())
        for table in (self._shown, self._tables, self._locks, self._last_turn):
            table.pop(record.id, None)

    async def _retire_turn(self, record: GameRecord, responding: discord.Interaction[Any] | None) -> None:
        """Take the buttons off the turn message, answering the click with that if it was clicked there."""
        current = await self.service.store.get_message(record.id, "turn")
        if current is None:
            return
        if responding is not None and not responding.response.is_done() and _clicked(responding) == current[1]:
            await responding.response.edit_message(view=None)
        else:
            await self._retire(current)

    async def _turn_message(
        self, record: GameRecord, language: str, state: CardGameState, public: CardGameView, lines: list[str]
    ) -> TurnMessage:
        seat = public.current
        human = not is_bot_seat(record, seat)
        legal = [a.encode() for a in self.engine.legal_actions(state, seat)] if human else []
        return turn_message(language, record, public, legal, lines, await self._table(language, record, public))

    async def _post(self, record: GameRecord, message: TurnMessage, *, kind: str = "turn") -> None:
        channel = self.bot.get_partial_messageable(record.channel_id)
        posted = await channel.send(files=message.files(), **message.send_kwargs())
        await self.service.store.set_message(record.id, kind, record.channel_id, posted.id)

    # ---- helpers --------------------------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _public(self, game_id: int) -> CardGameView:
        return self.service.view(game_id, None)  # type: ignore[return-value]

    def _seat_view(self, game_id: int, seat: int) -> CardGameView:
        return self.service.view(game_id, seat)  # type: ignore[return-value]

    async def _table(self, language: str, record: GameRecord, public: CardGameView) -> bytes:
        """The table of this version, drawn once per version and language."""
        cached = self._tables.get(record.id)
        if cached is not None and cached[:2] == (record.version, language):
            return cached[2]
        picture = await _pictures.table(language, public, self.picture_names(record))
        self._tables[record.id] = (record.version, language, picture)
        return picture


def _own_turn(events: list[Event]) -> list[Event]:
    """The events of the move itself, without the next turn's start (its step 1 is told publicly)."""
    for index, event in enumerate(events):
        if event.key == TURN_STARTED:
            return events[:index]
    return events


def _is_private(message: discord.Message | None) -> bool:
    """Whether an interaction came from an ephemeral message."""
    return message is not None and message.flags.ephemeral


def _clicked(interaction: discord.Interaction[Any]) -> int | None:
    return interaction.message.id if interaction.message is not None else None
