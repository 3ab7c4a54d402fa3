"""The card game's controller: the shared card-table presentation with its presenter (`_presenter.py`) plugged in,
the 4-player first scoring in a message of its own, and no private answer that only repeats the public line.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import TURN_STARTED, CardGamePresenter, first_scoring_message
from bot.exts.cardgame._private import GAME
from bot.i18n import text
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.answers import acknowledge, is_private
from bot.ui.pictures import Picture
from bot.ui.table_controller import TableController
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.actions import CardGameAction
from rules.cardgame.view import CardGameView
from rules.engine import Event

FIRST_SCORING = "cardgame.event.first_scoring"

log = logging.getLogger(__name__)


class CardGameController(TableController[CardGameState, CardGameView, CardGameView, CardGameAction]):
    """The card game's messages; moves arrive through the base class's `act` (buttons, selects, commands)."""

    game = GAME

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, CardGameEngine(), CardGamePresenter())

    async def show_table(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Show the table as it is now, privately."""
        await self.show_picture(interaction, game_id)

    def public_view(self, game_id: int) -> CardGameView:
        """The public view of a running game already loaded."""
        return self._public(game_id)

    async def _answer_actor(self, outcome: Outcome, interaction: discord.Interaction[Any]) -> None:
        """A move picked in the player's private hand (a play) whose only news is what the turn message tells
        everyone takes the hand away, rather than leaving its stale menus or repeating that line privately; any
        other answer is the shared one (a card drawn blind, tickets kept, the next choice, a command's answer)."""
        clicked_privately = interaction.type is discord.InteractionType.component and is_private(interaction.message)
        mine = cast(CardGameView, self.engine.view(cast(CardGameState, outcome.state), outcome.seat))
        if not clicked_privately or any(e.to == outcome.seat for e in outcome.events) or self.table.needs_choice(mine):
            await super()._answer_actor(outcome, interaction)
            return
        await acknowledge(interaction)
        try:
            await interaction.delete_original_response()
        except discord.NotFound:
            log.info("the private hand of game %s was gone before the move took it away", outcome.record.id)

    async def _between_turns(
        self, record: GameRecord, language: str, public: CardGameView, events: list[Event]
    ) -> None:
        """Turn 1 ends the opening; a first scoring gets its own message."""
        if any(e.key == TURN_STARTED and e.params.get("turn") == 1 for e in events):
            await self._edit_opening(record, language, public)  # the last opening choice: play begins
        if any(e.key == FIRST_SCORING for e in events):
            await self._first_scoring(record, language, public)

    async def _first_scoring(self, record: GameRecord, language: str, public: CardGameView) -> None:
        """4 players, first deck out: retire the turn message, then post the scoring with its picture."""
        await self.retire_turn(record.id)
        events = self._events.get(record.id, [])
        names = self.names(record)
        scored = self.table.narrate(language, [e for e in events if e.key == FIRST_SCORING], names, summary=True)
        self._events[record.id] = [e for e in events if e.key != FIRST_SCORING]  # told here, not again
        summary = await _pictures.first_scoring(language, record, public)
        detail = await _pictures.scoring_detail(language, record, public, "first")
        pictures = [
            Picture(_pictures.FIRST_SCORING, summary, text(language, "cardgame_turn.alt.first_scoring")),
            Picture(_pictures.DETAIL, detail, text(language, "cardgame_turn.alt.detail")),
        ]
        message = first_scoring_message(language, record, scored, pictures)
        await self.post(record, message, kind="first_scoring")
