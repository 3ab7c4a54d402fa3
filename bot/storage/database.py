"""The SQLite file: opening it in WAL mode, checking it is one this code can use, migrating it, and the one writer.

Every write of every store goes through `Database.transaction()`: one asyncio lock per connection and one
`BEGIN IMMEDIATE … COMMIT` (or `ROLLBACK`), so two writes never interleave on the shared connection.
`Database.of(connection)` returns the one writer of a connection, so stores built on the same connection share
it even when nobody passes it to them.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import weakref
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import ClassVar

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^V(\d{3})__(\w+)\.sql$")
_OTHER_FILE = "or point CONDUCTOR_DATABASE_PATH at another file"


class DatabaseUnusable(Exception):
    """The database file cannot be used; `str()` is one line a server operator can act on."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        self.problem = " ".join(problem.split())  # one line, whatever SQLite's own text held
        super().__init__(self.problem)


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


def latest_version() -> int:
    """Return the number of the newest bundled migration: the schema version this code writes."""
    return max((number for number, _, _ in migrations()), default=0)


class Database:
    """The one writer of a connection: a lock and an IMMEDIATE transaction around every write.

    Reads go straight to `connection`; writes go through `transaction()`. Build it once per connection
    (`Database.of(connection)` does, and every store defaults to it) and hand the same one to every store.
    """

    _shared: ClassVar[weakref.WeakKeyDictionary[aiosqlite.Connection, Database]] = weakref.WeakKeyDictionary()

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None

    @classmethod
    def of(cls, connection: aiosqlite.Connection) -> Database:
        """Return the writer of this connection, creating it on first use (one per connection)."""
        found = cls._shared.get(connection)
        if found is None:
            found = cls._shared[connection] = cls(connection)
        return found

    def transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """Run the body as one IMMEDIATE transaction, committed on exit and rolled back on any exception.

        One writer at a time: a second task waits for the first to commit. A nested call from the task already
        inside a transaction raises RuntimeError at once rather than waiting for itself forever.
        """
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            raise RuntimeError("a storage transaction was opened inside another one on the same connection")
        async with self._lock:
            self._owner = task
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
                try:
                    yield self.connection
                except BaseException:
                    await self._rollback()
                    raise
                try:
                    await self.connection.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._owner = None

    async def _rollback(self) -> None:
        """Roll back what is still open; a failure here must not hide the error that caused it."""
        if self.connection.in_transaction:
            try:
                await self.connection.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed")


def writer_for(connection: aiosqlite.Connection, database: Database | None) -> Database:
    """Return `database`, or the connection's shared writer when None; refuse one built on another connection."""
    if database is None:
        return Database.of(connection)
    if database.connection is not connection:
        raise ValueError("the writer given belongs to another connection")
    return database


async def open_database(path: Path | str, *, busy_timeout_ms: int = 5000) -> aiosqlite.Connection:
    """Open (creating if needed) the database, check it, switch on WAL and foreign keys, and migrate it.

    Raises DatabaseUnusable (one line: the file and what to do) when the file is not a SQLite database or is
    damaged, is locked by another process for longer than `busy_timeout_ms`, cannot be created or written, or
    was written by a newer Conductor; a newer file is refused before anything in it is changed.
    """
    in_memory = str(path) == ":memory:" or str(path).startswith("file::memory:")
    if not in_memory:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = f"{error.strerror}: {error.filename}" if error.strerror and error.filename else str(error)
            raise _cannot_write(path, reason) from error
        if Path(path).is_dir():
            raise _cannot_write(path, "it is a folder, not a file")
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        unusable = _unusable(path, error, busy_timeout_ms)
        if unusable is None:
            raise
        raise unusable from error
    try:
        db.row_factory = aiosqlite.Row
        await db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        await db.execute("PRAGMA foreign_keys=ON")
        await _check_readable(db, path)
        await _check_not_newer(db, path)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await migrate(db)
        await _check_writable(db)
    except BaseException as error:
        await db.close()
        if isinstance(error, sqlite3.Error):
            unusable = _unusable(path, error, busy_timeout_ms)
            if unusable is not None:
                raise unusable from error
        raise
    return db


async def migrate(db: aiosqlite.Connection, *, up_to: int | None = None) -> list[int]:
    """Apply every migration not applied yet (up to `up_to`, if given), each in its own transaction.

    Each migration also sets `PRAGMA user_version` to its number. Return the numbers applied. A database that
    already holds a migration newer than this code knows is refused with DatabaseUnusable, untouched.
    """
    await _check_not_newer(db, await _file_of(db))
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with db.execute("SELECT version FROM schema_migrations") as cursor:
        done = {row[0] async for row in cursor}
    applied = []
    for number, name, sql in migrations():
        if number in done or (up_to is not None and number > up_to):
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (number, name, now_iso()),
            )
            await db.execute(f"PRAGMA user_version = {number}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
        log.info("applied migration V%03d %s", number, name)
        applied.append(number)
        done.add(number)
    newest = max(done, default=0)
    if await _user_version(db) != newest:  # a file migrated before user_version was kept
        await db.execute(f"PRAGMA user_version = {newest}")
    return applied


async def schema_version(db: aiosqlite.Connection) -> int:
    """Return the schema version of a database: the higher of its newest applied migration and user_version."""
    return max(await _newest_migration(db), await _user_version(db))


async def _check_readable(db: aiosqlite.Connection, path: Path | str) -> None:
    """Refuse a file SQLite cannot read, or whose quick check finds damage, or that belongs to another program."""
    async with db.execute("PRAGMA quick_check") as cursor:
        found = [str(row[0]) async for row in cursor]
    if found != ["ok"]:
        raise _damaged(path, "; ".join(found)[:300])
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") as c:
        tables = {row[0] async for row in c}
    if tables and "schema_migrations" not in tables:
        raise DatabaseUnusable(
            path,
            f"{path} is a SQLite database of another program (it has tables but no schema_migrations):"
            f" move it away, {_OTHER_FILE}",
        )


async def _check_not_newer(db: aiosqlite.Connection, path: Path | str) -> None:
    """Refuse a database written by a newer Conductor, before anything in it changes."""
    found, known = await schema_version(db), latest_version()
    if found > known:
        raise DatabaseUnusable(
            path,
            f"the database {path} has schema version {found}, newer than version {known} that this Conductor"
            f" knows: upgrade Conductor {_OTHER_FILE}",
        )


async def _check_writable(db: aiosqlite.Connection) -> None:
    """Take and release the write lock once, so a file locked or read-only is refused now, not at the first move."""
    await db.execute("BEGIN IMMEDIATE")
    await db.execute("COMMIT")


async def _newest_migration(db: aiosqlite.Connection) -> int:
    async with db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") as c:
        exists = await c.fetchone() is not None
    if not exists:
        return 0
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


async def _user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


async def _file_of(db: aiosqlite.Connection) -> str:
    """The file of the main database, for messages ('' for one in memory)."""
    async with db.execute("PRAGMA database_list") as cursor:
        async for row in cursor:
            if row[1] == "main":
                return str(row[2]) or ":memory:"
    return "?"


def _unusable(path: Path | str, error: sqlite3.Error, busy_timeout_ms: int) -> DatabaseUnusable | None:
    """Turn an SQLite error met while opening into the operator's one line, or None for a programming error."""
    code = getattr(error, "sqlite_errorname", "") or ""
    if code.startswith("SQLITE_NOTADB"):
        return DatabaseUnusable(
            path,
            f"{path} is not a SQLite database (SQLite says: {error}): move it away or restore it from a backup,"
            f" {_OTHER_FILE}",
        )
    if code.startswith("SQLITE_CORRUPT"):
        return _damaged(path, str(error))
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return DatabaseUnusable(
            path,
            f"the database {path} is locked by another process (still busy after {busy_timeout_ms} ms): stop the"
            f" other Conductor or program using it, {_OTHER_FILE}",
        )
    if code.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")):
        return _cannot_write(path, str(error))
    if code.startswith("SQLITE_FULL"):
        return DatabaseUnusable(path, f"the disk holding the database {path} is full: free some space, {_OTHER_FILE}")
    if code.startswith("SQLITE_IOERR"):
        return DatabaseUnusable(
            path, f"reading or writing the database {path} failed ({error}): check the disk, {_OTHER_FILE}"
        )
    return None


def _damaged(path: Path | str, detail: str) -> DatabaseUnusable:
    return DatabaseUnusable(
        path,
        f"the database {path} is damaged (SQLite check: {detail}): restore it from a backup, {_OTHER_FILE}",
    )


def _cannot_write(path: Path | str, reason: str) -> DatabaseUnusable:
    return DatabaseUnusable(
        path,
        f"cannot create or write the database {path} ({reason}): give the bot's user write access to the file and"
        f" its folder, {_OTHER_FILE}",
    )


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
