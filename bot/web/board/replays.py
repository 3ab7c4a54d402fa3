"""Finished games' replays for their pages (`replay.json`): every move's public view from the log, built off the event
loop once per game and kept for the next reader (a finished game never changes)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.storage.games import GameRecord
from bot.ui.parts import Bot
from bot.web.board.page_data import as_json, replay_data
from rules.history import tell_moves

KEPT = 8
"""Replays kept built, the most recently read."""


class Replays:
    """The replays built lately, by game id."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._built: OrderedDict[int, bytes] = OrderedDict()

    async def of(self, record: GameRecord) -> bytes:
        """A finished game's replay data."""
        found = self._built.get(record.id)
        if found is None:
            info = self.bot.games[record.game]
            engine = info.engine
            moves = await self.bot.records.actions(record.id)
            language = await self.bot.public_language(record.guild_id)

            def build() -> bytes:
                start = engine.new_game(engine.load_options(record.options), len(record.seats), record.seed)
                return as_json(replay_data(info, record, tell_moves(engine, start, moves, keep_views=True), language))

            found = await asyncio.to_thread(build)
            self._built[record.id] = found
            while len(self._built) > KEPT:
                self._built.popitem(last=False)
        self._built.move_to_end(record.id)
        return found
