"""The storage interface both backends implement (SQLite, the embedded default; PostgreSQL, for several processes).

Rows are read by column name. A write is a list of `Statement`s run as one transaction in one hand-off to the
database (the SQLite thread, or one pooled PostgreSQL connection); `transaction()` is for the rare write that must
read before it writes. SQL is written once for both: `?` placeholders, `INSERT … RETURNING`, `ON CONFLICT … DO
UPDATE SET x = excluded.x`, no scalar MAX(a, b) and no `? IS NULL OR …` (build such SQL in Python).
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Literal
from urllib.parse import parse_qsl, urlsplit

from bot.metrics import UNCOUNTED, Metrics
from bot.shards import ShardSet

Row = Mapping[str, Any]
"""One row of a result, read by column name on both backends."""
Dialect = Literal["sqlite", "postgresql"]

_MIGRATION_NAME = re.compile(r"^V(\d{3})__(\w+)\.sql$")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseUnusable(Exception):
    """The database cannot be used; `str()` is one line a server operator can act on."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        self.problem = " ".join(problem.split())  # one line, whatever the database's own text held
        super().__init__(self.problem)


class StoreBusy(Exception):
    """Another program or process held the store's write lock for longer than a write may wait: nothing of the
    write was stored, and trying again later may well work."""


class Waiting:
    """A person waits on the store's answers (their click or command, served by the task `owner`): a wait on the
    store (`store_wait`) of that task still going on at `by` (the event loop's clock) starts `notice` (the bot
    acknowledges them), once, and finishes it before the task goes on."""

    def __init__(self, by: float, owner: asyncio.Task[Any] | None, notice: Callable[[], Awaitable[None]]) -> None:
        self.by = by
        self.owner = owner
        self._notice = notice
        self._noticing: asyncio.Future[None] | None = None

    def start_notice(self) -> None:
        """Start the notice, unless it was started already."""
        if self._noticing is None:
            self._noticing = asyncio.ensure_future(self._notice())

    async def noticed(self) -> bool:
        """Wait for the notice to finish, if it was started; whether it was."""
        if self._noticing is None:
            return False
        await self._noticing
        return True


WAITING: ContextVar[Waiting | None] = ContextVar("store_waiting", default=None)
"""Who is kept waiting by the current task's waits on the store, if anyone is to hear that they are slow."""


@asynccontextmanager
async def store_wait() -> AsyncIterator[None]:
    """Around a wait on the store (a call into it, or a lock whoever writes holds): if the task `WAITING` names
    still waits at its time, the notice runs meanwhile, and is finished before the task leaves the block. Nothing
    of the task runs while it waits here, so the notice never races the task's own answer."""
    waiting = WAITING.get()
    if waiting is None or asyncio.current_task() is not waiting.owner:
        yield
        return
    timer = asyncio.get_running_loop().call_at(waiting.by, waiting.start_notice)
    try:
        yield
    finally:
        timer.cancel()
        if await waiting.noticed():
            WAITING.set(None)


class StoreLock(asyncio.Lock):
    """A lock whose holder may be waiting on the store (a game's, the writer's): waiting for it is a `store_wait`."""

    async def acquire(self) -> Literal[True]:
        """Acquire the lock, as a wait on the store; never left held when cancelled meanwhile."""
        acquired = False
        try:
            async with store_wait():
                acquired = await super().acquire()
        except BaseException:
            if acquired:
                self.release()
            raise
        return True


class UniqueViolation(Exception):
    """A unique index or key refused a write; `constraint` names it (PostgreSQL: the index; SQLite: its columns)."""

    def __init__(self, constraint: str) -> None:
        super().__init__(f"unique constraint refused the write: {constraint}")
        self.constraint = constraint


class LeaseLost(Exception):
    """This process's lease on its shards ended (its connection dropped, or another process took a shard): a write
    of their games is refused, nothing of it written, and the process must stop driving them."""


class RowsNotChanged(Exception):
    """Statement `index` of a write changed `count` rows, not the `expected` ones: the whole write rolled back."""

    def __init__(self, index: int, count: int, expected: int) -> None:
        super().__init__(f"statement {index} of the write changed {count} rows, not {expected}")
        self.index = index
        self.count = count
        self.expected = expected


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a write: SQL with `?` placeholders (the subset both backends accept) and its parameters."""

    sql: str
    params: Sequence[Any] = ()
    many: bool = False
    """`params` is a sequence of parameter rows, the statement runs once for each (executemany)."""
    expect: int | None = None
    """Rows it must change, else the whole write rolls back with RowsNotChanged(index)."""


@dataclass
class DatabaseStats:
    """What a database was asked to do since it opened: counters the benches and tests read."""

    statements: int = 0
    """SQL statements run (a `many` statement counts once per parameter row)."""
    transactions: int = 0
    """Transactions committed or rolled back (`write()` and `transaction()`; migrations are not counted)."""
    handoffs: int = 0
    """Calls into the SQLite thread, or connections taken from the PostgreSQL pool."""


class Reader(ABC):
    """What reads rows: a database, or a transaction open on it."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return every row."""

    @abstractmethod
    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query and return its first row, or None."""

    @abstractmethod
    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""


class Transaction(Reader):
    """The open transaction of `Database.transaction()`: reads and writes inside it, committed on exit."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement and return how many rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement once per parameter row and return how many rows they changed in all."""


class Database(Reader):
    """One per process and store target; every store takes it in its constructor.

    Writes never interleave: a backend runs each `write()` and each `transaction()` as one transaction of its own.
    A task that holds a `transaction()` may not write through the same database again until it closes (that would
    wait for itself): it gets RuntimeError at once.
    """

    dialect: ClassVar[Dialect]
    target: str
    """What the operator named: the SQLite file, or the PostgreSQL URL without its password."""
    stats: DatabaseStats
    metrics: Metrics = UNCOUNTED
    """Where its calls are timed: the bot that opened it sets its own."""

    @abstractmethod
    async def write(self, statements: Sequence[Statement]) -> list[int]:
        """Run the statements as one transaction in one hand-off; return each one's count of changed rows.

        Any failure (an error, a `Statement.expect` not met: RowsNotChanged) rolls back every statement of it;
        StoreBusy says another program kept the store locked longer than the write may wait (nothing written).
        """

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """Open a transaction for a write that must read before it writes; committed on exit, rolled back on error."""

    @abstractmethod
    def trace(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Pass every statement the server executes, as text, to `callback` (through the driver's own hook);
        return the function that stops it."""

    @abstractmethod
    async def hold(self, shards: ShardSet) -> None:
        """Take this process's lease on its shards, kept until `close()`: DatabaseUnusable when another process
        holds one of them, so no game is ever driven by two processes. A process that dies loses its lease with its
        connection, and its restart takes it again; one that lives on is told (`watch_lease`), and its game writes
        carry the lease (`fence`)."""

    def fence(self) -> list[Statement]:
        """The statements a game's write adds so that it lands only while this process holds its lease, checked in
        the write's own transaction (else it rolls back with LeaseLost). None before `hold()`, nor on SQLite: its
        file lock keeps every other process out for as long as this one lives."""
        return []

    def watch_lease(self, lost: Callable[[str], None]) -> None:
        """Have `lost(reason)` called once, as soon as the lease of `hold()` ends before `close()` (never on SQLite:
        its file lock ends only with the process)."""

    @abstractmethod
    async def check(self) -> None:
        """Ask the store a cheap question through the way every call takes (its health): raise DatabaseUnusable
        saying what is wrong, in words that name no file, URL or server. The caller bounds how long it waits."""

    @abstractmethod
    async def migrate(self, *, up_to: int | None = None) -> list[int]:
        """Apply the migrations not applied yet (up to `up_to`, if given); return their numbers.

        A database holding a migration newer than this code knows is refused with DatabaseUnusable, untouched.
        """

    @abstractmethod
    async def schema_version(self) -> int:
        """Return the schema version of the database: the newest migration applied to it."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (waiting for what runs); closing twice is harmless."""


def now_iso() -> str:
    """Return the current UTC time as ISO text, the one timestamp format of the database."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """Return (number, name, sql) of every bundled migration of a dialect, in order."""
    found = []
    for entry in resources.files(f"bot.storage.migrations.{dialect}").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_version(dialect: Dialect = "sqlite") -> int:
    """Return the number of the newest bundled migration: the schema version this code writes."""
    return max((number for number, _, _ in migrations(dialect)), default=0)


def is_postgres_url(target: str) -> bool:
    """Whether a database target names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(POSTGRES_SCHEMES)


def without_password(url: str) -> str:
    """Return the URL as it may be printed: any password (in the address or a `password=` parameter) hidden."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            user, _, host = netloc.rpartition("@")
            netloc = f"{user.partition(':')[0]}:***@{host}"
        query = "&".join(
            f"{key}=***" if key == "password" else f"{key}={value}"
            for key, value in parse_qsl(parts.query, keep_blank_values=True)
        )
        return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")
    except ValueError:  # not even a URL: show only its scheme
        return url.partition("://")[0] + "://…"
