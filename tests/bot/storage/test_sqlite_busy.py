"""A SQLite file another program holds locked: a write waits for it in short tries, so the reads asked meanwhile are
answered (the lock does not hold them up), and the write goes through once the other program lets go."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage.database import Statement
from bot.storage.opening import open_database
from tests.bot.storage.test_database_checks import a_database_with_data


async def test_reads_are_answered_while_a_write_waits_for_another_programs_lock(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    await a_database_with_data(path, rows=3)
    db = await open_database(path, busy_timeout_ms=600_000)  # the write may wait as long as the test runs
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        tries = db.stats.handoffs
        write = asyncio.create_task(db.write([Statement("UPDATE games SET version = version + 1")]))
        async with asyncio.timeout(60):  # a failure limit: a waiting write gives the thread back between tries
            while db.stats.handoffs < tries + 2:
                await asyncio.sleep(0.01)
        assert await db.fetchval("SELECT COUNT(*) FROM games") == 3
        assert not write.done(), "the read was answered while the write still waited"
        holder.execute("ROLLBACK")
        assert await write == [3]
        assert await db.fetchval("SELECT MIN(version) FROM games") == 2
    finally:
        holder.close()
        await db.close()
