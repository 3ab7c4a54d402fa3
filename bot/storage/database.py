"""The SQLite file: opening it in WAL mode and applying the numbered migrations in order."""

from __future__ import annotations

import logging
import re
import sqlite3
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^V(\d{3})__(\w+)\.sql$")


def now_iso() -> str:
    """Return the current UTC time as ISO text, the one timestamp format of the database."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def migrations() -> list[tuple[int, str, str]]:
    """Return (number, name, sql) of every bundled migration, in order."""
    found = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    return sorted(found)


async def open_database(path: Path | str) -> aiosqlite.Connection:
    """Open (creating if needed) the database, switch on WAL and foreign keys, and migrate it."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA foreign_keys=ON")
    await db.execute("PRAGMA synchronous=NORMAL")
    await db.execute("PRAGMA busy_timeout=5000")
    await migrate(db)
    return db


async def migrate(db: aiosqlite.Connection) -> list[int]:
    """Apply every migration not applied yet, each in its own transaction; return the numbers applied."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with db.execute("SELECT version FROM schema_migrations") as cursor:
        done = {row[0] async for row in cursor}
    applied = []
    for number, name, sql in migrations():
        if number in done:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (number, name, now_iso()),
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        log.info("applied migration V%03d %s", number, name)
        applied.append(number)
    return applied


def _statements(sql: str) -> list[str]:
    """Split a migration into whole statements, as SQLite itself judges them complete."""
    statements, pending = [], ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not all(part.strip().startswith("--") or not part.strip() for part in pending.splitlines()):
        raise ValueError(f"incomplete statement at the end of a migration: {pending.strip()[:80]}")
    return statements
