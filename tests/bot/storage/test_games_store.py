"""Storage on a real database (SQLite file and PostgreSQL): migrations, the lobby-to-finish life of a game, the version
guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.database import Database, UniqueViolation, migrations
from bot.storage.games import GameRecord, GameStore, SeatRecord, StaleVersion
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.opening import open_database


async def test_migrations_apply_to_an_empty_database_once(database_target: Path | str) -> None:
    db = await open_database(database_target)
    await db.close()
    db = await open_database(database_target)  # a second start applies nothing again
    try:
        assert await db.migrate() == []
        applied = [row["version"] for row in await db.fetch("SELECT version FROM schema_migrations ORDER BY version")]
        mode = await db.fetchval("PRAGMA journal_mode") if db.dialect == "sqlite" else "wal"
    finally:
        await db.close()
    assert applied == [number for number, _, _ in migrations(db.dialect)]
    assert applied[0] == 1
    assert mode == "wal"


def test_both_dialects_have_the_same_migrations() -> None:
    assert [(n, name) for n, name, _ in migrations("sqlite")] == [(n, name) for n, name, _ in migrations("postgresql")]


async def test_a_game_lives_from_lobby_to_finish_and_survives_reopening(database_target: Path | str) -> None:
    path = database_target
    db = await open_database(path)
    store = GameStore(db)
    record = await store.create_game(
        game="dice",
        guild_id=1,
        channel_id=2,
        host_id=10,
        options={"target": 100},
        seed=42,
        seats=[SeatRecord(seat=0, name="Ann", user_id=10)],
    )
    assert (record.status, record.version, record.seat_of(10)) == ("lobby", 0, 0)
    record = await store.update_lobby(record, [*record.seats, SeatRecord(seat=1, name="B", bot_kind="sensible")])
    record = await store.start(record, record.seats, state='{"s": 0}')
    record = await store.record_action(record, 0, "roll", '{"s": 1}', finished=False)
    record = await store.record_action(record, 1, "stop", '{"s": 2}', finished=True)
    await store.database.write([store.message_statement(record.id, "turn", 2, 999)])
    await db.close()

    db = await open_database(path)
    store = GameStore(db)
    loaded = await store.get(record.id)
    assert loaded is not None
    assert (loaded.status, loaded.version, loaded.state) == ("finished", 4, '{"s": 2}')
    assert [s.bot_kind for s in loaded.seats] == [None, "sensible"]
    assert await store.actions(record.id) == [(0, "roll"), (1, "stop")]
    assert await store.get_message(record.id, "turn") == (2, 999)
    assert await store.with_status() == []
    await db.close()


async def ann_hosts_a_lobby(store: GameStore) -> GameRecord:
    """A dice lobby with Ann in the first seat."""
    return await store.create_game(
        game="dice",
        guild_id=None,
        channel_id=2,
        host_id=10,
        options={},
        seed=1,
        seats=[SeatRecord(seat=0, name="Ann", user_id=10)],
    )


async def test_a_write_from_an_old_version_is_refused_and_changes_nothing(database: Database) -> None:
    store = GameStore(database)
    record = await ann_hosts_a_lobby(store)
    started = await store.start(record, record.seats, state="{}")
    await store.record_action(started, 0, "roll", "{}", finished=False)
    with pytest.raises(StaleVersion):
        await store.record_action(started, 0, "roll", "{}", finished=False)
    assert await store.actions(record.id) == [(0, "roll")]


async def test_a_user_holds_one_seat_per_game(database: Database) -> None:
    store = GameStore(database)
    record = await ann_hosts_a_lobby(store)
    with pytest.raises(UniqueViolation, match="seats"):
        await store.update_lobby(record, [*record.seats, SeatRecord(seat=1, name="Ann again", user_id=10)])
    assert (await store.get(record.id)).seats == record.seats  # type: ignore[union-attr]


async def test_guild_settings_round_trip(database: Database) -> None:
    settings = GuildSettingsStore(database)
    assert await settings.get(5) == {}
    await settings.put(5, {"language": "ru", "dice": {"target": 150}})
    assert await settings.get(5) == {"language": "ru", "dice": {"target": 150}}


async def test_the_log_is_counted_per_game_and_read_up_to_a_point(database: Database) -> None:
    store = GameStore(database)
    lobby = await ann_hosts_a_lobby(store)
    first = await store.start(lobby, lobby.seats, "{}")
    elsewhere = await store.create_game(
        game="dice", guild_id=None, channel_id=3, host_id=10, options={}, seed=1, seats=lobby.seats
    )
    second = await store.start(elsewhere, elsewhere.seats, "{}")
    for action in ("roll", "add:E", "stop"):
        first = await store.record_action(first, 0, action, "{}", finished=False)
    second = await store.record_action(second, 0, "roll", "{}", finished=False)
    assert await store.action_counts() == {first.id: 3, second.id: 1}
    assert await store.action_counts(second.id) == {second.id: 1}
    assert await store.actions(first.id, upto=2) == [(0, "roll"), (0, "add:E")]
