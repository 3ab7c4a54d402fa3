"""Per-server settings, stored as one JSON document per server."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.database import Database, Statement, now_iso


class GuildSettingsStore:
    """Read and write a server's settings document; an unknown server has the empty document."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, guild_id: int) -> dict[str, Any]:
        """Return the server's stored settings (empty when it never changed any)."""
        data = await self.database.fetchval("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {} if data is None else dict(json.loads(data))

    async def put(self, guild_id: int, data: dict[str, Any]) -> None:
        """Replace the server's settings document, in one write."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                    (guild_id, json.dumps(data, sort_keys=True), now_iso()),
                )
            ]
        )
