"""Fixtures shared by the bot's tests: a real SQLite file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.storage.opening import open_database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database in a fresh file, closed after the test."""
    database = await open_database(tmp_path / "test.sqlite3")
    try:
        yield database
    finally:
        await database.close()
