"""What the card-table games' controllers share: every accepted move is told privately to whoever made it, then
shown publicly.

The actor's answer comes first; anything that draws a picture is preceded by acknowledging the click, so Discord's
3-second deadline holds however slow drawing is. Public messages are presented one move at a time, in version
order (one lock per game): the opening message is edited as players choose; each person's turn has one message,
whose steps edit it in place and whose end adds what was done and takes its buttons off; bot players' turns are
told in the next person's message, and a picture is posted only when the table changed. A channel that missed a move
(a failed post, a restart) is shown the table as it stands instead. Each game plugs in its engine and its table
(bot/ui/table_presenter.py): what to say, draw and offer, and how its own controls' clicks read.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

import discord
from pydantic import BaseModel

from bot.drawing import forget_game
from bot.i18n import fit, language_of, render, text
from bot.services.errors import ServiceError
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.answers import PrivateReply, Reply, acknowledge, answer, is_private, withdraw
from bot.ui.components import view_of
from bot.ui.controller import GameController, TurnMessage, attached, board_link_view
from bot.ui.custom_ids import ACT, ComponentId, read_act
from bot.ui.pictures import Picture
from bot.ui.table_presenter import MoveT, Step, TablePresenter, Verb
from rules.engine import Action, Event, GameEngine, LegalView, Message

log = logging.getLogger(__name__)


class TableView(Protocol):
    """What the shared presentation reads from a game's public view."""

    @property
    def current(self) -> int | None:
        """The seat whose turn it is."""
        ...


@dataclass(frozen=True)
class Told:
    """A person's private answer to a move of a turn that goes on: the seat and the version of the move it tells
    last, the interaction whose answer it is, and its lines."""

    seat: int
    version: int
    interaction: discord.Interaction[Any]
    lines: list[str]


StateT = TypeVar("StateT", bound=BaseModel)
PublicT = TypeVar("PublicT", bound=TableView)
SeatT = TypeVar("SeatT", bound=LegalView)


class TableController(GameController, Generic[StateT, PublicT, SeatT, MoveT]):
    """A card-table game's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    def __init__(
        self, bot: Any, engine: GameEngine[StateT, MoveT, Any], table: TablePresenter[PublicT, SeatT, MoveT]
    ) -> None:
        super().__init__(bot)
        self.engine = engine
        self.table = table
        self._events: dict[int, list[Event]] = {}
        """Game id → public events not yet told: the steps of the turn in play, or bot players' turns."""
        self._board_shown: dict[int, int] = {}
        """Game id → the hash of what the last picture posted showed (`board_key`): a new one is posted only when it
        changes (a hash, not the key: a 64-bit collision is far less likely than a lost post)."""
        self._told: dict[int, Told] = {}
        """Game id → the private answer of a person's move whose turn goes on (their next move is told in it)."""
        self._opening_pictures: dict[int, Picture] = {}
        """Game id → the picture the opening message was posted with, by name only (it is not sent again as the
        message is edited)."""

    # ---- what each game shows and does itself --------------------------------------------------------------

    async def _between_turns(self, record: GameRecord, language: str, public: PublicT, events: list[Event]) -> None:
        """What a game shows before a new turn whose start it announces."""
        raise NotImplementedError

    # ---- the game's life --------------------------------------------------------------------------------

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the opening message (who has chosen their tickets) unless a catch-up already did, and hand the host
        their choice at once."""
        try:
            async with self.showing(record) as needed:
                if needed:
                    await self._post_opening(record, self._public(record.id))
        except Exception as error:
            await self.publish_failed(record, interaction, error)
        seat = record.seat_of(interaction.user.id)
        if seat is not None:
            mine = await self._hand(language_of(interaction.locale), record, self._seat_view(record.id, seat))
            await answer(interaction, mine)
        self.bot.bot_players.wake_bots(record.id)

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
        async with self.showing(record) as needed:
            if not needed:
                return  # shown meanwhile: by Start, or by the move that was being published
            if record.status == "finished":
                assert record.state is not None
                state = self.engine.load_state(record.state)
            else:
                state = cast(StateT, self.service.state(record.id))
            await self._show_as_it_stands(record, state)

    # ---- components -------------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """A click, read once (`read`): a move, My hand, a step of a private menu, or a verb this game lacks."""
        asked = self.read(cid, values)
        if isinstance(asked, Step):
            await self._narrow(interaction, cid, asked)
        elif asked is Verb.HAND:
            await self.show_hand(interaction, cid.game_id)
        elif asked is Verb.UNKNOWN:
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))
        else:
            await self.act_clicked(interaction, cid, asked)

    def read(self, cid: ComponentId, values: list[str]) -> MoveT | Step | Verb | None:
        """What a click asks, from its custom id and picked values: the engine reads an `act` id's move, the game's
        presenter its own verbs (None: a garbled id or value)."""
        if cid.verb == ACT:
            return read_act(self.engine, cid, values)
        if cid.verb == Verb.HAND:
            return Verb.HAND
        return self.table.read(cid.verb, cid.arg, values)

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
        if self.table.drawing_turn(public, seat):
            legal = cast(list[MoveT], self._seat_view(game_id, seat).legal_moves)
            return view_of(self.table.turn_buttons(language, record, public, legal))
        return view_of([self.table.hand_button(language, record)])

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Answer privately with the player's hand and what they can do now (or their pending choice)."""
        found = await self._player(interaction, game_id)
        if found is None:
            return
        record, seat = found
        await acknowledge(interaction, private_answer=True)
        mine = await self._hand(language_of(interaction.locale), record, self._seat_view(game_id, seat))
        await answer(interaction, mine, replace=True)

    async def _hand(self, language: str, record: GameRecord, view: SeatT, lines: Sequence[str] = ()) -> PrivateReply:
        """A player's private hand in their language, its pictures naming cities as the game's board does."""
        return await self.table.hand(language, record, view, lines, places=await self.public_language(record))

    async def show_picture(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Show the game's public picture as it is now, privately, as its channel shows it (in the game's language,
        so its cities are named as in every other picture of the game), with the link to its live board page when the
        board pages are on; and bring a channel that fell behind up."""
        await acknowledge(interaction, private_answer=True)
        await self.ensure_shown(game_id)
        record = await self.service.get(game_id)
        language = await self.public_language(record)
        picture = await self.table.draw(language, record, self._public(game_id))
        link = board_link_view(self.bot, game_id, language_of(interaction.locale))
        await answer(interaction, Reply(pictures=[picture], controls=link))

    # ---- answering the actor ------------------------------------------------------------------------------

    async def _answer_actor(self, outcome: Outcome, interaction: discord.Interaction[Any]) -> None:
        """The actor's own answer, only where it says what the public messages do not: their next private choice,
        or what they alone may know (a card drawn blind, the tickets kept). The private menu a move was picked in is
        withdrawn, a command is answered "Done." (the public message it changed may be far up the channel), and a
        public button by the public update."""
        language = language_of(interaction.locale)
        names = self.names(outcome.record)
        private = [render(language, e, names) for e in outcome.events if e.to == outcome.seat]
        mine = cast(SeatT, self.engine.view(cast(StateT, outcome.state), outcome.seat))
        if self.table.needs_choice(mine):
            await acknowledge(interaction, private_answer=True)  # the choice comes with a picture
            await answer(interaction, await self._hand(language, outcome.record, mine, private), replace=True)
        elif private:
            await self._tell(outcome, interaction, private)
        elif is_private(interaction.message):
            await withdraw(interaction)
        elif interaction.type is discord.InteractionType.application_command:
            await answer(interaction, Reply(text(language, "bot.answer.done")))

    async def _tell(self, outcome: Outcome, interaction: discord.Interaction[Any], lines: list[str]) -> None:
        """Tell the actor privately what only they may know of their move: added to the private answer of their
        move just before when that was the same turn's (the second card of a draw: one message a turn), else in a
        new answer, kept for the turn's next move while the turn goes on."""
        game_id, version = outcome.record.id, outcome.record.version
        earlier = self._told.pop(game_id, None)
        clicked = interaction.type is discord.InteractionType.component and not is_private(interaction.message)
        told = None
        if clicked and earlier is not None and (earlier.seat, earlier.version) == (outcome.seat, version - 1):
            told = await self._added_to(earlier, lines, version)  # the click is acknowledged by the public update
        if told is None:
            await answer(interaction, Reply("\n".join(lines)), replace=True)
            told = Told(outcome.seat, version, interaction, lines)
        public = cast(PublicT, self.engine.view(cast(StateT, outcome.state), None))
        if self.table.turn_goes_on(public) and public.current == outcome.seat:
            self._told[outcome.record.id] = told

    @staticmethod
    async def _added_to(earlier: Told, lines: list[str], version: int) -> Told | None:
        """The turn's private answer with these lines added, or None when it cannot be edited any more (an
        interaction's token lasts 15 minutes)."""
        added = [*earlier.lines, *lines]
        try:
            await earlier.interaction.edit_original_response(content=fit("\n".join(added)))
        except discord.HTTPException as error:
            log.info("the private answer of interaction %s could not be added to: %s", earlier.interaction.id, error)
            return None
        return Told(earlier.seat, version, earlier.interaction, added)

    async def _narrow(self, interaction: discord.Interaction[Any], cid: ComponentId, step: Step) -> None:
        """A pick in a private narrowing menu: the next menu, or the move itself."""
        found = await self._player(interaction, cid.game_id)
        if found is None:
            return
        record, seat = found
        if cid.version != record.version:
            await self.refuse(interaction, Message(key="bot.reason.stale"), game_id=cid.game_id)
            return
        language = language_of(interaction.locale)
        result = self.table.narrowed(language, record, self._seat_view(cid.game_id, seat), step)
        if isinstance(result, Action):
            await self.act(interaction, cid.game_id, result, version=cid.version)
        elif result is None:
            await self.refuse(interaction, Message(key=self.table.not_possible), game_id=cid.game_id)
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
        shown = self.bot.shown.shown(record.id)
        if record.version <= shown:
            return
        state = cast(StateT, outcome.state)
        if shown < record.version - 1:
            await self._show_as_it_stands(record, state)
            return
        self._events.setdefault(record.id, []).extend(e for e in outcome.events if e.public)
        language = await self.public_language(record)
        public = cast(PublicT, self.engine.view(state, None))
        if outcome.finished:
            await self._finish(record, language, state, public)
            return
        if self.table.in_opening(public):
            await self._edit_opening(record, language, public)
        else:
            begins = self.table.turn_begins(outcome.events)
            if begins:
                await self._between_turns(record, language, public, outcome.events)
            if not begins and self.table.turn_goes_on(public) and public.current == outcome.seat:
                if not outcome.by_bot:  # a bot finishes its turn at once: show the turn when it is done
                    await self._same_turn(record, language, state, public)
            else:
                await self._turn_passes(record, language, state, public)
        self.bot.shown.mark_shown(record.id, record.version)

    async def _show_as_it_stands(self, record: GameRecord, state: StateT) -> None:
        """Present the current state afresh (the channel missed moves): the events in between are not retold."""
        language = await self.public_language(record)
        public = cast(PublicT, self.engine.view(state, None))
        self._events[record.id] = []
        self._board_shown.pop(record.id, None)
        if self.engine.is_over(state):
            await self._finish(record, language, state, public)
        elif self.table.in_opening(public):
            await self._post_opening(record, public)
        else:
            reason = text(language, self.bot.shown.catch_up_reason(record.id))
            await self._new_turn(record, language, state, public, [reason])
            self.bot.shown.mark_shown(record.id, record.version)

    async def _post_opening(self, record: GameRecord, public: PublicT) -> None:
        """Post the opening message with the picture (retiring an older one, if any) and remember it."""
        language = await self.public_language(record)
        picture = await self.table.draw(language, record, public)
        self._opening_pictures[record.id] = attached(picture)
        message = self.table.opening(language, record, public, picture)
        message.ping = True
        older = await self.bot.shown.message(record.id, "opening")
        if older is not None:
            await self.retire(older)
        await self.post(record, message, kind="opening")
        self.bot.shown.mark_shown(record.id, record.version)

    async def _edit_opening(self, record: GameRecord, language: str, public: PublicT) -> None:
        """Redraw who has chosen their tickets (the picture stays as posted); the buttons go once everyone has."""
        where = await self.bot.shown.message(record.id, "opening")
        if where is None:
            return
        picture = self._opening_pictures.get(record.id)
        if picture is None:  # not known since a restart: drawn again as it is now
            picture = await self.table.draw(language, record, public)
            self._opening_pictures[record.id] = attached(picture)
            edited = await self._edit(record, where, self.table.opening(language, record, public, picture))
        else:
            opening = self.table.opening(language, record, public, picture)
            edited = await self._edit(record, where, opening, same_pictures=True)
        if not edited:
            log.info("the opening message of game %s could not be edited; play goes on", record.id)
        if not self.table.in_opening(public):  # its last edit: play begins
            self._opening_pictures.pop(record.id, None)

    async def _same_turn(self, record: GameRecord, language: str, state: StateT, public: PublicT) -> None:
        """A step inside a person's turn (first card, tickets drawn, a tunnel's cards turned over, ...): edit its
        message in place, keeping the picture it was posted with unless what the picture shows changed (a tunnel
        being paid shows everyone the cards turned over)."""
        live = self._live.get(record.id)
        if live is None:  # not known since a restart
            await self._new_turn(record, language, state, public)
            return
        steps = self.table.narrate(language, self._events.get(record.id, []), self.names(record), summary=False)
        key = hash(self.table.board_key(public))
        same = self._board_shown.get(record.id) == key
        pictures = live.message.pictures if same else [await self.table.draw(language, record, public)]
        message = self._turn_message(record, language, state, public, [*live.told, *steps], pictures)
        if await self._edit(record, live.where, message, same_pictures=same):
            live.shows(message)
            self._board_shown[record.id] = key
        else:
            await self._new_turn(record, language, state, public)

    async def _turn_passes(self, record: GameRecord, language: str, state: StateT, public: PublicT) -> None:
        """A turn is over: its message (a person's) now says what was done and loses its buttons; a person's turn
        comes with a new message telling what happened since (bot players' turns fold into it)."""
        names = self.names(record)
        events = self._events.pop(record.id, [])
        live = self._live.get(record.id)
        if live is not None:
            summary = self.table.narrate(language, events, names, summary=True)
            await self.retire_turn(record.id, story=[*live.told, *summary])
            events = []
        if public.current is not None and record.bot_plays(public.current):
            self._events[record.id] = events  # told with the next person's turn
            return
        await self._new_turn(record, language, state, public, self.table.narrate(language, events, names, summary=True))

    async def _new_turn(
        self, record: GameRecord, language: str, state: StateT, public: PublicT, told: Sequence[str] = ()
    ) -> None:
        """Post the message of the turn in play, pinging whoever plays it, with the picture when the table changed
        since the last one posted; then retire an older turn message that still has buttons (in this order, so a
        failed post leaves buttons to click)."""
        key = hash(self.table.board_key(public))
        picture = None if self._board_shown.get(record.id) == key else await self.table.draw(language, record, public)
        message = self._turn_message(record, language, state, public, list(told), [picture] if picture else [])
        message.ping = True
        await self.post_turn(record, message, told)
        self._board_shown[record.id] = key
        self._events.pop(record.id, None)

    async def _finish(self, record: GameRecord, language: str, state: StateT, public: PublicT) -> None:
        """The end: post the game's score sheet, retire the last turn message, and forget the game. The last turn is
        told once: in its own message when a person played it (as every finished turn is), else in the final one."""
        result = self.engine.result(state)
        assert result is not None
        lines = self.table.narrate(language, self._events.pop(record.id, []), self.names(record), summary=True)
        live = self._live.get(record.id)
        story = None if live is None else [*live.told, *lines]
        message = await self.table.final(language, record, public, [] if live else lines, result)
        await self.post(record, message, kind="final")
        await self.retire_turn(record.id, story=story)
        self.bot.shown.mark_shown(record.id, record.version)
        self.forget(record.id)

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a game that ended: its messages, untold events and pictures."""
        super().forget(game_id)
        for table in (self._events, self._board_shown, self._told, self._opening_pictures):
            table.pop(game_id, None)
        forget_game(game_id)

    def _turn_message(
        self,
        record: GameRecord,
        language: str,
        state: StateT,
        public: PublicT,
        lines: list[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The turn message, with the buttons of the legal moves when a person is to play."""
        seat = public.current
        human = seat is not None and not record.bot_plays(seat)
        legal = self.engine.legal_actions(state, seat) if human and seat is not None else []
        return self.table.turn(language, record, public, legal, lines, pictures)

    # ---- helpers --------------------------------------------------------------------------------------------

    def _public(self, game_id: int) -> PublicT:
        """The public view of a running game."""
        return cast(PublicT, self.service.view(game_id, None))

    def _seat_view(self, game_id: int, seat: int) -> SeatT:
        """A running game as one seat sees it."""
        return cast(SeatT, self.service.view(game_id, seat))
