"""The score-over-time chart, added to a finished game's final message once that message is out.

Nothing here slows a move: the game's last move stores only a note that its chart is due (a `chart` row of
`game_messages` with message id 0, in the move's own transaction); once the final message is shown, the chart is
drawn from the game's stored log and added to the message by the ui's poster (bot/ui/charts.py). The note then
names the message. A chart still due when the bot starts (it stopped in between) is added after the channels caught
up. A chart that could not be added is dropped, never retried.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.services.games import GameListener, GameService, MoveWrite, Outcome
from bot.services.shown import ShownGames
from bot.storage.games import GameRecord

log = logging.getLogger(__name__)

KIND = "chart"
"""The `game_messages` kind noting a game's chart: message id 0 while it is due, else the message it was added to."""
DUE = 0
CLOSE_WAIT = 10.0
"""Seconds a stopping bot gives the charts being added."""


class FinalCharts(GameListener):
    """Adds the chart to each finished game's final message, after the final message is out."""

    def __init__(
        self,
        service: GameService,
        shown: ShownGames,
        post: Callable[[GameRecord, list[tuple[int, str]], tuple[int, int]], Awaitable[None]],
    ) -> None:
        self.service = service
        self.shown = shown
        self._post = post
        """Draws the chart of a game (its record and stored log) and adds it to its final message (channel, message)."""
        self._adding: set[asyncio.Task[None]] = set()
        self._closing = False
        self.resumed = asyncio.Event()
        """Set once the charts due at start are being added (for tests and tools to wait on)."""

    async def with_move(self, outcome: Outcome) -> MoveWrite | None:
        """With a game's last move, note that its chart is due (so a restart before it is added still adds it)."""
        record = outcome.record
        if not outcome.finished:
            return None
        return MoveWrite([self.service.store.message_statement(record.id, KIND, record.channel_id, DUE)])

    async def on_moved(self, outcome: Outcome) -> None:
        """Once a game's end is shown, add its chart in the background (the mover's answer never waits for it)."""
        if outcome.finished:
            self._start(outcome.record.id)

    async def resume(self) -> None:
        """Add the charts still due (the bot stopped before adding them), of the games this process drives."""
        for game_id in await self.service.store.games_with_message(KIND, DUE):
            self._start(game_id)
        self.resumed.set()

    async def close(self) -> None:
        """Let the charts being added finish, and start no more (the bot stops; those cut short stay due)."""
        self._closing = True
        await self.settled()
        for task in self._adding:
            task.cancel()
        await asyncio.gather(*self._adding, return_exceptions=True)

    async def settled(self) -> None:
        """Wait for the charts being added (up to `CLOSE_WAIT` seconds)."""
        if self._adding:
            await asyncio.wait(set(self._adding), timeout=CLOSE_WAIT)

    def _start(self, game_id: int) -> None:
        if self._closing:
            return  # still due: added at the next start
        task = asyncio.create_task(self.add(game_id), name=f"chart-{game_id}")
        self._adding.add(task)
        task.add_done_callback(self._adding.discard)

    async def add(self, game_id: int) -> None:
        """Draw a finished game's chart and add it to its final message; any failure is logged and the chart
        dropped (it is noted as done either way, so nothing retries it forever)."""
        record = await self.service.store.get(game_id)
        final = await self.shown.message(game_id, "final")
        if record is None or record.status != "finished" or final is None:
            log.info("game %s has no final message to add a chart to", game_id)
            return  # still due: its final message may come with the channel's catch-up at the next start
        if not self.service.drives(record):
            return
        try:
            await self._post(record, await self.service.store.actions(record.id), final)
        except Exception:
            log.exception("drawing or adding the chart of game %s failed", game_id)
        await self.service.store.database.write(
            [self.service.store.message_statement(game_id, KIND, final[0], final[1])]
        )
