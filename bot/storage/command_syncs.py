"""What was last synced to Discord as slash commands, per application and scope, so a start syncs only on change."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database, Statement, now_iso


@dataclass(frozen=True, slots=True)
class CommandSync:
    """The last sync of one scope: the hash of what it sent, and when (ISO text)."""

    hash: str
    synced_at: str


class CommandSyncStore:
    """The command_syncs table: one row per (application id, scope), the scope `global` or a server's id."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def last(self, application_id: int, scope: str) -> CommandSync | None:
        """Return the last sync of this application's commands to the scope, or None if there was none."""
        row = await self.database.fetchrow(
            "SELECT hash, synced_at FROM command_syncs WHERE application_id = ? AND scope = ?",
            (application_id, scope),
        )
        return None if row is None else CommandSync(str(row["hash"]), str(row["synced_at"]))

    async def record(self, application_id: int, scope: str, digest: str) -> None:
        """Remember that the commands hashing to `digest` were just synced to the scope."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO command_syncs (application_id, scope, hash, synced_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (application_id, scope) DO UPDATE SET hash = excluded.hash,"
                    " synced_at = excluded.synced_at",
                    (application_id, scope, digest, now_iso()),
                )
            ]
        )
