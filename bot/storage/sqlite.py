"""The SQLite backend: one file in WAL mode, reached through aiosqlite (one thread that owns the connection),
numbered migrations.

Every call runs in aiosqlite's thread, in the order asked, so the event loop never waits on the disk; `write()`
runs BEGIN IMMEDIATE, its statements and COMMIT as one function in one call into that thread. An asyncio lock keeps
`write()` and `transaction()` from interleaving on the connection; reads do not take it.

Another program holding the file's write lock (an open write transaction) delays writes: each waits for it at most
the busy timeout from when it was asked for, queued behind others or not, then fails with StoreBusy (nothing of it
written), so a locked file never stalls the bot for longer than that per write. A write waits in short tries, each
a call of its own, so the reads asked meanwhile (which the lock does not hold up) are answered between them.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import aiosqlite

from bot.shards import ShardSet
from bot.storage.database import (
    Database,
    DatabaseStats,
    DatabaseUnusable,
    Dialect,
    Row,
    RowsNotChanged,
    Statement,
    StoreBusy,
    StoreLock,
    Transaction,
    UniqueViolation,
    latest_version,
    migrations,
    now_iso,
    store_wait,
)

log = logging.getLogger(__name__)

_OTHER_FILE = "or point CONDUCTOR_DATABASE_PATH at another file"
_UNIQUE = "UNIQUE constraint failed: "
_BUSY_STEP_MS = 100
"""Once open, how long SQLite itself waits for a lock in one try of a write (`_while_busy`)."""
T = TypeVar("T")


class _Driver(aiosqlite.Connection):
    """aiosqlite's connection and thread, with what its public API lacks: running one function of ours in that
    thread, so that a whole write (BEGIN, its statements, COMMIT) is one hand-off, not one per statement."""

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._thread.daemon = True  # a database left open must not keep the process from exiting

    @property
    def sqlite(self) -> sqlite3.Connection:
        """The sqlite3 connection itself, to be used only by functions that `run` runs."""
        return self._conn

    async def run(self, function: Callable[[], T]) -> T:
        """Run `function` in the connection's thread, after whatever was queued there before."""
        result: T = await self._execute(function)
        return result


class SqliteDatabase(Database):
    """A SQLite file, its one connection and the one thread that uses it."""

    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, path: str, driver: _Driver, busy_timeout_ms: int) -> None:
        self.target = path
        self.stats = DatabaseStats()
        self._driver = driver
        self._connection = driver.sqlite
        self._lock = StoreLock()
        self._owner: asyncio.Task[Any] | None = None
        self._tracers: list[Callable[[str], None]] = []
        self._traced = False
        """Whether the connection's trace callback is set: `_call` brings it in line with `_tracers` first."""
        self._lease: int | None = None
        """A descriptor of the file holding this process's exclusive lock on it (`hold`)."""
        self._closed = False
        self._patience = busy_timeout_ms / 1000
        """Seconds a write may wait for another program's write lock, counted from when it was asked for."""

    @classmethod
    async def open(cls, path: Path | str, *, busy_timeout_ms: int = 5000, up_to: int | None = None) -> SqliteDatabase:
        """Open (creating if needed) the file, check it, switch on WAL and foreign keys, and migrate it.

        Raises DatabaseUnusable (one line: the file and what to do) when the file is not a SQLite database or is
        damaged, belongs to another program, is locked by another process for longer than `busy_timeout_ms`,
        cannot be created or written, or was written by a newer Conductor; a newer file is refused untouched.
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
        driver = _Driver(partial(_connect, str(path), busy_timeout_ms))
        try:
            await driver  # starts its thread and connects there
        except BaseException as error:  # aiosqlite has stopped its thread
            unusable = _unusable(path, error, busy_timeout_ms) if isinstance(error, sqlite3.Error) else None
            if unusable is None:
                raise
            raise unusable from error
        database = cls(str(path), driver, busy_timeout_ms)
        try:
            await database._call(database._prepare, up_to)
        except StoreBusy as error:
            await database.close()
            raise _locked(path, busy_timeout_ms) from error
        except BaseException as error:
            await database.close()
            unusable = _unusable(path, error, busy_timeout_ms) if isinstance(error, sqlite3.Error) else None
            if unusable is None:
                raise
            raise unusable from error
        return database

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return every row."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            return await self._call(self._fetch, sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            return await self._call(self._fetchrow, sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            return await self._call(self._fetchval, sql, params)

    async def write(self, statements: Sequence[Statement]) -> list[int]:
        """Run the statements as one IMMEDIATE transaction in one call into the database thread."""
        if not statements:
            return []
        self._refuse_nested()
        deadline = time.monotonic() + self._patience
        with self.metrics.store_call("write"):
            async with self._lock:
                self.stats.transactions += 1
                self.stats.statements += sum(len(s.params) if s.many else 1 for s in statements)
                return await self._while_busy(deadline, self._write, list(statements))

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """Open an IMMEDIATE transaction; each statement inside it is one call into the database thread."""
        return self._transaction()

    def trace(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Pass every statement SQLite runs to `callback` (sqlite3's trace callback, called in the database
        thread, before the call that ran it returns), from the next call into the database on; return the function
        that stops it."""
        self._tracers.append(callback)

        def stop() -> None:
            if callback in self._tracers:
                self._tracers.remove(callback)

        return stop

    async def check(self) -> None:
        """See that the file is still the one opened (one moved, deleted or replaced under a running bot would take
        every later write with it), then read a row through the database thread, queued behind every other call."""
        if self._lease is not None and not _same_file(self._lease, self.target):
            raise DatabaseUnusable(
                self.target,
                "its file was moved, deleted or replaced while the bot runs: what it writes now is lost when it stops",
            )
        try:
            await self._call(self._fetchval, "SELECT COUNT(*) FROM schema_migrations", ())
        except sqlite3.Error as error:
            raise DatabaseUnusable(self.target, f"a read failed: {error}") from error

    async def migrate(self, *, up_to: int | None = None) -> list[int]:
        """Apply every migration not applied yet (up to `up_to`, if given), each in its own transaction."""
        return await self._call(self._migrate, up_to)

    async def schema_version(self) -> int:
        """Return the higher of the newest applied migration and `PRAGMA user_version`."""
        return await self._call(self._schema_version)

    async def hold(self, shards: ShardSet) -> None:
        """Lock the file for this process (an flock, which SQLite's own locks do not touch, dropped by the kernel
        when the process dies): a SQLite store serves one process, so it must hold every shard."""
        if not shards.everything:
            raise DatabaseUnusable(
                self.target,
                f"this process holds only shards {sorted(shards.ids)} of {shards.count}, which needs a store several"
                " processes share: set CONDUCTOR_DATABASE_URL to a PostgreSQL database",
            )
        if self._lease is not None or self.target == ":memory:" or self.target.startswith("file::memory:"):
            return
        lease = lock_file(self.target)
        if lease is None:
            raise DatabaseUnusable(
                self.target,
                f"another Conductor process runs on the database {self.target}: stop it, {_OTHER_FILE}",
            )
        self._lease = lease

    async def close(self) -> None:
        """Close the connection in its thread (after whatever is queued there), then the thread; let the file go."""
        if self._closed:
            return
        self._closed = True
        if self._lease is not None:
            os.close(self._lease)  # closing the descriptor releases its flock
        await self._driver.close()

    # ---- the event loop's side -------------------------------------------------------------------------------

    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        """Run `function(*args)` in the database thread (whoever waits on it told if it is slow); a unique index
        refusal comes back as UniqueViolation, a lock another program kept too long as StoreBusy."""
        self.stats.handoffs += 1
        try:
            async with store_wait():
                return await self._driver.run(partial(self._traced_call, function, *args))
        except sqlite3.IntegrityError as error:
            message = str(error)
            if message.startswith(_UNIQUE):
                raise UniqueViolation(message.removeprefix(_UNIQUE)) from error
            raise
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise StoreBusy(f"the database {self.target} stayed locked by another program") from error
            raise

    async def _while_busy(self, deadline: float, begins: Callable[..., T], *args: Any) -> T:
        """Call `begins(*args)`, which starts with BEGIN IMMEDIATE, again while another program holds the write lock,
        until `deadline` (at least once, however late: the lock may be free by now). Each try waits `_BUSY_STEP_MS`
        in the database thread and rolls back whatever it began, then gives the thread to the calls queued behind."""
        while True:
            try:
                return await self._call(begins, *args)
            except StoreBusy:
                if time.monotonic() >= deadline:
                    raise

    def _refuse_nested(self) -> None:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            raise RuntimeError("a storage transaction was opened inside another one on the same database")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        self._refuse_nested()
        deadline = time.monotonic() + self._patience
        with self.metrics.store_call("write"):
            async with self._lock:
                self._owner = asyncio.current_task()
                self.stats.transactions += 1
                transaction = _SqliteTransaction(self)
                try:
                    try:  # BEGIN too: a call queued in aiosqlite's thread runs even when its caller is cancelled
                        await self._while_busy(deadline, self._begin)
                        yield transaction
                        await self._call(self._execute, "COMMIT", ())
                    except BaseException:
                        await self._call(self._rollback)
                        raise
                finally:
                    transaction.open = False
                    self._owner = None

    # ---- the database thread's side --------------------------------------------------------------------------

    def _traced_call(self, function: Callable[..., T], *args: Any) -> T:
        """Set or clear the trace callback as `trace()` asked since the last call, then run `function(*args)`."""
        if bool(self._tracers) != self._traced:
            self._traced = bool(self._tracers)
            self._connection.set_trace_callback(self._dispatch_trace if self._traced else None)
        return function(*args)

    def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        cursor = self._connection.execute(sql, params)
        names = [column[0] for column in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _fetchrow(self, sql: str, params: Sequence[Any]) -> Row | None:
        cursor = self._connection.execute(sql, params)
        row = cursor.fetchone()
        names = [column[0] for column in cursor.description or ()]
        cursor.close()
        return None if row is None else dict(zip(names, row, strict=True))

    def _fetchval(self, sql: str, params: Sequence[Any]) -> Any:
        cursor = self._connection.execute(sql, params)
        row = cursor.fetchone()
        cursor.close()
        return None if row is None else row[0]

    def _execute(self, sql: str, params: Sequence[Any]) -> int:
        return self._connection.execute(sql, params).rowcount

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        return self._connection.executemany(sql, rows).rowcount

    def _begin(self) -> None:
        """BEGIN IMMEDIATE (SQLite waits `_BUSY_STEP_MS` for another program's write lock; `_while_busy` tries
        again)."""
        self._connection.execute("BEGIN IMMEDIATE")

    def _write(self, statements: list[Statement]) -> list[int]:
        connection = self._connection
        self._begin()
        try:
            counts = []
            for index, statement in enumerate(statements):
                run = connection.executemany if statement.many else connection.execute
                count = run(statement.sql, statement.params).rowcount
                if statement.expect is not None and count != statement.expect:
                    raise RowsNotChanged(index, count, statement.expect)
                counts.append(count)
            connection.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return counts

    def _rollback(self) -> None:
        """Roll back what is still open; a failure here must not hide the error that caused it."""
        if self._connection.in_transaction:
            try:
                self._connection.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed")

    def _dispatch_trace(self, statement: str) -> None:
        for callback in list(self._tracers):
            callback(statement)

    def _prepare(self, up_to: int | None) -> None:
        """Check the file, switch on WAL, migrate, and take the write lock once (all in the database thread)."""
        connection = self._connection
        self._check_readable()
        self._check_not_newer()
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        self._migrate(up_to)
        connection.execute("BEGIN IMMEDIATE")  # a file locked or read-only is refused now, not at the first move
        connection.execute("COMMIT")
        connection.execute(f"PRAGMA busy_timeout={_BUSY_STEP_MS}")  # from now on, each write keeps its own deadline

    def _migrate(self, up_to: int | None) -> list[int]:
        """Apply the pending migrations, each in its own transaction that also sets `PRAGMA user_version`."""
        connection = self._connection
        self._check_not_newer()
        connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        done = {row[0] for row in connection.execute("SELECT version FROM schema_migrations")}
        applied = []
        for number, name, sql in migrations("sqlite"):
            if number in done or (up_to is not None and number > up_to):
                continue
            connection.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    connection.execute(statement)
                connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (number, name, now_iso()),
                )
                connection.execute(f"PRAGMA user_version = {number}")
                connection.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            log.info("applied migration V%03d %s", number, name)
            applied.append(number)
            done.add(number)
        newest = max(done, default=0)
        if self._user_version() != newest:  # a file migrated before user_version was kept
            connection.execute(f"PRAGMA user_version = {newest}")
        return applied

    def _schema_version(self) -> int:
        return max(self._newest_migration(), self._user_version())

    def _check_readable(self) -> None:
        """Refuse a file SQLite cannot read, or whose quick check finds damage, or that belongs to another program."""
        found = [str(row[0]) for row in self._connection.execute("PRAGMA quick_check")]
        if found != ["ok"]:
            raise _damaged(self.target, "; ".join(found)[:300])
        tables = {
            row[0]
            for row in self._connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        if tables and "schema_migrations" not in tables:
            raise DatabaseUnusable(
                self.target,
                f"{self.target} is a SQLite database of another program (it has tables but no schema_migrations):"
                f" move it away, {_OTHER_FILE}",
            )

    def _check_not_newer(self) -> None:
        """Refuse a database written by a newer Conductor, before anything in it changes."""
        found, known = self._schema_version(), latest_version("sqlite")
        if found > known:
            raise DatabaseUnusable(
                self.target,
                f"the database {self.target} has schema version {found}, newer than version {known} that this"
                f" Conductor knows: upgrade Conductor {_OTHER_FILE}",
            )

    def _newest_migration(self) -> int:
        exists = self._connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchone()
        if exists is None:
            return 0
        row = self._connection.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
        return 0 if row is None else int(row[0])

    def _user_version(self) -> int:
        row = self._connection.execute("PRAGMA user_version").fetchone()
        return 0 if row is None else int(row[0])


class _SqliteTransaction(Transaction):
    """The statements of one open SQLite transaction, each one call into the database thread."""

    def __init__(self, database: SqliteDatabase) -> None:
        self._database = database
        self.open = True

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return every row."""
        return await self._run(self._database._fetch, sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        return await self._run(self._database._fetchrow, sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        return await self._run(self._database._fetchval, sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement and return how many rows it changed."""
        return await self._run(self._database._execute, sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement once per parameter row and return how many rows they changed in all."""
        self._database.stats.statements += len(rows) - 1
        return await self._run(self._database._executemany, sql, rows)

    async def _run(self, function: Callable[[str, Sequence[Any]], T], sql: str, params: Sequence[Any]) -> T:
        if not self.open:
            raise RuntimeError("the transaction is closed")
        self._database.stats.statements += 1
        return await self._database._call(function, sql, params)


def lock_file(path: Path | str) -> int | None:
    """Take the lock a running bot holds on its database file (an flock, dropped by the kernel when the process dies);
    the descriptor holding it (closing it lets go), or None while another process holds it."""
    lease = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(lease, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lease)
        return None
    return lease


def _connect(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """Open the connection in the database thread, in autocommit mode (transactions are explicit)."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
    try:
        connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        connection.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        connection.close()
        raise
    return connection


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
        return _locked(path, busy_timeout_ms)
    if code.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")):
        return _cannot_write(path, str(error))
    if code.startswith("SQLITE_FULL"):
        return DatabaseUnusable(path, f"the disk holding the database {path} is full: free some space, {_OTHER_FILE}")
    if code.startswith("SQLITE_IOERR"):
        return DatabaseUnusable(
            path, f"reading or writing the database {path} failed ({error}): check the disk, {_OTHER_FILE}"
        )
    return None


def _same_file(descriptor: int, path: str) -> bool:
    """Whether `path` still names the file open as `descriptor`."""
    try:
        found = os.stat(path)
    except OSError:
        return False
    held = os.fstat(descriptor)
    return (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds."""
    return (getattr(error, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY")


def _locked(path: Path | str, busy_timeout_ms: int) -> DatabaseUnusable:
    return DatabaseUnusable(
        path,
        f"the database {path} is locked by another process (still busy after {busy_timeout_ms} ms): stop the"
        f" other Conductor or program using it, {_OTHER_FILE}",
    )


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
