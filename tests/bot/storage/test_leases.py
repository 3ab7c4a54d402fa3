"""A process's lease on its shards: no two processes drive the same servers' games through one store."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.shards import EVERY_SHARD, ShardSet
from bot.storage.database import Database, DatabaseUnusable, LeaseLost
from bot.storage.games import GameRecord, GameStore, SeatRecord
from bot.storage.opening import open_database
from bot.storage.postgres import LEASE_LOCKS, TAKEN_OVER


@asynccontextmanager
async def opened(target: Path | str) -> AsyncIterator[Database]:
    """Another process's view of the same store: its own connections."""
    database = await open_database(target)
    try:
        yield database
    finally:
        await database.close()


async def terminate_lease(url: str, shard: int = 0) -> None:
    """End the session holding a shard's lease, as an operator's pg_terminate_backend (or a failover) does."""
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1"
            " AND objid = $2 AND objsubid = 2",
            LEASE_LOCKS,
            shard,
        )
    finally:
        await admin.close()


async def take_over(url: str) -> None:
    """Raise every shard's fencing number as a process taking the shards would (while the holder's connection lives
    on, as after a network partition that only the server noticed)."""
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("UPDATE shard_leases SET fence = fence + 1")
    finally:
        await admin.close()


async def until_let_go(url: str) -> None:
    """Wait until no session holds a shard's lock (the server ends a session its client dropped soon, not at once)."""
    admin = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(30):
            while await admin.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objsubid = 2",
                LEASE_LOCKS,
            ):
                await asyncio.sleep(0.01)
    finally:
        await admin.close()


def watched(database: Database) -> tuple[asyncio.Event, list[str]]:
    """An event set when the database says its lease ended, and the reasons it gave."""
    lost, reasons = asyncio.Event(), []

    def told(reason: str) -> None:
        reasons.append(reason)
        lost.set()

    database.watch_lease(told)
    return lost, reasons


async def running_game(store: GameStore) -> GameRecord:
    """A dice game of two people, started."""
    lobby = await store.create_game(
        game="dice",
        guild_id=1,
        channel_id=2,
        host_id=10,
        options={},
        seed=1,
        seats=[SeatRecord(seat=0, name="Ann", user_id=10), SeatRecord(seat=1, name="Ben", user_id=11)],
    )
    return await store.start(lobby, lobby.seats, state='{"s": 0}')


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


async def test_a_terminated_lease_is_noticed_at_once_and_its_writes_are_refused_while_another_process_drives(
    postgres_url: str,
) -> None:
    first = await open_database(postgres_url)
    try:
        await first.hold(EVERY_SHARD)
        lost, reasons = watched(first)
        store = GameStore(first)
        record = await store.record_action(await running_game(store), 0, "roll", '{"s": 1}', finished=False)

        await terminate_lease(postgres_url)
        async with asyncio.timeout(30):
            await lost.wait()
        assert "pg_terminate_backend" in reasons[0]
        with pytest.raises(LeaseLost):
            await store.record_action(record, 1, "roll", '{"s": 2}', finished=False)

        async with opened(postgres_url) as second:
            await second.hold(EVERY_SHARD)  # the shard is free again: another process takes it
            driver = GameStore(second)
            moved = await driver.record_action(record, 1, "roll", '{"s": 2}', finished=False)
            with pytest.raises(LeaseLost):
                await store.set_status(moved, "abandoned")
            with pytest.raises(LeaseLost):
                await store.stopped_cleanly(EVERY_SHARD, "2100-01-01T00:00:00.000+00:00")
            assert await driver.get(record.id) == moved
            assert await driver.actions(record.id) == [(0, "roll"), (1, "roll")]
    finally:
        await first.close()  # quietly, though its lease is gone
    assert len(reasons) == 1


async def test_a_shard_taken_over_refuses_the_old_holders_writes_on_the_server(postgres_url: str) -> None:
    async with opened(postgres_url) as first:
        await first.hold(EVERY_SHARD)
        lost, reasons = watched(first)
        store = GameStore(first)
        record = await running_game(store)
        await take_over(postgres_url)
        with pytest.raises(LeaseLost):
            await store.record_action(record, 0, "roll", '{"s": 1}', finished=False)
        assert lost.is_set() and reasons == [TAKEN_OVER]
        assert await store.get(record.id) == record
        await until_let_go(postgres_url)  # the lease's connection was let go: another process may take the shard


async def test_the_heartbeat_notices_a_shard_taken_over_and_lets_the_shard_go(postgres_url: str) -> None:
    async with opened(postgres_url) as first:
        first.heartbeat_seconds = 0.01  # type: ignore[attr-defined]
        await first.hold(EVERY_SHARD)
        lost, reasons = watched(first)
        await take_over(postgres_url)
        async with asyncio.timeout(30):
            await lost.wait()
        assert reasons == [TAKEN_OVER]
        await until_let_go(postgres_url)


async def test_each_taking_of_a_shard_raises_its_fencing_number(postgres_url: str) -> None:
    for _ in range(3):
        async with opened(postgres_url) as database:
            await database.hold(ShardSet(2, frozenset({0, 1})))
    async with opened(postgres_url) as database:
        rows = await database.fetch("SELECT shard, fence FROM shard_leases ORDER BY shard")
    assert [(row["shard"], row["fence"]) for row in rows] == [(0, 3), (1, 3)]


async def test_a_sqlite_store_fences_nothing(tmp_path: Path) -> None:
    async with opened(tmp_path / "games.sqlite3") as database:
        await database.hold(EVERY_SHARD)
        assert database.fence() == []
