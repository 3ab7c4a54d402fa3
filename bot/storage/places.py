"""Where games are played: the thread of a game, and finding a person's or a channel's games elsewhere."""

from __future__ import annotations

import aiosqlite

from bot.storage.database import Database, writer_for
from bot.storage.games import ACTIVE_STATUSES, GameStore


class PlaceStore:
    """The game_threads table, and lookups of open games by player or by a thread's parent channel."""

    def __init__(self, db: aiosqlite.Connection, games: GameStore, database: Database | None = None) -> None:
        self._db = db
        self._games = games
        self.database = writer_for(db, games.database if database is None else database)

    async def set_thread(self, game_id: int, thread_id: int, parent_id: int) -> None:
        """Remember that a game is played in a thread opened from `parent_id`."""
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO game_threads (game_id, thread_id, parent_id) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET thread_id = excluded.thread_id, parent_id = excluded.parent_id",
                (game_id, thread_id, parent_id),
            )

    async def thread_of(self, game_id: int) -> int | None:
        """Return the id of the thread a game is played in, or None when it is played in a channel."""
        async with self._db.execute("SELECT thread_id FROM game_threads WHERE game_id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row["thread_id"])

    async def open_games_of(self, user_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games (lobby or running) this person sits in, newest first."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        async with self._db.execute(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND g.status IN ({marks}) AND (? IS NULL OR g.game = ?) ORDER BY g.id DESC",
            (user_id, *ACTIVE_STATUSES, game, game),
        ) as cursor:
            return [row["id"] async for row in cursor]

    async def open_games_in_threads_of(self, parent_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games played in threads opened from this channel, newest first."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        async with self._db.execute(
            "SELECT g.id FROM games g JOIN game_threads t ON t.game_id = g.id"
            f" WHERE t.parent_id = ? AND g.status IN ({marks}) AND (? IS NULL OR g.game = ?) ORDER BY g.id DESC",
            (parent_id, *ACTIVE_STATUSES, game, game),
        ) as cursor:
            return [row["id"] async for row in cursor]
