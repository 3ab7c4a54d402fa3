"""Backups of the SQLite store taken while the bot runs, and putting one back in place of the database.

A backup is a whole SQLite file, `conductor-YYYYMMDDTHHMMSSZ.sqlite3` (UTC), in a folder of its own; names sort by
time. PostgreSQL stores are backed up with `pg_dump` instead (README).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.database import DatabaseUnusable, latest_version
from bot.storage.sqlite import lock_file

PREFIX = "conductor-"
SUFFIX = ".sqlite3"
STAMP = "%Y%m%dT%H%M%SZ"


def backup_name(at: datetime) -> str:
    """The file name of a backup taken at `at`."""
    return f"{PREFIX}{at.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def taken_at(path: Path) -> datetime | None:
    """When a backup was taken, read from its name (None for a file that is not a backup)."""
    name = path.name
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(name[len(PREFIX) : -len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def backups(folder: Path) -> list[Path]:
    """The backups in a folder, oldest first."""
    if not folder.is_dir():
        return []
    return sorted((path for path in folder.iterdir() if taken_at(path) is not None), key=lambda path: path.name)


def take_backup(database: Path, folder: Path, *, keep: int | None = None, at: datetime | None = None) -> Path:
    """Copy the database as it stands into `folder` and return the backup's path; then keep only the `keep` newest.

    SQLite's backup API copies every page in one step on a connection of its own, inside one read transaction: the
    copy is one consistent moment of the store, and the bot's writes go on meanwhile (the store is in WAL mode, where
    a reader holds no writer up). The copy is written under a temporary name and checked before it takes its own,
    so a backup cut short by a crash never looks whole.
    """
    if not database.is_file():
        raise DatabaseUnusable(database, f"there is no database {database} to back up")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / backup_name(at or datetime.now(UTC))
    partial = target.with_name(target.name + ".partial")
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(partial)) as copy:
        source.backup(copy)
        problem = _problem(copy)
    if problem is not None:
        partial.unlink()
        raise DatabaseUnusable(database, f"the backup of {database} did not check out ({problem}): nothing was kept")
    os.replace(partial, target)
    if keep is not None:
        for old in backups(folder)[:-keep]:
            old.unlink()
    return target


def restore(backup: Path, database: Path, *, at: datetime | None = None) -> Path | None:
    """Put a backup in place of the database; return where the database it replaced was kept (None if there was
    none). Refused, with nothing changed, while a Conductor process holds the database or when the backup is not a
    whole Conductor store this version can read."""
    if not backup.is_file():
        raise DatabaseUnusable(backup, f"there is no backup {backup}")
    with closing(sqlite3.connect(f"file:{backup}?mode=ro", uri=True)) as source:
        problem = _problem(source)
        if problem is not None:
            raise DatabaseUnusable(backup, f"{backup} is not a whole Conductor backup ({problem})")
        with _held(database):
            kept = None
            if database.exists():
                kept = database.with_name(f"{database.name}.before-restore-{(at or datetime.now(UTC)).strftime(STAMP)}")
                with closing(sqlite3.connect(database)) as current, closing(sqlite3.connect(kept)) as aside:
                    current.backup(aside)
            with closing(sqlite3.connect(database)) as target:
                source.backup(target)
    return kept


def _problem(connection: sqlite3.Connection) -> str | None:
    """What keeps a copy from being a store this version can open (None when it is whole)."""
    try:
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            return f"SQLite's check says: {check}"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_migrations" not in tables:
            return "it holds no Conductor store"
        version = connection.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0]
    except sqlite3.DatabaseError as error:
        return str(error)
    if int(version) > latest_version("sqlite"):
        return f"it was written by a newer Conductor (schema {version})"
    return None


@contextmanager
def _held(database: Path) -> Iterator[None]:
    """Hold the lock a running bot holds on its database (`SqliteDatabase.hold`), or refuse: a bot must not have the
    file changed under it."""
    if not database.exists():
        yield
        return
    lease = lock_file(database)
    if lease is None:
        raise DatabaseUnusable(
            database, f"a Conductor process runs on the database {database}: stop it before restoring"
        )
    try:
        yield
    finally:
        os.close(lease)
