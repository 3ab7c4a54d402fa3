"""Presenting the dice game: a message per turn, edited while a person plays it and told whole once it is over (a
bot player's turn is posted once it is over); the table at the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.drawing import build_once
from bot.exts.dice._presenter import GAME, action_buttons, final_message, finished_turn_message, turn_message
from bot.exts.dice._story import by_turn, showing_now, story, winners
from bot.i18n import language_of, render, text
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.answers import Reply, answer
from bot.ui.components import view_of
from bot.ui.controller import GameController
from rules.dice import DiceView
from rules.engine import Event, Message


@dataclass
class TurnSoFar:
    """What a turn's message tells: a preface (the roll-off before the first turn, or why the channel is shown the
    game as it stands), then the turn's public events so far."""

    preface: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


class DiceController(GameController):
    """The dice game's turn messages; all moves arrive through the base class's `act`."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self._turns: dict[int, TurnSoFar] = {}
        """Game id → what the message of the turn in play tells."""

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the first turn message, with the roll-off and the first roll the engine already made, unless a
        catch-up already did."""
        try:
            async with self.showing(record) as needed:
                if needed:
                    await self._show_as_it_stands(record, interaction, opening=True)
                else:
                    await self.acknowledge_turn(interaction)
        except Exception as error:
            await self.publish_failed(record, interaction, error)
        self.bot.bot_players.wake_bots(record.id)

    async def catch_up(self, record: GameRecord) -> None:
        """Show the turn in play (or the final table) as it stands; the moves in between are not retold, and a game
        nobody has moved in yet is shown as Start shows it."""
        async with self.showing(record) as needed:
            if needed:  # else shown meanwhile: by Start, or by the move that was being published
                await self._show_as_it_stands(record, None, opening=self.bot.shown.unplayed(record.id))

    async def _show_as_it_stands(
        self, record: GameRecord, interaction: discord.Interaction[Any] | None, *, opening: bool
    ) -> None:
        language = await self.public_language(record)
        engine = self.service.engine(GAME)
        state = engine.load_state(record.state) if record.status == "finished" and record.state else None
        view: DiceView = engine.view(state, None) if state is not None else self._view(record)  # type: ignore[assignment]
        if state is not None:
            result = engine.result(state)
            message = await build_once(final_message, language, record, view, [], result)
            await self.show_turn(record, message, interaction, kind="final")
            self.forget(record.id)
            return
        preface = [
            self._opening_line(language, record, view)
            if opening
            else text(language, self.bot.shown.catch_up_reason(record.id))
        ]
        turn = self._turns[record.id] = TurnSoFar(preface, showing_now(view))
        if opening and view.turn is not None and record.bot_plays(view.turn.seat):  # posted once the bot's turn is over
            if interaction is not None:
                await self.acknowledge_turn(interaction)
            self.bot.shown.mark_shown(record.id, record.version)
            return
        told = story(language, turn.events, self.names(record))
        message = await build_once(turn_message, language, record, view, told, turn.preface)
        message.ping = True
        await self.show_turn(record, message, interaction)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Edit the turn message after a move that keeps the turn; tell the turn whole once it is over and post the
        next person's; the table at the end.

        In version order: a move older than what the channel shows is skipped, and a channel that missed a move is
        shown the turn as it stands."""
        async with self.publishing(outcome):
            if interaction is not None:  # before waiting for the lock: the answer never waits on another move's post
                await self.acknowledge_turn(interaction)
            async with self.presenting_in_turn(outcome):
                shown = self.bot.shown.shown(outcome.record.id)
                if shown < outcome.record.version - 1:
                    await self._show_as_it_stands(outcome.record, interaction, opening=False)
                elif shown < outcome.record.version:
                    await self._present(outcome, interaction)
                elif interaction is not None and interaction.type is discord.InteractionType.application_command:
                    await answer(interaction, Reply(text(language_of(interaction.locale), "bot.answer.done")))

    async def _present(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """One message per turn: a person's rolls and adds edit theirs; the move that ends a turn tells that turn
        whole (a bot player's in a message of its own, posted now); the next person's turn gets a new message."""
        record = outcome.record
        language = await self.public_language(record)
        view: DiceView = self.service.engine(GAME).view(outcome.state, None)  # type: ignore[assignment]
        names = self.names(record)
        in_play, *begun = by_turn(outcome.events)
        turn = self._turns.setdefault(record.id, TurnSoFar())
        turn.events.extend(in_play)
        if begun or outcome.finished:
            await self._tell_finished(record, language, view, turn)
            turn = self._turns[record.id] = TurnSoFar(events=begun[0] if begun else [])
        if outcome.finished:
            result = self.service.engine(GAME).result(outcome.state)
            last = winners(language, outcome.events, names)
            message = await build_once(final_message, language, record, view, last, result)
            await self.show_turn(record, message, interaction, kind="final")
            self.forget(record.id)
            return
        assert view.turn is not None
        if record.bot_plays(view.turn.seat) and record.id not in self._live:  # told once the bot's turn is over
            if interaction is not None and interaction.type is discord.InteractionType.application_command:
                await answer(interaction, Reply(text(language_of(interaction.locale), "bot.answer.done")))
            self.bot.shown.mark_shown(record.id, record.version)
            return
        told = story(language, turn.events, names)
        message = await build_once(turn_message, language, record, view, told, turn.preface)
        message.ping = bool(begun)
        await self.show_turn(record, message, interaction, in_place=not begun)

    async def _tell_finished(self, record: GameRecord, language: str, view: DiceView, turn: TurnSoFar) -> None:
        """Tell the turn just over whole, with the train as it ended: in its own message (edited: a person's turn,
        its buttons gone) or in a new one (a bot player's turn, not shown until now)."""
        told = story(language, turn.events, self.names(record))
        message = await build_once(finished_turn_message, language, record, view, told, turn.preface)
        live = self._live.pop(record.id, None)
        if live is not None and await self._edit(record, live.where, message):
            self._retired[record.id] = live.where
        else:
            self._retired[record.id] = await self.post(record, message)

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a game that ended, what its turn message tells included."""
        super().forget(game_id)
        self._turns.pop(game_id, None)

    async def fresh_controls(
        self, interaction: discord.Interaction[Any], game_id: int, language: str
    ) -> discord.ui.View | None:
        """The current buttons, privately, for a player who clicked an old turn message on their turn."""
        record = await self.service.get(game_id)
        view = self._view(record)
        if view.turn is None or record.seat_of(interaction.user.id) != view.turn.seat:
            return None
        return view_of(action_buttons(language, record, view))

    def _view(self, record: GameRecord) -> DiceView:
        return self.service.view(record.id, None)  # type: ignore[return-value]

    def _opening_line(self, language: str, record: GameRecord, view: DiceView) -> str:
        """Who rolled what in the roll-off (R-D-2), round by round, and who starts."""
        names = self.names(record)
        rounds = [
            ", ".join(
                render(
                    language,
                    Message(key="dice.message.opening_roll", params={"seat": r.seat, "face": r.face.message}),
                    names,
                )
                for r in rolls
            )
            for rolls in view.opening
        ]
        first = render(language, Message(key="dice.message.first_player", params={"seat": view.first}), names)
        return "\n".join([*rounds, first])
