"""Data files that cannot be used, on real SQLite files: each is refused with one line an operator can act on."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.database import DatabaseUnusable, Statement, latest_version
from bot.storage.opening import open_database


def refusal(error: pytest.ExceptionInfo[DatabaseUnusable], path: Path, *words: str) -> str:
    """Check the message is one line naming the file, what to do, and these words; return it."""
    message = str(error.value)
    assert "\n" not in message and "\r" not in message
    assert str(path) in message
    assert "CONDUCTOR_DATABASE_PATH" in message
    for word in words:
        assert word in message, message
    assert error.value.path == str(path)
    return message


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def a_database_with_data(path: Path, rows: int = 400) -> None:
    """A migrated Conductor database holding enough games to span many pages, closed (WAL checkpointed)."""
    db = await open_database(path)
    await db.write(
        [
            Statement(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version, state,"
                " created_at, updated_at) VALUES ('dice', 1, ?, 1, 'finished', '{}', 1, 1, ?, 'now', 'now')",
                [(channel, "x" * 900) for channel in range(rows)],
                many=True,
            )
        ]
    )
    await db.close()


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = digest(path)
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    refusal(error, path, "not a SQLite database", "backup")
    assert digest(path) == before


async def test_a_truncated_database_is_refused_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite3"
    await a_database_with_data(path)
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    refusal(error, path, "damaged", "backup")


async def test_damage_only_the_quick_check_finds_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "freelist.sqlite3"
    await a_database_with_data(path)
    with path.open("r+b") as file:  # the header's count of free pages: wrong, yet every query still works
        file.seek(36)
        file.write(struct.pack(">I", 5))
    with sqlite3.connect(path) as probe:  # SQLite itself opens and reads it without complaint
        assert probe.execute("SELECT COUNT(*) FROM games").fetchone() == (400,)
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    message = refusal(error, path, "damaged", "freelist")
    assert len(message) < 600


async def test_a_database_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE recipes (name TEXT)")
    other.close()
    before = digest(path)
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    refusal(error, path, "another program")
    assert digest(path) == before


async def newer_by(path: Path, *, migration: bool, user_version: bool) -> int:
    """Make a Conductor database look written by a newer Conductor; return its schema version."""
    newer = latest_version() + 7
    db = await open_database(path)
    if migration:
        await db.write(
            [
                Statement(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from_the_future', 'later')",
                    (newer,),
                )
            ]
        )
    if user_version:
        await db.write([Statement(f"PRAGMA user_version = {newer}")])
    await db.close()
    return newer


@pytest.mark.parametrize(
    ("migration", "user_version"), [(True, True), (True, False), (False, True)], ids=["both", "table", "pragma"]
)
async def test_a_database_of_a_newer_conductor_is_refused_untouched(
    tmp_path: Path, migration: bool, user_version: bool
) -> None:
    path = tmp_path / "newer.sqlite3"
    newer = await newer_by(path, migration=migration, user_version=user_version)
    before = digest(path)
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    message = refusal(error, path, f"schema version {newer}", f"version {latest_version()}", "upgrade Conductor")
    assert "upgrade Conductor or point CONDUCTOR_DATABASE_PATH at another file" in message
    assert digest(path) == before
    with sqlite3.connect(path) as check:  # nothing was migrated or renumbered
        assert check.execute("PRAGMA user_version").fetchone()[0] == (newer if user_version else latest_version())
    check.close()


async def test_migrate_alone_refuses_a_newer_database(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    db = await open_database(path)
    try:
        newer = latest_version() + 7
        await db.write(  # a newer Conductor migrated the file meanwhile
            [Statement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'x')", (newer,))]
        )
        with pytest.raises(DatabaseUnusable, match=f"schema version {newer}"):
            await db.migrate()
    finally:
        await db.close()


@pytest.mark.parametrize("journal", ["wal", "delete"])
async def test_a_database_locked_by_another_process_is_refused_after_the_busy_timeout(
    tmp_path: Path, journal: str
) -> None:
    path = tmp_path / "locked.sqlite3"
    await a_database_with_data(path, rows=3)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute(f"PRAGMA journal_mode={journal}")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE games SET version = version + 1")
        with pytest.raises(DatabaseUnusable) as error:
            await open_database(path, busy_timeout_ms=50)
        refusal(error, path, "locked by another process", "50 ms")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    db = await open_database(path, busy_timeout_ms=50)  # free again: it opens
    await db.close()


async def test_a_folder_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    path = blocker / "data" / "conductor.sqlite3"
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    refusal(error, path, "cannot create or write", "write access")


async def test_a_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "conductor.sqlite3"
    path.mkdir()
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(path)
    refusal(error, path, "cannot create or write")


async def test_user_version_follows_the_migrations_and_is_set_on_files_from_before(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = await open_database(path, up_to=1)
    assert await db.migrate(up_to=2) == [2]
    assert await db.schema_version() == 2
    await db.write([Statement("PRAGMA user_version = 0")])  # as a file migrated before user_version was kept
    await db.close()
    db = await open_database(path)
    try:
        assert await db.fetchval("PRAGMA user_version") == latest_version()
        assert await db.schema_version() == latest_version() >= 3
    finally:
        await db.close()


async def test_a_damaged_copy_does_not_harm_the_good_one(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.sqlite3", tmp_path / "bad.sqlite3"
    await a_database_with_data(good, rows=50)
    shutil.copy(good, bad)
    with bad.open("r+b") as file:
        file.seek(4096 * 2)
        file.write(b"\xff" * 4096 * 3)
    with pytest.raises(DatabaseUnusable, match="damaged"):
        await open_database(bad)
    db = await open_database(good)
    await db.close()


LEFT_OPEN = """
import asyncio, sys
from bot.storage.database import Statement
from bot.storage.opening import open_database

async def main():
    global kept  # still referenced when the interpreter ends: never closed, never collected
    kept = await open_database(sys.argv[1])
    await kept.write([Statement("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (1, '{}', 'x')")])

asyncio.run(main())
"""


def test_a_database_left_open_does_not_keep_its_process_alive(tmp_path: Path) -> None:
    """A process that ends without closing its database (a crash's way out) still exits, its writes kept."""
    path = tmp_path / "left-open.sqlite3"
    root = Path(__file__).resolve().parents[3]
    finished = subprocess.run(
        [sys.executable, "-c", LEFT_OPEN, str(path)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0
    kept = sqlite3.connect(path)
    try:
        assert kept.execute("SELECT guild_id FROM guild_settings").fetchall() == [(1,)]
    finally:
        kept.close()
