"""Per-server settings, stored as one JSON document per server."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from bot.storage.database import Database, now_iso, writer_for


class GuildSettingsStore:
    """Read and write a server's settings document; an unknown server has the empty document.

    Writes go through `database`, the connection's one writer (`Database.of(db)` unless another is given).
    """

    def __init__(self, db: aiosqlite.Connection, database: Database | None = None) -> None:
        self._db = db
        self.database = writer_for(db, database)

    async def get(self, guild_id: int) -> dict[str, Any]:
        """Return the server's stored settings (empty when it never changed any)."""
        async with self._db.execute("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return {} if row is None else dict(json.loads(row["data"]))

    async def put(self, guild_id: int, data: dict[str, Any]) -> None:
        """Replace the server's settings document, in one transaction of the shared writer."""
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                (guild_id, json.dumps(data, sort_keys=True), now_iso()),
            )
