"""One write discipline on both backends: a write is one transaction and one hand-off, all or nothing; a move is one
transaction; transactions never interleave and a nested one is refused rather than deadlocked."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.database import Database, RowsNotChanged, Statement, UniqueViolation
from bot.storage.games import GameRecord, GameStore, SeatRecord, StaleVersion
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.timers import TimerStore, TurnTimer
from tests.bot.storage.conftest import set_thread

SETTING = "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, '{}', 'x')"
SNOWFLAKE = 1_234_567_890_123_456_789  # a Discord id: needs 64 bits


async def guilds(database: Database) -> list[int]:
    """The guild ids that have settings stored, in order."""
    return [row["guild_id"] for row in await database.fetch("SELECT guild_id FROM guild_settings ORDER BY guild_id")]


async def a_running_game(store: GameStore, *, channel: int = 2) -> GameRecord:
    """A dice game in play with Ann (seat 0) and a bot player (seat 1)."""
    lobby = await store.create_game(
        game="dice",
        guild_id=SNOWFLAKE,
        channel_id=channel,
        host_id=10,
        options={},
        seed=2**62 + 1,
        seats=[SeatRecord(seat=0, name="Ann", user_id=10), SeatRecord(seat=1, name="Bot", bot_kind="sensible")],
    )
    return await store.start(lobby, lobby.seats, state="{}")


def kind(statement: str) -> str:
    """The first word of a traced statement, upper case (BEGIN, UPDATE, INSERT, COMMIT …)."""
    return statement.split(None, 1)[0].rstrip(";").upper()


def test_every_store_works_on_the_database_it_is_given(database: Database) -> None:
    assert GameStore(database).database is database and GuildSettingsStore(database).database is database
    assert TimerStore(database).database is database


async def test_a_write_returns_each_statements_count_and_commits_them_together(database: Database) -> None:
    counts = await database.write(
        [
            Statement(SETTING, (1,)),
            Statement(SETTING, [(2,), (3,), (4,)], many=True),
            Statement("UPDATE guild_settings SET data = '[]' WHERE guild_id > ?", (2,)),
            Statement("DELETE FROM guild_settings WHERE guild_id = ?", (99,)),
        ]
    )
    assert counts == [1, 3, 2, 0]
    assert await guilds(database) == [1, 2, 3, 4]
    assert await database.write([]) == []


async def test_a_write_rolls_back_entirely_when_one_statement_fails(database: Database) -> None:
    await database.write([Statement(SETTING, (1,))])
    with pytest.raises(UniqueViolation):
        await database.write([Statement(SETTING, (2,)), Statement(SETTING, (1,)), Statement(SETTING, (3,))])
    assert await guilds(database) == [1]


async def test_a_write_rolls_back_entirely_when_a_statement_changes_other_rows_than_expected(
    database: Database,
) -> None:
    with pytest.raises(RowsNotChanged) as error:
        await database.write(
            [
                Statement(SETTING, (1,), expect=1),
                Statement("UPDATE guild_settings SET data = '[]' WHERE guild_id = ?", (7,), expect=1),
            ]
        )
    assert (error.value.index, error.value.count, error.value.expected) == (1, 0, 1)
    assert await guilds(database) == []
    await database.write([Statement(SETTING, (1,), expect=1)])  # the database is usable again
    assert await guilds(database) == [1]


async def test_a_write_is_one_transaction_and_one_hand_off(database: Database) -> None:
    seen: list[str] = []
    stop = database.trace(seen.append)
    before = (database.stats.handoffs, database.stats.transactions, database.stats.statements)
    await database.write([Statement(SETTING, (1,)), Statement(SETTING, [(2,), (3,)], many=True)])
    after = (database.stats.handoffs, database.stats.transactions, database.stats.statements)
    stop()
    assert [kind(s) for s in seen if kind(s) in ("BEGIN", "COMMIT", "ROLLBACK")] == ["BEGIN", "COMMIT"]
    assert [kind(s) for s in seen].count("INSERT") == 3
    assert (after[0] - before[0], after[1] - before[1], after[2] - before[2]) == (1, 1, 3)
    await database.write([Statement(SETTING, (4,))])
    assert len(seen) == 5  # stopped: nothing more reported


async def test_a_move_is_one_transaction_with_its_timers_and_message_ids(database: Database) -> None:
    games, timers = GameStore(database), TimerStore(database)
    record = await a_running_game(games)
    await timers.change(record.id, put=[TurnTimer(record.id, 1, "timeout", 1.0, 50.0)])
    await timers.set_missed(record.id, 0, 2)
    timer = TurnTimer(record.id, 0, "reminder", 100.0, 160.5)
    also = [
        *timers.change_statements(record.id, drop=[1], put=[timer]),
        *timers.missed_statements(record.id, 0, 0),
        games.message_statement(record.id, "turn", record.channel_id, SNOWFLAKE),
        games.shown_statement(record.id, record.version + 1),
    ]
    seen: list[str] = []
    stop = database.trace(seen.append)
    before = (database.stats.handoffs, database.stats.transactions)
    moved = await games.record_action(record, 0, "roll", '{"rolled": true}', finished=False, also=also)
    after = (database.stats.handoffs, database.stats.transactions)
    stop()
    move = ["UPDATE", "INSERT"]  # the version-guarded snapshot, the action
    written = ["DELETE", "INSERT", "DELETE", "INSERT", "UPDATE"]  # timers, missed turns, message id, shown version
    assert [kind(s) for s in seen] == ["BEGIN", *move, *written, "COMMIT"]
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)
    assert moved.version == record.version + 1
    loaded = await games.get(record.id)
    assert loaded is not None and (loaded.version, loaded.shown_version, loaded.state) == (2, 2, '{"rolled": true}')
    assert await games.actions(record.id) == [(0, "roll")]
    assert await timers.timers(record.id) == {0: timer}
    assert await timers.missed(record.id, 0) == 0
    assert await games.get_message(record.id, "turn") == (record.channel_id, SNOWFLAKE)


async def test_a_stale_move_writes_nothing_of_what_came_with_it(database: Database) -> None:
    games, timers = GameStore(database), TimerStore(database)
    record = await a_running_game(games)
    await games.record_action(record, 0, "roll", "{}", finished=False)
    with pytest.raises(StaleVersion):
        await games.record_action(
            record,
            0,
            "roll",
            "{}",
            finished=False,
            also=[
                *timers.change_statements(record.id, put=[TurnTimer(record.id, 0, "timeout", 1.0, 2.0)]),
                games.message_statement(record.id, "turn", 2, 3),
            ],
        )
    assert await timers.timers(record.id) == {} and await games.get_message(record.id, "turn") is None
    assert await games.actions(record.id) == [(0, "roll")]


async def test_a_move_may_bring_its_number_in_the_log(database: Database) -> None:
    games = GameStore(database)
    record = await a_running_game(games)
    record = await games.record_action(record, 0, "roll", "{}", finished=False, seq=1)
    record = await games.record_action(record, 1, "stop", "{}", finished=False)  # counted by the database: 2
    with pytest.raises(UniqueViolation):  # a number already taken: the whole move is refused
        await games.record_action(record, 0, "roll", "{}", finished=False, seq=2)
    record = await games.record_action(record, 0, "add:E", "{}", finished=False, seq=3)
    assert await games.actions(record.id) == [(0, "roll"), (1, "stop"), (0, "add:E")]
    assert (await games.get(record.id)) == record and record.version == 4


async def test_a_failing_statement_that_came_with_a_move_takes_the_move_with_it(database: Database) -> None:
    games = GameStore(database)
    record = await a_running_game(games)
    other = await a_running_game(games, channel=3)
    with pytest.raises(RowsNotChanged) as error:
        await games.record_action(
            record,
            0,
            "roll",
            "{}",
            finished=False,
            also=[Statement("UPDATE games SET host_id = 11 WHERE id = ? AND version = 99", (other.id,), expect=1)],
        )
    assert error.value.index == 2
    assert await games.get(record.id) == record and await games.actions(record.id) == []


async def test_a_unique_violation_names_its_index_and_a_channel_conflict_is_channel_busy(database: Database) -> None:
    games = GameStore(database)
    record = await a_running_game(games)
    with pytest.raises(UniqueViolation) as error:
        await games.replace_seat(record, SeatRecord(seat=1, name="Ann again", user_id=10))
    assert "seats" in error.value.constraint  # PostgreSQL: seats_one_per_user; SQLite: seats.game_id, seats.user_id
    assert await games.get(record.id) == record


async def test_discord_ids_and_seeds_keep_all_64_bits(database: Database) -> None:
    games = GameStore(database)
    record = await a_running_game(games, channel=SNOWFLAKE)
    loaded = await games.get(record.id)
    assert loaded is not None and (loaded.guild_id, loaded.channel_id, loaded.seed) == (SNOWFLAKE, SNOWFLAKE, 2**62 + 1)
    await set_thread(database, record.id, SNOWFLAKE + 1, SNOWFLAKE)
    assert await GameStore(database).open_games_in_threads_of(SNOWFLAKE) == [record.id]


async def test_a_transaction_reads_then_writes_and_commits(database: Database) -> None:
    await database.write([Statement(SETTING, [(1,), (2,)], many=True)])
    async with database.transaction() as transaction:
        rows = await transaction.fetch("SELECT guild_id FROM guild_settings ORDER BY guild_id")
        first = await transaction.fetchrow("SELECT guild_id, data FROM guild_settings WHERE guild_id = ?", (1,))
        assert first is not None and dict(first) == {"guild_id": 1, "data": "{}"}
        assert await transaction.fetchval("SELECT COUNT(*) FROM guild_settings") == len(rows) == 2
        assert await transaction.executemany(SETTING, [(3,), (4,)]) == 2
        assert await transaction.execute("DELETE FROM guild_settings WHERE guild_id < ?", (3,)) == 2
    assert await guilds(database) == [3, 4]
    with pytest.raises(RuntimeError, match="closed"):
        await transaction.execute(SETTING, (5,))


async def test_guild_settings_wait_for_a_game_write_in_progress(database: Database) -> None:
    games, settings = GameStore(database), GuildSettingsStore(database)
    inside, release, putting = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def long_game_write() -> None:
        async with games.transaction() as transaction:
            await transaction.execute(SETTING, (1,))
            inside.set()
            await release.wait()
            raise RuntimeError("the game write fails and rolls back")

    async def put_settings() -> None:
        putting.set()  # and in the same step, before the test goes on, it asks for the writer
        await settings.put(2, {"language": "ru"})

    seen: list[str] = []
    stop = database.trace(seen.append)
    writer = asyncio.create_task(long_game_write())
    await inside.wait()
    put = asyncio.create_task(put_settings())
    await putting.wait()
    if database.dialect == "sqlite":  # one writer: it waits (PostgreSQL runs other rows' writes side by side)
        assert not put.done()
    release.set()
    with pytest.raises(RuntimeError):
        await writer
    await put
    stop()
    if database.dialect == "sqlite":
        transactions = [kind(s) for s in seen if kind(s) in ("BEGIN", "COMMIT", "ROLLBACK")]
        assert transactions == ["BEGIN", "ROLLBACK", "BEGIN", "COMMIT"]  # not inside the other one, as it once did
    assert await settings.get(1) == {}  # the failed transaction took only its own write with it
    assert await settings.get(2) == {"language": "ru"}


async def test_a_failed_transaction_rolls_back_and_frees_the_writer(database: Database) -> None:
    with pytest.raises(KeyError):
        async with database.transaction() as transaction:
            await transaction.execute(SETTING, (1,))
            raise KeyError("boom")
    async with database.transaction() as transaction:
        await transaction.execute(SETTING, (2,))
    assert await guilds(database) == [2]


async def test_a_transaction_inside_another_is_refused_not_deadlocked(database: Database) -> None:
    games, settings = GameStore(database), GuildSettingsStore(database)
    with pytest.raises(RuntimeError, match="inside another"):
        async with asyncio.timeout(2), games.transaction():  # a timeout that, unlike wait_for, keeps the task
            await settings.put(1, {})
    with pytest.raises(RuntimeError, match="inside another"):
        async with asyncio.timeout(2), games.transaction(), database.transaction():
            pass
    await settings.put(1, {"ok": True})
    assert await settings.get(1) == {"ok": True}


async def test_a_cancelled_write_rolls_back(database: Database) -> None:
    inside = asyncio.Event()

    async def write_then_hang() -> None:
        async with database.transaction() as transaction:
            await transaction.execute(SETTING, (1,))
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(write_then_hang())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await GuildSettingsStore(database).get(1) == {}
    await database.write([Statement(SETTING, (1,))])  # and the writer is free
    assert await guilds(database) == [1]
