"""Presenting the dice game: each accepted move becomes an edited or a new turn message."""

from __future__ import annotations

from typing import Any

import discord

from bot.drawing import build_once
from bot.exts.dice._presenter import GAME, action_buttons, final_message, narration, turn_message
from bot.i18n import language_of, render, text
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.answers import Reply, acknowledge, answer
from bot.ui.components import view_of
from bot.ui.controller import GameController
from rules.dice import DiceView
from rules.engine import Message

# Moves after which the same turn goes on with the same dice showing: the turn message is edited, not reposted.
_SAME_ROLL_EVENTS = frozenset({"dice.event.added", "dice.event.train_full"})


class DiceController(GameController):
    """The dice game's turn messages; all moves arrive through the base class's `act`."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self._told: dict[int, list[str]] = {}
        """Game id → what the turn message tells: the turn so far, after what happened since the last one."""

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
        lines = [
            self._opening_line(language, record, view)
            if opening
            else text(language, self.bot.shown.catch_up_reason(record.id))
        ]
        self._told[record.id] = lines
        if opening and view.turn is not None and record.bot_plays(view.turn.seat):  # told with the first person's turn
            if interaction is not None:
                await self.acknowledge_turn(interaction)
            self.bot.shown.mark_shown(record.id, record.version)
            return
        message = await build_once(turn_message, language, record, view, lines)
        message.ping = True
        await self.show_turn(record, message, interaction)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Edit the turn message after an add; post a new one after a roll or a new turn; the table at the end.

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
        """A person's rolls and adds edit their turn message, and the move that ends their turn is told there; bot
        players' turns are told in the next person's message (one message per person's turn); the table at the end."""
        record = outcome.record
        language = await self.public_language(record)
        view: DiceView = self.service.engine(GAME).view(outcome.state, None)  # type: ignore[assignment]
        lines = narration(language, outcome.events, self.names(record))
        passed = outcome.finished or (view.turn is not None and view.turn.seat != outcome.seat)
        if passed and record.id in self._live:
            await self.retire_turn(record.id, story=[*self._told.get(record.id, []), *lines])
            told: list[str] = []
        else:
            told = [*self._told.get(record.id, []), *lines]
        self._told[record.id] = told
        if outcome.finished:
            result = self.service.engine(GAME).result(outcome.state)
            message = await build_once(final_message, language, record, view, told, result)
            await self.show_turn(record, message, interaction, kind="final")
            self.forget(record.id)
            return
        assert view.turn is not None
        if record.bot_plays(view.turn.seat):
            if interaction is not None and interaction.type is discord.InteractionType.application_command:
                await answer(interaction, Reply("\n".join(lines)))
            elif interaction is not None:
                await acknowledge(interaction)
            self.bot.shown.mark_shown(record.id, record.version)
            return
        message = await build_once(turn_message, language, record, view, told)
        message.ping = passed
        await self.show_turn(record, message, interaction, in_place=not passed)

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a game that ended, what its turn message tells included."""
        super().forget(game_id)
        self._told.pop(game_id, None)

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
