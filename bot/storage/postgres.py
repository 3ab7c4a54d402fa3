"""The PostgreSQL backend (asyncpg): a small pool per process, the same numbered migrations as SQLite.

Several Conductor processes may share one server: migrating happens under a transaction-scoped advisory lock, so
two processes starting at once migrate once. A process's lease on its shards is a connection of its own holding an
advisory lock per shard, watched (its termination, a heartbeat), with a fencing number per shard that each taking
raises and each game write checks. SQL is written with `?` placeholders and translated to `$1 …` once per text.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlsplit

import asyncpg  # type: ignore[import-untyped]

from bot.shards import ShardSet
from bot.storage.database import (
    Database,
    DatabaseStats,
    DatabaseUnusable,
    Dialect,
    LeaseLost,
    Row,
    RowsNotChanged,
    Statement,
    Transaction,
    UniqueViolation,
    latest_version,
    migrations,
    now_iso,
    without_password,
)

log = logging.getLogger(__name__)

POOL_MIN_SIZE = 1
POOL_MAX_SIZE = 5
"""The work's connections; the shard lease has one more of its own (`hold`)."""
LEASE_LOCKS = 0x436F_6E64
"""The first key of the advisory locks on shards ("Cond"); the second is the shard id."""
LAYOUT_LOCKS = 0x436F_6E65
"""The first key of the advisory locks saying how many shards a process counts; the second is that count."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server at start before refusing it as unreachable."""
HEARTBEAT_SECONDS = 5.0
"""How often the lease's connection is asked whether its fencing numbers are still the shards' (a dropped connection
is noticed at once by its termination; this catches one that hangs, and a shard taken over)."""
HEARTBEAT_TIMEOUT = 10.0
"""Seconds a heartbeat may take before the lease counts as lost."""
LEASE_APPLICATION = "conductor lease"
"""The lease connection's application_name, as pg_stat_activity shows it (the pool's is "conductor")."""
MIGRATION_LOCK = 0x436F_6E64_7563_746F  # "Conducto": the advisory lock every Conductor takes around migrating
_OTHER_DATABASE = "or point CONDUCTOR_DATABASE_URL at another database"
DROPPED = "its connection ended (a server restart or failover, idle_session_timeout, pg_terminate_backend)"
TAKEN_OVER = "another process took one of its shards (its fencing number moved on)"
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|\?", re.DOTALL)


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """Translate `?` placeholders to `$1, $2 …`, leaving quoted text and comments alone (cached per SQL text)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match[0] != "?":
            return match[0]
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class PostgresDatabase(Database):
    """A PostgreSQL database reached through a small asyncpg pool."""

    dialect: ClassVar[Dialect] = "postgresql"

    def __init__(self, pool: Any, target: str, connect: Callable[[], Awaitable[Any]]) -> None:
        self.target = target
        self.stats = DatabaseStats()
        self.heartbeat_seconds = HEARTBEAT_SECONDS
        self._pool = pool
        self._connect = connect
        """Opens a connection outside the pool, as the pool's are opened (the lease's)."""
        self._tracers: list[Callable[[str], None]] = []
        self._holders: set[asyncio.Task[Any]] = set()
        self._lease: Any = None
        """The connection whose session holds this process's advisory locks on its shards."""
        self._fence: list[Statement] = []
        self._heartbeat: asyncio.Task[None] | None = None
        self._watchers: list[Callable[[str], None]] = []
        self._lost: str | None = None
        """Why the lease ended, once it has."""
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, up_to: int | None = None) -> PostgresDatabase:
        """Connect to the server, check the database and migrate it.

        Raises DatabaseUnusable (one line, the URL's password never in it) for a bad URL, a server that cannot be
        reached or refuses the login, a database that does not exist, belongs to another program or was written by
        a newer Conductor.
        """
        shown = without_password(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=POOL_MIN_SIZE,
                max_size=POOL_MAX_SIZE,
                reset=_keep_session,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": "conductor"},
            )
        except Exception as error:
            raise _refusal(shown, error, _password_of(url)) from None  # the driver's error may quote the URL
        lease = partial(
            asyncpg.connect, url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": LEASE_APPLICATION}
        )
        database = cls(pool, shown, lease)
        try:
            await database.migrate(up_to=up_to)
        except BaseException as error:
            await database.close()
            if isinstance(error, asyncpg.PostgresError | OSError):
                raise _refusal(shown, error, _password_of(url)) from error
            raise
        return database

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return every row."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            async with self._connection() as connection:
                rows = await connection.fetch(numbered(sql), *params)
        return [dict(row.items()) for row in rows]

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            async with self._connection() as connection:
                row = await connection.fetchrow(numbered(sql), *params)
        return None if row is None else dict(row.items())

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        self.stats.statements += 1
        with self.metrics.store_call("read"):
            async with self._connection() as connection:
                return await connection.fetchval(numbered(sql), *params)

    async def write(self, statements: Sequence[Statement]) -> list[int]:
        """Run the statements in one transaction on one pooled connection.

        A `many` statement runs once per parameter row (asyncpg's executemany reports no row counts). A write that
        carries the lease's fence (`fence()`) is refused with LeaseLost once the lease has ended, here or on the
        server (another process took a shard: its fencing number moved on).
        """
        if not statements:
            return []
        fenced = any(isinstance(statement, _Fence) for statement in statements)
        if fenced and self._lost is not None:
            raise LeaseLost(f"this process lost its lease on its shards: {self._lost}")
        self._refuse_nested()
        self.stats.transactions += 1
        self.stats.statements += sum(len(s.params) if s.many else 1 for s in statements)
        counts = []
        with self.metrics.store_call("write"):
            async with self._connection() as connection, connection.transaction():
                for index, statement in enumerate(statements):
                    sql = numbered(statement.sql)
                    rows = statement.params if statement.many else [statement.params]
                    count = 0
                    for params in rows:
                        count += _rowcount(await connection.execute(sql, *params))
                    if statement.expect is not None and count != statement.expect:
                        if isinstance(statement, _Fence):
                            self._lose(TAKEN_OVER)
                            raise LeaseLost(f"this process lost its lease on its shards: {TAKEN_OVER}")
                        raise RowsNotChanged(index, count, statement.expect)
                    counts.append(count)
        return counts

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """Open a transaction on one pooled connection, held until it closes."""
        return self._transaction()

    def trace(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Pass every statement sent to the server to `callback` (asyncpg's query logger on each connection taken
        while tracing, delivered before the call that ran it returns); return the function that stops it."""
        self._tracers.append(callback)

        def stop() -> None:
            if callback in self._tracers:
                self._tracers.remove(callback)

        return stop

    async def check(self) -> None:
        """Ask the server `SELECT 1` on a pooled connection, as every call takes one."""
        try:
            async with self._connection() as connection:
                await connection.fetchval("SELECT 1")
        except Exception as error:  # the driver's words may name the server: the type says enough here
            raise DatabaseUnusable(self.target, f"a query failed ({type(error).__name__})") from error

    async def migrate(self, *, up_to: int | None = None) -> list[int]:
        """Apply the pending migrations in one transaction holding the migration advisory lock."""
        applied = []
        async with self._connection() as connection, connection.transaction():
            await connection.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            if await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
                done = {row[0] for row in await connection.fetch("SELECT version FROM schema_migrations")}
            else:
                tables = await connection.fetchval("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()")
                if tables:
                    raise DatabaseUnusable(
                        self.target,
                        f"the database {self.target} belongs to another program (it has tables but no"
                        f" schema_migrations): give Conductor a database of its own, {_OTHER_DATABASE}",
                    )
                await connection.execute(
                    "CREATE TABLE schema_migrations"
                    ' (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT COLLATE "C" NOT NULL)'
                )
                done = set()
            self._check_not_newer(max(done, default=0))
            for number, name, sql in migrations("postgresql"):
                if number in done or (up_to is not None and number > up_to):
                    continue
                await connection.execute(sql)
                await connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    number,
                    name,
                    now_iso(),
                )
                applied.append((number, name))
        for number, name in applied:
            log.info("applied migration V%03d %s", number, name)
        return [number for number, _ in applied]

    async def schema_version(self) -> int:
        """Return the newest migration applied to the database (0 for an empty one)."""
        async with self._connection() as connection:
            if not await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
                return 0
            return int(await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    async def hold(self, shards: ShardSet) -> None:
        """Hold a session advisory lock per shard on a connection of its own, kept for the process's life (the server
        drops the locks when that connection ends, a killed process's too), and raise each shard's fencing number;
        refuse a shard count other processes do not share: with another count the same server would be on two
        processes' shards. The connection is watched from then on: its termination, and a heartbeat."""
        if self._lease is None:
            self._lease = await self._connect()
            self._lease.add_termination_listener(self._lease_dropped)
        connection = self._lease
        counts = await connection.fetch(
            "SELECT DISTINCT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objsubid = 2"
            " AND pid <> pg_backend_pid()"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            LAYOUT_LOCKS,
        )
        others = sorted(int(row["objid"]) for row in counts if int(row["objid"]) != shards.count)
        if others:
            raise DatabaseUnusable(
                self.target,
                f"another Conductor process on {self.target} runs with {others[0]} shards, this one with"
                f" {shards.count}: give every process the same CONDUCTOR_SHARD_COUNT",
            )
        await connection.execute("SELECT pg_advisory_lock_shared($1, $2)", LAYOUT_LOCKS, shards.count)
        for shard in sorted(shards.ids):
            if not await connection.fetchval("SELECT pg_try_advisory_lock($1, $2)", LEASE_LOCKS, shard):
                raise DatabaseUnusable(
                    self.target,
                    f"shard {shard} of {shards.count} is run by another Conductor process on {self.target}: stop"
                    " it, or give this process other shards (CONDUCTOR_SHARD_IDS)",
                )
        # Raising the numbers waits for the writes still checking the old ones (they hold their row FOR SHARE)
        rows = await connection.fetch(
            "INSERT INTO shard_leases (shard_count, shard, fence, holder, taken_at)"
            " SELECT $1, shard, 1, $3, $4 FROM unnest($2::integer[]) AS shard"
            " ON CONFLICT (shard_count, shard) DO UPDATE SET fence = shard_leases.fence + 1,"
            " holder = excluded.holder, taken_at = excluded.taken_at RETURNING shard, fence",
            shards.count,
            sorted(shards.ids),
            f"{socket.gethostname()} pid {os.getpid()}",
            now_iso(),
        )
        self._fence = [_fence_statement(shards.count, {int(row["shard"]): int(row["fence"]) for row in rows})]
        if self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._beat(), name="lease heartbeat")

    def fence(self) -> list[Statement]:
        """The statement that keeps a game's write from landing unless this process's fencing numbers are still its
        shards' (it holds their rows FOR SHARE, so a process taking a shard waits for the write to end first)."""
        return list(self._fence)

    def watch_lease(self, lost: Callable[[str], None]) -> None:
        """Have `lost(reason)` called once, as soon as the lease ends before `close()`."""
        self._watchers.append(lost)

    async def close(self) -> None:
        """Stop watching the lease and close its connection (the locks end with it), then close the pool, waiting
        for the connections in use to come back. A lease already lost closes quietly."""
        if self._closed:
            return
        self._closed = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            await asyncio.gather(self._heartbeat, return_exceptions=True)
        if self._lease is not None:
            if self._lost is None:
                await self._lease.close()
            else:
                self._lease.terminate()
        await self._pool.close()

    async def _beat(self) -> None:
        """Ask the lease's connection every `heartbeat_seconds` whether its fencing numbers are still the shards';
        an error, no answer within HEARTBEAT_TIMEOUT or a number moved on ends the lease."""
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            (fence,) = self._fence
            try:
                async with asyncio.timeout(HEARTBEAT_TIMEOUT):
                    held = len(await self._lease.fetch(numbered(fence.sql), *fence.params))
            except Exception as error:
                self._lose(f"its connection stopped answering ({type(error).__name__}: {error})")
                return
            if held != fence.expect:
                self._lose(TAKEN_OVER)
                return

    def _lease_dropped(self, connection: Any) -> None:
        """asyncpg's termination listener of the lease's connection."""
        self._lose(DROPPED)

    def _lose(self, reason: str) -> None:
        """End the lease once (not while closing): refuse fenced writes from now on, let the shards go at once if the
        connection lingers, and tell the watchers."""
        if self._lost is not None or self._closed:
            return
        self._lost = reason
        if self._heartbeat is not None and self._heartbeat is not asyncio.current_task():
            self._heartbeat.cancel()
        self._lease.terminate()
        for watcher in self._watchers:
            watcher(reason)

    def _check_not_newer(self, found: int) -> None:
        known = latest_version("postgresql")
        if found > known:
            raise DatabaseUnusable(
                self.target,
                f"the database {self.target} has schema version {found}, newer than version {known} that this"
                f" Conductor knows: upgrade Conductor {_OTHER_DATABASE}",
            )

    def _refuse_nested(self) -> None:
        if asyncio.current_task() in self._holders:
            raise RuntimeError("a storage transaction was opened inside another one on the same database")

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """Take a connection from the pool for the body; errors of the driver come out as the storage's own."""
        self.stats.handoffs += 1
        tracing = bool(self._tracers)
        try:
            async with self._pool.acquire() as connection:
                if tracing:
                    connection.add_query_logger(self._log_query)
                try:
                    with _translated():
                        yield connection
                finally:
                    if tracing:
                        connection.remove_query_logger(self._log_query)
        finally:
            if tracing:  # asyncpg delivers its log records with call_soon: let them arrive before returning
                await asyncio.sleep(0)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        self._refuse_nested()
        task = asyncio.current_task()
        self.stats.transactions += 1
        with self.metrics.store_call("write"):
            async with self._connection() as connection:
                transaction = _PostgresTransaction(self, connection)
                if task is not None:
                    self._holders.add(task)
                try:
                    async with connection.transaction():
                        yield transaction
                finally:
                    transaction.open = False
                    if task is not None:
                        self._holders.discard(task)

    def _log_query(self, record: Any) -> None:
        for callback in list(self._tracers):
            callback(record.query)


@dataclass(frozen=True, slots=True)
class _Fence(Statement):
    """The lease's check in a write (see `PostgresDatabase.fence`): finding fewer rows than shards, the write rolls
    back with LeaseLost, not RowsNotChanged."""


def _fence_statement(count: int, fences: dict[int, int]) -> _Fence:
    """Select the rows of these shards that still have these fencing numbers, FOR SHARE: one per shard, or LeaseLost.
    Rows are locked in shard order, as `hold` raises them, so a write and a taking never deadlock."""
    held = " OR ".join("(shard = ? AND fence = ?)" for _ in fences)
    params = [count, *(number for shard in sorted(fences) for number in (shard, fences[shard]))]
    return _Fence(
        f"SELECT shard FROM shard_leases WHERE shard_count = ? AND ({held}) ORDER BY shard FOR SHARE",
        params,
        expect=len(fences),
    )


class _PostgresTransaction(Transaction):
    """The statements of one open PostgreSQL transaction, on the connection it holds."""

    def __init__(self, database: PostgresDatabase, connection: Any) -> None:
        self._database = database
        self._connection = connection
        self.open = True

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return every row."""
        with self._statement(1):
            rows = await self._connection.fetch(numbered(sql), *params)
        return [dict(row.items()) for row in rows]

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        with self._statement(1):
            row = await self._connection.fetchrow(numbered(sql), *params)
        return None if row is None else dict(row.items())

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        with self._statement(1):
            return await self._connection.fetchval(numbered(sql), *params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement and return how many rows it changed."""
        with self._statement(1):
            return _rowcount(await self._connection.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement once per parameter row and return how many rows they changed in all."""
        sql, changed = numbered(sql), 0
        with self._statement(len(rows)):
            for params in rows:
                changed += _rowcount(await self._connection.execute(sql, *params))
        return changed

    @contextmanager
    def _statement(self, count: int) -> Iterator[None]:
        if not self.open:
            raise RuntimeError("the transaction is closed")
        self._database.stats.statements += count
        with _translated():
            yield


@contextmanager
def _translated() -> Iterator[None]:
    """Turn asyncpg's unique violation into the storage's own, naming the index."""
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise UniqueViolation(error.constraint_name or error.table_name or "?") from error


async def _keep_session(connection: Any) -> None:
    """Return a connection to the pool as it is: Conductor sets no session state (its locks end with transactions),
    so asyncpg's default reset would be one wasted round trip per call."""


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status text ('UPDATE 2', 'INSERT 0 1', 'CREATE TABLE' → 0)."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


def _password_of(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        return parts.password or dict(parse_qsl(parts.query)).get("password")
    except ValueError:
        return None


def _refusal(shown: str, error: BaseException, password: str | None) -> DatabaseUnusable:
    """The operator's one line for a server or database that cannot be used."""
    detail = str(error) or type(error).__name__
    if password:
        detail = detail.replace(password, "***")
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        problem = f"the database of {shown} does not exist ({detail}): create it (createdb), {_OTHER_DATABASE}"
    elif isinstance(error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        problem = (
            f"the PostgreSQL server of {shown} refused the login ({detail}): check the user and password of"
            " CONDUCTOR_DATABASE_URL"
        )
    elif isinstance(error, asyncpg.InsufficientPrivilegeError):
        problem = (
            f"the user of {shown} may not create Conductor's tables ({detail}): grant it CREATE on the database,"
            f" {_OTHER_DATABASE}"
        )
    elif isinstance(error, OSError | TimeoutError | asyncpg.CannotConnectNowError):
        problem = (
            f"cannot reach the PostgreSQL server of {shown} ({detail}): start it or check the host and port,"
            f" {_OTHER_DATABASE}"
        )
    elif isinstance(error, ValueError | asyncpg.InterfaceError):
        problem = f"{shown} is not a usable PostgreSQL URL ({detail}): fix CONDUCTOR_DATABASE_URL"
    else:
        problem = f"the PostgreSQL database {shown} cannot be used ({detail}): {_OTHER_DATABASE.removeprefix('or ')}"
    return DatabaseUnusable(shown, problem)
