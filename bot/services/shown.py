"""What the channels show of each game (the version, the message ids), written behind.

What is shown is written with the game's next move (`take_unwritten`), or within `FLUSH_DELAY` by itself, so a crash
can lose the last moment of it; the channel then shows those moves once more when the bot is back, and never misses
one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.services.games import GameService
from bot.storage.database import Statement

log = logging.getLogger(__name__)

FLUSH_DELAY = 0.5
"""Seconds within which what the channels were seen to show is written, when no move of the game writes it first."""


class ShownGames:
    """What the channels show of the loaded games: asked before drawing, told after, and written behind."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.flush_delay = FLUSH_DELAY
        self._flushing: asyncio.Task[None] | None = None
        self._closing = False
        self._watchers: list[Callable[[int, int], None]] = []

    def shown(self, game_id: int) -> int:
        """The newest version of a game its channel shows (0 when nothing was shown yet)."""
        return self.games.shown_versions.get(game_id, 0)

    def behind(self, game_id: int) -> bool:
        """Whether a running game loaded here has a stored move its channel does not show yet."""
        table = self.games.live.get(game_id)
        return table is not None and table.record.status == "active" and self.shown(game_id) < table.record.version

    def behind_in(self, channel_id: int) -> list[int]:
        """The running games of a channel (or thread) with a stored move the channel does not show yet."""
        return [
            game_id
            for game_id, t in self.games.live.items()
            if t.record.channel_id == channel_id and self.behind(game_id)
        ]

    def unplayed(self, game_id: int) -> bool:
        """Whether a running game is as it was dealt, nobody having moved yet: a channel catching up on it missed
        only its start, and is shown it as Start shows it."""
        table = self.games.live.get(game_id)
        return table is not None and table.record.status == "active" and table.actions == 0

    def catch_up_reason(self, game_id: int) -> str:
        """The message key a channel catching up on this game says why with: a move taken back, or missed moves."""
        if game_id in self.games.taken_back:
            self.games.taken_back.discard(game_id)
            return "bot.catch_up.taken_back"
        return "bot.catch_up.shown"

    def mark_shown(self, game_id: int, version: int) -> None:
        """Record that the channel now shows this version of the game (never lowers it; written behind), and tell
        the watchers."""
        if version <= self.shown(game_id):
            return
        self._write_behind(game_id, ("shown", ""), self.games.store.shown_statement(game_id, version))
        if game_id in self.games.live:
            self.games.shown_versions[game_id] = version
        else:  # the game is over and its end is shown: nothing left to track
            self.games.shown_versions.pop(game_id, None)
        for watcher in list(self._watchers):
            watcher(game_id, version)

    def watch(self, watcher: Callable[[int, int], None]) -> None:
        """Have `watcher(game_id, version)` called each time a channel comes to show a newer version of a game (the
        live board pages follow games so); it must return at once."""
        self._watchers.append(watcher)

    def unwatch(self, watcher: Callable[[int, int], None]) -> None:
        """Undo `watch`."""
        if watcher in self._watchers:
            self._watchers.remove(watcher)

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """(channel id, message id) of a game's message of a kind ('lobby', 'turn', …), or None."""
        known = self.games.messages.get(game_id, {}).get(kind)
        if known is not None:
            return known
        found = await self.games.store.get_message(game_id, kind)
        if found is not None and game_id in self.games.live:
            self.games.messages.setdefault(game_id, {}).setdefault(kind, found)
        return found

    def remember_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Keep which message is a game's message of a kind (written behind, like what is shown)."""
        self.games.messages.setdefault(game_id, {})[kind] = (channel_id, message_id)
        self._write_behind(
            game_id, ("message", kind), self.games.store.message_statement(game_id, kind, channel_id, message_id)
        )

    def _write_behind(self, game_id: int, key: tuple[str, str], statement: Statement) -> None:
        """Keep a statement for the game's next move, or for the flush within `flush_delay`."""
        self.games.unwritten.setdefault(game_id, {})[key] = statement
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush_soon(), name="write-shown")

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.flush_delay)
        while not await self.flush() and not self._closing:
            await asyncio.sleep(self.flush_delay * 10)  # the database refused: try again, not in a tight loop

    async def flush(self) -> bool:
        """Write everything the channels were seen to show and is not stored yet, in one transaction; whether it
        was written (on failure it is kept for the next try)."""
        unwritten, self.games.unwritten = self.games.unwritten, {}
        statements = [statement for kinds in unwritten.values() for statement in kinds.values()]
        if not statements:
            return True
        try:
            await self.games.store.database.write(statements)
        except Exception:
            log.exception("could not store what the channels of %d games show; trying again", len(unwritten))
            for game_id, kinds in unwritten.items():
                self.put_back(game_id, kinds)
            return False
        for game_id in unwritten:
            self.games.tidy(game_id)
        return True

    def take_unwritten(self, game_id: int) -> dict[tuple[str, str], Statement]:
        """What a game's channel was seen to show and is not stored yet, to be written with its move now."""
        return self.games.unwritten.pop(game_id, {})

    def put_back(self, game_id: int, unwritten: dict[tuple[str, str], Statement]) -> None:
        """Keep again what `take_unwritten` gave, when the move's write failed (newer ones kept meanwhile win)."""
        self.games.unwritten[game_id] = unwritten | self.games.unwritten.get(game_id, {})

    async def close(self) -> None:
        """Stop writing behind, then write what the channels show now."""
        self._closing = True
        if self._flushing is not None:
            self._flushing.cancel()
            await asyncio.gather(self._flushing, return_exceptions=True)
        await self.flush()
