"""V003 on an old file: duplicate open games in a channel are resolved, then one open game per channel holds."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.storage.database import latest_version, migrate, open_database
from bot.storage.games import ChannelBusy, GameStore, SeatRecord

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


async def an_old_database(path: Path) -> None:
    """A file as Conductor left it with V001 and V002 only, holding duplicate open games and their timers."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, up_to=2) == [1, 2]
        async with db.execute("SELECT name FROM sqlite_master WHERE name = 'games_one_open_per_channel'") as c:
            assert await c.fetchone() is None
        for game_id, channel, status, version in OLD_GAMES:
            await db.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, version,"
                " created_at, updated_at) VALUES (?, 'dice', 1, ?, 10, ?, '{}', 1, ?, 'then', 'then')",
                (game_id, channel, status, version),
            )
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, 10, 'Ann')", (game_id,))
        for game_id in (2, 4):
            await db.execute(
                "INSERT INTO turn_timers (game_id, seat, stage, started_at, due_at) VALUES (?, 0, 'timeout', 1, 2)",
                (game_id,),
            )
            await db.execute("INSERT INTO missed_turns (game_id, seat, missed) VALUES (?, 0, 1)", (game_id,))


async def test_v003_closes_older_duplicate_open_games_and_keeps_the_newest(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    await an_old_database(path)
    db = await open_database(path)
    try:
        async with db.execute("SELECT id, status, version, shown_version FROM games ORDER BY id") as cursor:
            rows = {row[0]: (row[1], row[2], row[3]) async for row in cursor}
        async with db.execute("SELECT game_id FROM turn_timers UNION ALL SELECT game_id FROM missed_turns") as c:
            timed = sorted([row[0] async for row in c])
        [(newest,)] = await db.execute_fetchall("SELECT MAX(version) FROM schema_migrations")
        [(user_version,)] = await db.execute_fetchall("PRAGMA user_version")
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
    assert newest == user_version == latest_version() >= 3


async def test_after_v003_the_database_refuses_a_second_open_game_in_a_channel(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    await an_old_database(path)
    db = await open_database(path)
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
    finally:
        await db.close()


async def test_a_fresh_file_gets_the_one_open_game_index_and_the_new_indexes(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "fresh.sqlite3")
    try:
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'index'") as cursor:
            indexes = {row[0] async for row in cursor}
        async with db.execute("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM seats WHERE user_id = ?", (1,)) as cursor:
            plan = " ".join([str(row[-1]) async for row in cursor])
    finally:
        await db.close()
    assert {"games_one_open_per_channel", "games_by_guild", "games_by_host", "seats_by_user", "games_unshown"} <= (
        indexes
    )
    assert "seats_by_user" in plan
