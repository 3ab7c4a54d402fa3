"""Backups of the SQLite store: taken while games are played, restored whole, refused where they would do harm."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.services.backups import FIRST_AFTER, BackupSchedule
from bot.services.lobby import LobbyService
from bot.shards import ShardSet
from bot.storage.backup import backup_name, backups, restore, take_backup
from bot.storage.database import DatabaseUnusable, Statement
from bot.storage.games import GameStore
from bot.storage.opening import open_database
from rules.dice import DiceEngine
from tests.bot.services.game_parts import game_parts

GAMES = 6
MOVES = 30
AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


async def test_a_backup_taken_while_games_are_played_restores_to_a_store_that_replays_every_game(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.sqlite3"
    db = await open_database(database)
    parts = game_parts(GameStore(db), {"dice": DiceEngine()}, bot_move_delay=0)
    engine = DiceEngine()
    ids = []
    for n in range(GAMES):
        lobby = await LobbyService(parts.games, new_seed=lambda n=n: 100 + n).open_lobby(
            game="dice", guild_id=9, channel_id=10 + n, host_id=1, host_name="Ann"
        )
        await LobbyService(parts.games).join(lobby.id, 2, "Ben")
        await LobbyService(parts.games).start(lobby.id, 1)
        ids.append(lobby.id)
    playing = asyncio.Event()
    done = asyncio.Event()

    async def play(game_id: int) -> None:
        rng = random.Random(game_id)
        for _ in range(MOVES):
            state = parts.games.state(game_id)
            if not engine.to_act(state):  # type: ignore[arg-type]
                break
            seat = min(engine.to_act(state))  # type: ignore[arg-type]
            await parts.moves.act(game_id, (1, 2)[seat], engine.bot_action(state, seat, rng))  # type: ignore[arg-type]
            playing.set()

    async def back_up() -> list[Path]:
        taken = []
        await playing.wait()
        while not done.is_set():  # copies while the moves go on, each in a thread as the schedule takes them
            at = AT + timedelta(seconds=len(taken))
            taken.append(await asyncio.to_thread(take_backup, database, tmp_path / "backups", at=at))
        return taken

    copier = asyncio.create_task(back_up())
    await asyncio.gather(*(play(game_id) for game_id in ids))
    done.set()
    taken = await copier
    await parts.close()
    await db.close()

    assert taken, "at least one backup was taken while the games were played"
    restored = tmp_path / "restored.sqlite3"
    assert restore(taken[0], restored) is None, "nothing was there to keep aside"
    copy = await open_database(restored)
    try:
        records = await GameStore(copy).with_status(("active", "finished"))
        assert sorted(r.id for r in records) == sorted(ids)
        for record in records:
            log = await GameStore(copy).actions(record.id)
            assert record.state is not None
            replayed = engine.replay(engine.load_options(record.options), len(record.seats), record.seed, log)
            assert replayed == engine.load_state(record.state), f"game {record.id} replays to its snapshot"
    finally:
        await copy.close()


async def test_restore_is_refused_while_a_bot_holds_the_database_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    db = await open_database(database)
    backup = take_backup(database, tmp_path / "backups", at=AT)
    await db.write(
        [Statement("INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)", (7, "{}", "now"))]
    )
    await db.hold(ShardSet(1, frozenset({0})))
    try:
        with pytest.raises(DatabaseUnusable, match="runs on the database"):
            restore(backup, database)
        assert await db.fetchval("SELECT COUNT(*) FROM guild_settings") == 1
    finally:
        await db.close()
    kept = restore(backup, database, at=AT)
    assert kept is not None and kept.name == "games.sqlite3.before-restore-20261127T120000Z"
    with sqlite3.connect(database) as now, sqlite3.connect(kept) as before:
        assert now.execute("SELECT COUNT(*) FROM guild_settings").fetchone()[0] == 0, "the backup's state"
        assert before.execute("SELECT COUNT(*) FROM guild_settings").fetchone()[0] == 1, "the replaced one kept"


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda path: path.write_text("not a database"), "file is not a database"),
        (lambda path: sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit(), "no Conductor store"),
        (
            lambda path: (
                sqlite3.connect(path)
                .execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'x', 'y')")
                .connection.commit()
            ),
            "newer Conductor",
        ),
    ],
    ids=["not sqlite", "another program's", "newer"],
)
async def test_restore_refuses_a_file_that_is_not_a_whole_backup_this_version_reads(
    tmp_path: Path, damage: object, reason: str
) -> None:
    database = tmp_path / "games.sqlite3"
    await (await open_database(database)).close()
    bad = tmp_path / "bad.sqlite3"
    if "newer" in reason:
        take_backup(database, tmp_path, at=AT).rename(bad)
    damage(bad)  # type: ignore[operator]
    before = database.read_bytes()
    with pytest.raises(DatabaseUnusable, match=reason):
        restore(bad, database)
    assert database.read_bytes() == before


def test_backups_keep_the_newest_and_sort_by_time(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    sqlite3.connect(database).execute("CREATE TABLE schema_migrations (version, name, applied_at)").connection.close()
    folder = tmp_path / "backups"
    for hours in (5, 1, 3):
        take_backup(database, folder, keep=2, at=AT + timedelta(hours=hours))
    assert [p.name for p in backups(folder)] == [
        backup_name(AT + timedelta(hours=3)),
        backup_name(AT + timedelta(hours=5)),
    ], "the two newest by time, not by when they were written"
    assert not list(folder.glob("*.partial"))


def test_the_next_backup_is_due_every_hours_after_the_newest_and_the_first_after_the_start_settles(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "backups"
    schedule = BackupSchedule(tmp_path / "games.sqlite3", folder, every=timedelta(hours=6), keep=3, clock=lambda: AT)
    assert schedule.next_due() == AT + FIRST_AFTER
    folder.mkdir()
    (folder / backup_name(AT - timedelta(hours=2))).touch()
    (folder / "notes.txt").touch()
    assert schedule.next_due() == AT + timedelta(hours=4)


async def test_a_due_backup_is_taken_in_the_background_and_the_oldest_pruned(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    await (await open_database(database)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [folder / backup_name(AT - timedelta(days=days)) for days in (3, 2)]
    for path in old:
        path.touch()
    now = AT + timedelta(days=1)  # a day after the newest: due
    schedule = BackupSchedule(database, folder, every=timedelta(days=1), keep=2, clock=lambda: now)
    expected = [old[1].name, backup_name(now)]
    schedule.start()
    try:
        with contextlib.suppress(TimeoutError):  # a failure limit: the assert below then says what is there
            async with asyncio.timeout(60):  # the new copy appears in its thread before the oldest is pruned
                while [p.name for p in backups(folder)] != expected:
                    await asyncio.sleep(0.01)
    finally:
        await schedule.close()
    assert [p.name for p in backups(folder)] == expected


def test_the_backup_command_copies_the_configured_database_and_refuses_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "games.sqlite3"
    asyncio.run(_created(database))
    monkeypatch.setenv("CONDUCTOR_DATABASE_PATH", str(database))
    monkeypatch.setenv("CONDUCTOR_BACKUP_FOLDER", str(tmp_path / "kept"))
    assert entry.main(["backup"]) == 0
    assert len(backups(tmp_path / "kept")) == 1
    assert "backed up" in capsys.readouterr().out
    monkeypatch.setenv("CONDUCTOR_DATABASE_URL", "postgresql://localhost/conductor")
    assert entry.main(["backup"]) == 2
    assert "pg_dump" in capsys.readouterr().err


async def _created(database: Path) -> None:
    await (await open_database(database)).close()
