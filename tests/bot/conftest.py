"""Fixtures shared by the bot's tests: a real SQLite file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.database import open_database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """A migrated database in a fresh file, closed after the test (an open one would hang pytest's exit)."""
    connection = await open_database(tmp_path / "test.sqlite3")
    try:
        yield connection
    finally:
        await connection.close()
