"""The storage suite runs on both backends: a `database` on a fresh SQLite file and on a fresh PostgreSQL database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.database import Database, Statement
from bot.storage.opening import open_database

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend the test runs on (each test of the suite runs once on each)."""
    return str(request.param)


@pytest.fixture
def database_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """Where a fresh database of the test's backend lives: a new SQLite file, or a new PostgreSQL database's URL."""
    if backend == "sqlite":
        return tmp_path / "test.sqlite3"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def database(database_target: Path | str) -> AsyncIterator[Database]:
    """A migrated, empty database of the test's backend, closed after the test."""
    opened = await open_database(database_target)
    try:
        yield opened
    finally:
        await opened.close()


async def set_thread(database: Database, game_id: int, thread_id: int, parent_id: int) -> None:
    """Put a stored game in a thread opened from `parent_id` (as Start does when it opens one)."""
    await database.write(
        [
            Statement(
                "INSERT INTO game_threads (game_id, thread_id, parent_id) VALUES (?, ?, ?)",
                (game_id, thread_id, parent_id),
            )
        ]
    )
