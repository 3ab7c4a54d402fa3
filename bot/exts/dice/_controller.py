"""Presenting the dice game: each accepted move becomes an edited or a new turn message."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.exts.dice._presenter import GAME, action_buttons, final_message, narration, turn_message
from bot.i18n import render
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.components import view_of
from bot.ui.controller import GameController
from rules.dice import DiceView
from rules.engine import Message

# Moves after which the same turn goes on with the same dice showing: the turn message is edited, not reposted.
_SAME_ROLL_EVENTS = frozenset({"dice.event.added", "dice.event.train_full"})


class DiceController(GameController):
    """The dice game's turn messages; all moves arrive through the base class's `act`."""

    game = GAME

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Post the first turn message, with the roll-off and the first roll the engine already made."""
        language = await self.public_language(record)
        view = self._view(record)
        lines = [self._opening_line(language, record, view)]
        message = await asyncio.to_thread(turn_message, language, record, view, lines)
        message.ping = True
        await self.show_turn(record, message, interaction)
        self.service.wake_bots(record.id)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Edit the turn message after an add; post a new one after a roll or a new turn; the table at the end."""
        record = outcome.record
        language = await self.public_language(record)
        names = self.names(record)
        view: DiceView = self.service.engine(GAME).view(outcome.state, None)  # type: ignore[assignment]
        lines = narration(language, outcome.events, names)
        if outcome.finished:
            result = self.service.engine(GAME).result(outcome.state)
            message = await asyncio.to_thread(final_message, language, record, view, lines, result)
            await self.show_turn(record, message, interaction)
            return
        same_roll = all(event.key in _SAME_ROLL_EVENTS for event in outcome.events)
        message = await asyncio.to_thread(turn_message, language, record, view, lines)
        message.ping = not same_roll and view.turn is not None and view.turn.seat != outcome.seat
        await self.show_turn(record, message, interaction, in_place=same_roll)

    async def publish_bot_move(self, outcome: Outcome) -> None:
        """Publish a bot player's move (no interaction to answer)."""
        await self.publish(outcome, None)

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
