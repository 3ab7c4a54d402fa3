"""Where games are played: the thread of a game, and finding a person's or a channel's games elsewhere."""

from __future__ import annotations

from typing import Any

from bot.storage.database import Database, Statement
from bot.storage.games import ACTIVE_STATUSES

_OPEN = ",".join("?" * len(ACTIVE_STATUSES))


class PlaceStore:
    """The game_threads table, and lookups of open games by player or by a thread's parent channel."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def set_thread(self, game_id: int, thread_id: int, parent_id: int) -> None:
        """Remember that a game is played in a thread opened from `parent_id`."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO game_threads (game_id, thread_id, parent_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET thread_id = excluded.thread_id,"
                    " parent_id = excluded.parent_id",
                    (game_id, thread_id, parent_id),
                )
            ]
        )

    async def thread_of(self, game_id: int) -> int | None:
        """Return the id of the thread a game is played in, or None when it is played in a channel."""
        thread_id = await self.database.fetchval("SELECT thread_id FROM game_threads WHERE game_id = ?", (game_id,))
        return None if thread_id is None else int(thread_id)

    async def open_games_of(self, user_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games (lobby or running) this person sits in, newest first."""
        return await self._open_ids(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?", user_id, game
        )

    async def open_games_in_threads_of(self, parent_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games played in threads opened from this channel, newest first."""
        return await self._open_ids(
            "SELECT g.id FROM games g JOIN game_threads t ON t.game_id = g.id WHERE t.parent_id = ?", parent_id, game
        )

    async def _open_ids(self, select: str, key: int, game: str | None) -> list[int]:
        """Run `select` (one `?` for `key`) narrowed to open games, and to one kind of game if given."""
        params: list[Any] = [key, *ACTIVE_STATUSES]
        sql = f"{select} AND g.status IN ({_OPEN})"
        if game is not None:
            sql += " AND g.game = ?"
            params.append(game)
        rows = await self.database.fetch(f"{sql} ORDER BY g.id DESC", params)
        return [int(row["id"]) for row in rows]
