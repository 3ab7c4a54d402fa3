"""What the card-table games' controllers share: every accepted move is told privately to whoever made it, then
shown publicly.

The actor's answer comes first; anything that draws a picture is preceded by acknowledging the click, so Discord's
3-second deadline holds however slow drawing is. Public messages are presented one move at a time, in version
order (one lock per game): the opening message is edited as players choose, a turn's steps edit the turn message
in place, and a finished turn retires that message's buttons and posts the next one. A channel that missed a move
(a failed post, a restart) is shown the table as it stands instead. Each game supplies its engine, its presenter
functions and its picture through the hooks below.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import discord
from pydantic import BaseModel

from bot.i18n import language_of, render, text
from bot.services.games import Outcome, ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import PrivateReply, Reply, acknowledge, answer, is_private
from bot.ui.components import GameComponent, view_of
from bot.ui.controller import GameController, TurnMessage, place_gone
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import PICTURES
from rules.engine import Event, GameEngine, GameResult, Message

log = logging.getLogger(__name__)


class TableView(Protocol):
    """What the shared presentation reads from a game's public view."""

    @property
    def phase(self) -> str:
        """The phase the game is in ("opening", "turn", ...)."""
        ...

    @property
    def current(self) -> int | None:
        """The seat whose turn it is."""
        ...


StateT = TypeVar("StateT", bound=BaseModel)
PublicT = TypeVar("PublicT", bound=TableView)
SeatT = TypeVar("SeatT")


class TableController(GameController, Generic[StateT, PublicT, SeatT]):
    """A card-table game's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    continuing: ClassVar[frozenset[str]]
    """Phases in which the player who just moved goes on with the same turn."""
    narrowing: ClassVar[frozenset[str]]
    """Verbs of the private menus that narrow a move down to one action."""
    not_possible: ClassVar[str]
    """The refusal key for a narrowed choice the game no longer allows."""
    empty_keep: ClassVar[str] = ""
    """How a keep action spells keeping no ticket at all."""

    def __init__(self, bot: Any, engine: GameEngine[StateT, Any, Any]) -> None:
        super().__init__(bot)
        self.engine = engine
        self._events: dict[int, list[Event]] = {}
        """Game id → public events since the last new turn message (the turn in play)."""
        self._last_turn: dict[int, list[Event]] = {}
        """Game id → public events of the turn before (what the turn message tells first)."""

    # ---- what each game supplies ------------------------------------------------------------------------

    def _narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The public events worded for a message (summary: the turn as told afterwards)."""
        raise NotImplementedError

    def _own_move(self, events: list[Event]) -> list[Event]:
        """The events told to the actor as what they did (all of them unless the game says otherwise)."""
        return events

    async def _hand(self, language: str, record: GameRecord, view: SeatT, lines: Sequence[str] = ()) -> PrivateReply:
        """The player's private hand message, or their pending choice."""
        raise NotImplementedError

    def _needs_choice(self, view: SeatT) -> bool:
        """Whether the seat owes a private decision now."""
        raise NotImplementedError

    def _narrowed(
        self, language: str, record: GameRecord, view: SeatT, cid: ComponentId, values: list[str]
    ) -> PrivateReply | str | None:
        """A narrowing menu's pick: the next menu, the action itself, or None if it is not possible now."""
        raise NotImplementedError

    async def _draw(self, language: str, record: GameRecord, public: PublicT) -> bytes:
        """The game's public picture (board or table) of this state."""
        raise NotImplementedError

    def _opening(self, language: str, record: GameRecord, public: PublicT, picture: bytes | None) -> TurnMessage:
        """The opening message: who has chosen their tickets (with the picture when first posted)."""
        raise NotImplementedError

    def _turn(
        self, language: str, record: GameRecord, public: PublicT, legal: list[str], lines: list[str], picture: bytes
    ) -> TurnMessage:
        """The message of the turn in play."""
        raise NotImplementedError

    async def _final(
        self, language: str, record: GameRecord, public: PublicT, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The score sheet message posted at the end."""
        raise NotImplementedError

    def _turn_buttons(
        self, language: str, record: GameRecord, public: PublicT, legal: list[str]
    ) -> list[GameComponent]:
        """The public turn message's buttons for these legal moves."""
        raise NotImplementedError

    def _hand_button(self, language: str, record: GameRecord) -> GameComponent:
        """The button that opens a player's private hand."""
        raise NotImplementedError

    def _legal_codes(self, seat_view: SeatT) -> list[str]:
        """The encoded legal moves listed in a seat's view."""
        raise NotImplementedError

    async def _between_turns(self, record: GameRecord, language: str, public: PublicT, events: list[Event]) -> None:
        """What a game shows before a new turn whose start it announces."""
        raise NotImplementedError

    def _turn_begins(self, events: list[Event]) -> bool:
        """Whether a move's events start a new turn explicitly (the opening's end included)."""
        raise NotImplementedError

    # ---- the game's life --------------------------------------------------------------------------------

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the opening message (who has chosen their tickets), and hand the host their choice at once."""
        try:
            async with self.presenting(record.id):
                await self._post_opening(record, self._public(record.id))
        except Exception as error:
            await self.publish_failed(record, interaction, error)
        seat = record.seat_of(interaction.user.id)
        if seat is not None:
            mine = await self._hand(language_of(interaction.locale), record, self._seat_view(record.id, seat))
            await answer(interaction, mine)
        self.service.wake_bots(record.id)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Tell the actor privately (if a person), then update the public messages (in version order: the answer
        never waits for another move's post)."""
        async with self.publishing(outcome):
            if interaction is not None:
                await self._answer_actor(outcome, interaction)
                await acknowledge(interaction)  # a public click with nothing private to say: drawing comes next
            async with self.presenting_in_turn(outcome):
                await self._present(outcome)

    async def catch_up(self, record: GameRecord) -> None:
        """Show the game as it stands: the opening, the turn in play, or the final sheet."""
        async with self.presenting(record.id):
            if record.status == "active" and not self.service.behind(record.id):
                return  # shown meanwhile by the move that was being published
            if record.status == "finished":
                assert record.state is not None
                state = self.engine.load_state(record.state)
            else:
                state = cast(StateT, self.service.state(record.id))
            await self._show_as_it_stands(record, state)

    # ---- components -------------------------------------------------------------------------------------

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Face-up cards, the ticket choice, My hand, and the game's menus that narrow down a move."""
        if cid.verb == "take":
            colour = cid.arg.partition(":")[2]
            await self.act(interaction, cid.game_id, f"draw:{colour}", version=cid.version)
        elif cid.verb == "keep":
            # Not bound to the version: the opening choice is simultaneous, so others' choices move the version
            # on; the action names the exact tickets kept, so the engine refuses it if the offer has changed.
            ids = sorted(values, key=lambda v: (not v.isdigit(), int(v) if v.isdigit() else 0, v))
            await self.act(interaction, cid.game_id, "keep:" + (",".join(ids) or self.empty_keep), version=None)
        elif cid.verb == "hand":
            await self.show_hand(interaction, cid.game_id)
        elif cid.verb in self.narrowing:
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
            legal = self._legal_codes(self._seat_view(game_id, seat))
            return view_of(self._turn_buttons(language, record, public, legal))
        return view_of([self._hand_button(language, record)])

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Answer privately with the player's hand and what they can do now (or their pending choice)."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        await acknowledge(interaction, private_answer=True)
        mine = await self._hand(language_of(interaction.locale), record, self._seat_view(game_id, seat))
        await answer(interaction, mine, replace=True)

    async def show_picture(self, interaction: discord.Interaction[Any], game_id: int, filename: str) -> None:
        """Show the game's public picture as it is now, privately (and bring a channel that fell behind up)."""
        await acknowledge(interaction, private_answer=True)
        await self.ensure_shown(game_id)
        record = await self.service.get(game_id)
        language = language_of(interaction.locale)
        picture = await self._draw(language, record, self._public(game_id))
        await answer(interaction, Reply(pictures={filename: picture}))

    # ---- answering the actor ------------------------------------------------------------------------------

    async def _answer_actor(self, outcome: Outcome, interaction: discord.Interaction[Any]) -> None:
        """The actor's own answer: their next private choice, what they drew, or what they did (commands and
        private menus); a public button with nothing private to say is answered by the public update."""
        language = language_of(interaction.locale)
        names = self.names(outcome.record)
        private = [render(language, e, names) for e in outcome.events if e.to == outcome.seat]
        mine = cast(SeatT, self.engine.view(cast(StateT, outcome.state), outcome.seat))
        typed = interaction.type is discord.InteractionType.application_command
        reply: PrivateReply
        if self._needs_choice(mine):
            await acknowledge(interaction, private_answer=True)  # the choice comes with a picture
            reply = await self._hand(language, outcome.record, mine, private)
        elif private or is_private(interaction.message) or typed:
            lines = private or self._narrate(language, self._own_move(outcome.events), names, summary=False)
            reply = Reply("\n".join(lines))
        else:
            return
        await answer(interaction, reply, replace=True)

    async def _narrow(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """A pick in a private narrowing menu: the next menu, or the move itself."""
        found = await self._player(interaction, cid.game_id)
        if found is None:
            return
        record, seat = found
        if cid.version != record.version:
            await self.refuse(interaction, Message(key="bot.reason.stale"), game_id=cid.game_id)
            return
        language = language_of(interaction.locale)
        result = self._narrowed(language, record, self._seat_view(cid.game_id, seat), cid, values)
        if isinstance(result, str):
            await self.act(interaction, cid.game_id, result, version=cid.version)
        elif result is None:
            await self.refuse(interaction, Message(key=self.not_possible), game_id=cid.game_id)
        else:
            await answer(interaction, result, replace=True)

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

    async def _present(self, outcome: Outcome) -> None:
        """Update the public messages for one accepted move; a channel that missed a move is shown the table as it
        stands instead, and a move older than what is shown is skipped."""
        record = outcome.record
        shown = self.service.shown(record.id)
        if record.version <= shown:
            return
        state = cast(StateT, outcome.state)
        if shown < record.version - 1:
            await self._show_as_it_stands(record, state)
            return
        events = self._events.setdefault(record.id, [])
        events.extend(e for e in outcome.events if e.public)
        language = await self.public_language(record)
        public = cast(PublicT, self.engine.view(state, None))
        if outcome.finished:
            await self._finish(record, language, state, public)
            return
        if public.phase == "opening":
            await self._edit_opening(record, language, public)
        elif self._turn_begins(outcome.events):
            await self._between_turns(record, language, public, outcome.events)
            await self._new_turn(record, language, state, public)
        elif public.phase in self.continuing and public.current == outcome.seat:
            if not outcome.by_bot:  # a bot finishes its turn at once: show the turn when it is done
                await self._same_turn(record, language, state, public)
        else:
            await self._new_turn(record, language, state, public)
        await self.service.mark_shown(record.id, record.version)

    async def _show_as_it_stands(self, record: GameRecord, state: StateT) -> None:
        """Present the current state afresh (the channel missed moves): the events in between are not retold."""
        language = await self.public_language(record)
        public = cast(PublicT, self.engine.view(state, None))
        self._events[record.id] = []
        self._last_turn[record.id] = []
        if self.engine.is_over(state):
            await self._finish(record, language, state, public)
        elif public.phase == "opening":
            await self._post_opening(record, public)
        else:
            await self._new_turn(record, language, state, public, lines=[text(language, "bot.catch_up.shown")])
            await self.service.mark_shown(record.id, record.version)

    async def _post_opening(self, record: GameRecord, public: PublicT) -> None:
        """Post the opening message with the picture (retiring an older one, if any) and remember it."""
        language = await self.public_language(record)
        message = self._opening(language, record, public, await self._draw(language, record, public))
        message.ping = True
        older = await self.service.store.get_message(record.id, "opening")
        if older is not None:
            await self.retire(older)
        await self.post(record, message, kind="opening")
        await self.service.mark_shown(record.id, record.version)

    async def _edit_opening(self, record: GameRecord, language: str, public: PublicT) -> None:
        """Redraw who has chosen their tickets; the buttons go once everyone has."""
        where = await self.service.store.get_message(record.id, "opening")
        if where is None:
            return
        message = self._opening(language, record, public, None)
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(**{**message.send_kwargs(), "view": message.view})
        except discord.NotFound as error:
            if place_gone(error):
                raise
            log.info("opening message %s of game %s was deleted; play goes on", message_id, record.id)

    async def _same_turn(self, record: GameRecord, language: str, state: StateT, public: PublicT) -> None:
        """A step inside a turn (first card, tickets drawn, ...): edit the turn message in place."""
        names = self.names(record)
        lines = self._narrate(language, self._last_turn.get(record.id, []), names, summary=True)
        lines += self._narrate(language, self._events.get(record.id, []), names, summary=False)
        message = await self._turn_message(record, language, state, public, lines)
        current = await self.service.store.get_message(record.id, "turn")
        if current is None or not await self._edit(current, message):
            await self.post(record, message)

    async def _new_turn(
        self, record: GameRecord, language: str, state: StateT, public: PublicT, *, lines: Sequence[str] = ()
    ) -> None:
        """Post the next turn's message with the picture and what happened (or `lines`, when catching up), then
        retire the last one's buttons (in this order, so a failed post leaves buttons to click)."""
        previous = await self.service.store.get_message(record.id, "turn")
        names = self.names(record)
        self._last_turn[record.id] = self._events.pop(record.id, [])
        told = list(lines) or self._narrate(language, self._last_turn[record.id], names, summary=True)
        message = await self._turn_message(record, language, state, public, told)
        message.ping = True
        await self.post(record, message)
        if previous is not None:
            await self.retire(previous)

    async def _finish(self, record: GameRecord, language: str, state: StateT, public: PublicT) -> None:
        """The end: post the game's score sheet, retire the last turn message, and forget the game."""
        result = self.engine.result(state)
        assert result is not None
        lines = self._narrate(language, self._events.pop(record.id, []), self.names(record), summary=True)
        message = await self._final(language, record, public, lines, result)
        await self.post(record, message, kind="final")
        await self._retire_turn(record)
        await self.service.mark_shown(record.id, record.version)
        for table in (self._locks, self._last_turn):
            table.pop(record.id, None)
        PICTURES.forget(lambda key: isinstance(key, tuple) and key[:1] == (record.id,))

    async def _retire_turn(self, record: GameRecord) -> None:
        """Take the buttons off the turn message."""
        current = await self.service.store.get_message(record.id, "turn")
        if current is not None:
            await self.retire(current)

    async def _turn_message(
        self, record: GameRecord, language: str, state: StateT, public: PublicT, lines: list[str]
    ) -> TurnMessage:
        """The turn message, with the buttons of the legal moves when a person is to play."""
        seat = public.current
        human = seat is not None and not record.bot_plays(seat)
        legal = [a.encode() for a in self.engine.legal_actions(state, seat)] if human and seat is not None else []
        return self._turn(language, record, public, legal, lines, await self._draw(language, record, public))

    # ---- helpers --------------------------------------------------------------------------------------------

    def _public(self, game_id: int) -> PublicT:
        """The public view of a running game."""
        return cast(PublicT, self.service.view(game_id, None))

    def _seat_view(self, game_id: int, seat: int) -> SeatT:
        """A running game as one seat sees it."""
        return cast(SeatT, self.service.view(game_id, seat))
