"""The hash of the slash commands last synced, per application and scope, on both backends."""

from __future__ import annotations

from bot.storage.command_syncs import CommandSyncStore
from bot.storage.database import Database


async def test_nothing_was_synced_in_a_fresh_database(database: Database) -> None:
    assert await CommandSyncStore(database).last(1, "global") is None


async def test_a_sync_is_remembered_per_application_and_scope_and_replaced_by_the_next(database: Database) -> None:
    store = CommandSyncStore(database)
    application, other_application, guild = 1 << 60, 2, str(1 << 62)
    await store.record(application, "global", "a" * 64)
    await store.record(application, guild, "b" * 64)
    await store.record(other_application, "global", "c" * 64)
    first = await store.last(application, "global")
    await store.record(application, "global", "d" * 64)
    again = await store.last(application, "global")
    assert first is not None and first.hash == "a" * 64 and first.synced_at
    assert again is not None and again.hash == "d" * 64 and again.synced_at
    guild_sync, other_sync = await store.last(application, guild), await store.last(other_application, "global")
    assert guild_sync is not None and guild_sync.hash == "b" * 64
    assert other_sync is not None and other_sync.hash == "c" * 64
    assert await store.last(other_application, guild) is None
