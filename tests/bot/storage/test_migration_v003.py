"""V003 on an old database: duplicate open games in a channel are resolved, then one open game per channel holds
(on both backends: the PostgreSQL V003 is the same migration in its dialect)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.database import Database, Statement, latest_version
from bot.storage.games import ChannelBusy, GameStore, SeatRecord
from bot.storage.opening import open_database

# (id, channel, status, version) as an old Conductor could leave them after the race of two /newgame at once
OLD_GAMES = [
    (1, 5, "lobby", 2),  # older duplicate lobby in channel 5: cancelled
    (2, 5, "active", 7),  # older duplicate game in play in channel 5: abandoned
    (3, 5, "lobby", 1),  # newest open game of channel 5: kept
    (4, 6, "active", 4),  # the only open game of channel 6: kept
    (5, 6, "finished", 9),  # closed: untouched
    (6, 7, "active", 3),  # older duplicate in channel 7: abandoned
    (7, 7, "active", 5),  # newest of channel 7: kept
    (8, 7, "cancelled", 1),  # closed: untouched
]
NEW_INDEXES = {"games_one_open_per_channel", "games_by_guild", "games_by_host", "seats_by_user", "games_unshown"}


async def indexes(db: Database) -> set[str]:
    """The names of the database's indexes."""
    if db.dialect == "sqlite":
        return {row["name"] for row in await db.fetch("SELECT name FROM sqlite_master WHERE type = 'index'")}
    return {row["indexname"] for row in await db.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}


async def an_old_database(target: Path | str) -> None:
    """A database as Conductor left it with V001 and V002 only, holding duplicate open games and their timers."""
    db = await open_database(target, up_to=2)
    try:
        assert await db.schema_version() == 2
        assert "games_one_open_per_channel" not in await indexes(db)
        with_ids = " OVERRIDING SYSTEM VALUE" if db.dialect == "postgresql" else ""  # games.id is an identity there
        timed = [(game_id,) for game_id in (2, 4)]
        statements = [
            Statement(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, version,"
                f" created_at, updated_at){with_ids} VALUES (?, 'dice', 1, ?, 10, ?, '{{}}', 1, ?, 'then', 'then')",
                OLD_GAMES,
                many=True,
            ),
            Statement(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, 10, 'Ann')",
                [(game_id,) for game_id, *_ in OLD_GAMES],
                many=True,
            ),
            Statement(
                "INSERT INTO turn_timers (game_id, seat, stage, started_at, due_at) VALUES (?, 0, 'timeout', 1, 2)",
                timed,
                many=True,
            ),
            Statement("INSERT INTO missed_turns (game_id, seat, missed) VALUES (?, 0, 1)", timed, many=True),
        ]
        if db.dialect == "postgresql":  # the identity goes on after the ids written by hand
            statements.append(Statement("SELECT setval(pg_get_serial_sequence('games', 'id'), 8)"))
        await db.write(statements)
    finally:
        await db.close()


async def test_v003_closes_older_duplicate_open_games_and_keeps_the_newest(database_target: Path | str) -> None:
    await an_old_database(database_target)
    db = await open_database(database_target)
    try:
        found = await db.fetch("SELECT id, status, version, shown_version FROM games ORDER BY id")
        rows = {row["id"]: (row["status"], row["version"], row["shown_version"]) for row in found}
        timers = await db.fetch("SELECT game_id FROM turn_timers UNION ALL SELECT game_id FROM missed_turns")
        timed = sorted(row["game_id"] for row in timers)
        newest = await db.fetchval("SELECT MAX(version) FROM schema_migrations")
        schema_version = await db.schema_version()
    finally:
        await db.close()
    assert rows == {
        1: ("cancelled", 3, 3),
        2: ("abandoned", 8, 8),
        3: ("lobby", 1, 1),
        4: ("active", 4, 4),
        5: ("finished", 9, 9),
        6: ("abandoned", 4, 4),
        7: ("active", 5, 5),
        8: ("cancelled", 1, 1),
    }
    assert timed == [4, 4]  # the abandoned game's timers went with it
    assert newest == schema_version == latest_version() >= 3


async def test_v003_sets_user_version_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    await an_old_database(path)
    db = await open_database(path)
    try:
        assert await db.fetchval("PRAGMA user_version") == latest_version()
    finally:
        await db.close()


async def test_after_v003_the_database_refuses_a_second_open_game_in_a_channel(database_target: Path | str) -> None:
    await an_old_database(database_target)
    db = await open_database(database_target)
    try:
        store = GameStore(db)
        with pytest.raises(ChannelBusy) as busy:
            await store.create_game(
                game="dice",
                guild_id=1,
                channel_id=5,
                host_id=11,
                options={},
                seed=1,
                seats=[SeatRecord(seat=0, name="Ben", user_id=11)],
            )
        assert busy.value.game_id == 3
        assert [r.id for r in await store.unshown()] == []  # everything stored before V003 counts as shown
        assert (await store.get(4)).shown_version == 4  # type: ignore[union-attr]
        fresh = await store.create_game(game="dice", guild_id=1, channel_id=8, host_id=11, options={}, seed=1, seats=[])
        assert fresh.id > 8  # after the old ids (PostgreSQL may skip one: the refused insert drew it)
    finally:
        await db.close()


async def test_a_fresh_database_gets_the_one_open_game_index_and_the_new_indexes(database: Database) -> None:
    assert await indexes(database) >= NEW_INDEXES


async def test_a_fresh_sqlite_file_looks_players_up_by_the_seat_index(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "fresh.sqlite3")
    try:
        steps = await db.fetch("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM seats WHERE user_id = ?", (1,))
    finally:
        await db.close()
    assert "seats_by_user" in " ".join(str(row["detail"]) for row in steps)
