"""The card game's controller: the shared card-table presentation with its presenter (`_presenter.py`) plugged in,
and the 4-player first scoring in a message of its own.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._presenter import TURN_STARTED, CardGamePresenter, first_scoring_message
from bot.exts.cardgame._private import GAME
from bot.i18n import text
from bot.storage.games import GameRecord
from bot.ui.pictures import Picture
from bot.ui.table_controller import TableController
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.actions import CardGameAction
from rules.cardgame.view import CardGameView
from rules.engine import Event

FIRST_SCORING = "cardgame.event.first_scoring"


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
