"""A process's lease on its shards: no two processes drive the same servers' games through one store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.shards import ShardSet
from bot.storage.database import Database, DatabaseUnusable, open_database


@asynccontextmanager
async def opened(target: Path | str) -> AsyncIterator[Database]:
    """Another process's view of the same store: its own connections."""
    database = await open_database(target)
    try:
        yield database
    finally:
        await database.close()


async def test_a_shard_held_by_one_process_is_refused_to_another_until_it_lets_go(database_target: Path | str) -> None:
    everything = ShardSet()
    async with opened(database_target) as first:
        await first.hold(everything)
        async with opened(database_target) as second:
            with pytest.raises(DatabaseUnusable, match="another Conductor process"):
                await second.hold(everything)
    async with opened(database_target) as restarted:
        await restarted.hold(everything)  # the first closed (or died): its lease went with its connection


async def test_processes_holding_different_shards_share_a_postgresql_store(postgres_url: str) -> None:
    async with opened(postgres_url) as first, opened(postgres_url) as second:
        await first.hold(ShardSet(2, frozenset({0})))
        await second.hold(ShardSet(2, frozenset({1})))
        async with opened(postgres_url) as third:
            with pytest.raises(DatabaseUnusable, match="shard 1 of 2 is run by another Conductor process"):
                await third.hold(ShardSet(2, frozenset({1})))


async def test_a_process_counting_other_shards_than_the_running_ones_is_refused(postgres_url: str) -> None:
    async with opened(postgres_url) as first, opened(postgres_url) as second:
        await first.hold(ShardSet(2, frozenset({0})))
        with pytest.raises(DatabaseUnusable, match="runs with 2 shards, this one with 3"):
            await second.hold(ShardSet(3, frozenset({2})))


async def test_a_sqlite_store_serves_one_process_holding_every_shard(tmp_path: Path) -> None:
    async with opened(tmp_path / "games.sqlite3") as database:
        with pytest.raises(DatabaseUnusable, match="CONDUCTOR_DATABASE_URL"):
            await database.hold(ShardSet(2, frozenset({0})))
        await database.hold(ShardSet(2, frozenset({0, 1})))
