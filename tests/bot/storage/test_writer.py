"""One write discipline for every table: one writer per connection, one IMMEDIATE transaction per write."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.places import PlaceStore
from bot.storage.timers import TimerStore


async def test_every_store_on_a_connection_shares_its_one_writer(db: aiosqlite.Connection) -> None:
    games = GameStore(db)
    shared = Database.of(db)
    assert games.database is shared
    assert GuildSettingsStore(db).database is shared
    assert TimerStore(db, games).database is shared and PlaceStore(db, games).database is shared
    assert GameStore(db).database is shared  # a second store on the same connection too


async def test_a_writer_given_explicitly_is_used_and_must_belong_to_the_connection(
    db: aiosqlite.Connection,
) -> None:
    mine = Database(db)
    games = GameStore(db, mine)
    assert games.database is mine
    assert GuildSettingsStore(db, mine).database is mine
    assert TimerStore(db, games).database is mine and PlaceStore(db, games).database is mine
    async with aiosqlite.connect(":memory:") as other:
        with pytest.raises(ValueError, match="another connection"):
            GuildSettingsStore(other, mine)


async def test_guild_settings_wait_for_a_game_write_in_progress(db: aiosqlite.Connection) -> None:
    games, settings = GameStore(db), GuildSettingsStore(db)
    inside, release = asyncio.Event(), asyncio.Event()

    async def long_game_write() -> None:
        async with games.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (1, '{}', 'x')")
            inside.set()
            await release.wait()
            raise RuntimeError("the game write fails and rolls back")

    writer = asyncio.create_task(long_game_write())
    await inside.wait()
    put = asyncio.create_task(settings.put(2, {"language": "ru"}))
    await asyncio.sleep(0.05)
    assert not put.done()  # before this change it wrote into the other task's open transaction
    release.set()
    with pytest.raises(RuntimeError):
        await writer
    await put
    assert await settings.get(1) == {}  # the failed transaction took only its own write with it
    assert await settings.get(2) == {"language": "ru"}


async def test_a_failed_transaction_rolls_back_and_frees_the_writer(db: aiosqlite.Connection) -> None:
    writer = Database.of(db)
    with pytest.raises(KeyError):
        async with writer.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (1, '{}', 'x')")
            raise KeyError("boom")
    assert not db.in_transaction
    async with writer.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (2, '{}', 'x')")
    async with db.execute("SELECT guild_id FROM guild_settings") as cursor:
        assert [row[0] async for row in cursor] == [2]


async def test_a_transaction_inside_another_is_refused_not_deadlocked(db: aiosqlite.Connection) -> None:
    games, settings = GameStore(db), GuildSettingsStore(db)
    with pytest.raises(RuntimeError, match="inside another"):
        async with asyncio.timeout(2), games.transaction():  # a timeout that, unlike wait_for, keeps the task
            await settings.put(1, {})
    assert not db.in_transaction
    await settings.put(1, {"ok": True})
    assert await settings.get(1) == {"ok": True}


async def test_a_cancelled_write_rolls_back(db: aiosqlite.Connection) -> None:
    writer = Database.of(db)
    inside = asyncio.Event()

    async def write_then_hang() -> None:
        async with writer.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (1, '{}', 'x')")
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(write_then_hang())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not db.in_transaction
    assert await GuildSettingsStore(db).get(1) == {}
