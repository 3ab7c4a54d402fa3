"""The timer and thread tables on both backends: migrated from empty, round trips, and lookups."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.games import GameStore, SeatRecord
from bot.storage.timers import TimerStore, TurnTimer
from tests.bot.storage.conftest import set_thread


async def new_game(store: GameStore, *, channel: int, user: int) -> int:
    record = await store.create_game(
        game="dice",
        guild_id=1,
        channel_id=channel,
        host_id=user,
        options={},
        seed=1,
        seats=[SeatRecord(seat=0, name="Ann", user_id=user)],
    )
    return record.id


async def test_an_empty_database_is_migrated_to_the_timer_tables(database: Database) -> None:
    if database.dialect == "sqlite":
        found = await database.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        found = await database.fetch("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")
    tables = {row["name"] for row in found}
    versions = [
        row["version"] for row in await database.fetch("SELECT version FROM schema_migrations ORDER BY version")
    ]
    assert {"game_policies", "game_threads", "turn_timers", "missed_turns"} <= tables
    assert versions[:2] == [1, 2]


async def test_timers_round_trip(database: Database) -> None:
    games = GameStore(database)
    store = TimerStore(database)
    game_id = await new_game(games, channel=5, user=7)
    late, early = TurnTimer(game_id, 0, "timeout", 10.0, 300.0), TurnTimer(game_id, 1, "reminder", 10.0, 100.0)
    await store.change(game_id, put=[late, early])
    assert await store.timers(game_id) == {0: late, 1: early}
    assert sorted(await store.all_timers(), key=lambda t: t.due_at) == [early, late]
    moved = TurnTimer(game_id, 1, "timeout", 10.0, 400.0)
    await store.change(game_id, drop=[0], put=[moved])
    assert await store.timers(game_id) == {1: moved}
    await store.set_missed(game_id, 1, 2)
    assert await store.missed(game_id, 1) == 2 and await store.missed(game_id, 0) == 0
    await store.set_policy(game_id, {"reminder_minutes": 3})
    assert await store.policy(game_id) == {"reminder_minutes": 3}
    await store.clear(game_id)
    assert await store.timers(game_id) == {} and await store.missed(game_id, 1) == 0 and await store.all_timers() == []


async def test_every_timer_and_missed_turn_is_read_at_once_and_nothing_is_written_for_no_change(
    database: Database,
) -> None:
    games = GameStore(database)
    store = TimerStore(database)
    first, second = await new_game(games, channel=5, user=7), await new_game(games, channel=6, user=8)
    timers = [TurnTimer(second, 0, "paused", 1.0, 9.0), TurnTimer(first, 1, "timeout", 1.0, 5.0)]
    await store.change(first, put=[timers[1]])
    await store.change(second, put=[timers[0]])
    await store.set_missed(first, 1, 3)
    await store.set_missed(second, 0, 1)
    assert await store.all_timers() == [timers[1], timers[0]]  # by game, then seat
    assert await store.all_missed() == {(first, 1): 3, (second, 0): 1}
    assert store.change_statements(first) == [] and store.missed_statements(first, 1, 0)[0].sql.startswith("DELETE")
    before = database.stats.handoffs
    await store.change(first)
    assert database.stats.handoffs == before
    await database.write(store.clear_statements(first))
    assert await store.all_timers() == [timers[0]] and await store.all_missed() == {(second, 0): 1}


async def test_open_games_are_found_by_player_and_by_the_parent_of_their_thread(database: Database) -> None:
    games = GameStore(database)
    in_channel = await new_game(games, channel=5, user=7)
    in_thread = await new_game(games, channel=900, user=8)
    await set_thread(database, in_thread, 900, 5)
    assert await games.thread_of(in_thread) == 900 and await games.thread_of(in_channel) is None
    assert await games.open_games_of(8) == [in_thread] and await games.open_games_of(8, "ticket-to-ride") == []
    assert await games.open_games_in_threads_of(5) == [in_thread]
    record = await games.get(in_thread)
    assert record is not None
    await games.set_status(record, "finished")
    assert await games.open_games_of(8) == [] and await games.open_games_in_threads_of(5) == []
