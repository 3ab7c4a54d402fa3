"""The game store's newer writes and lookups on both backends: one open game per channel, what each channel
shows, where open games are, counts, idle lobbies, passing the host role and closing several games at once."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.storage.database import Database, Statement
from bot.storage.games import ChannelBusy, GameRecord, GameStore, SeatRecord, StaleVersion
from tests.bot.storage.conftest import set_thread


async def open_game(
    store: GameStore,
    *,
    channel: int,
    host: int = 10,
    guild: int | None = 1,
    players: Sequence[int] = (),
    status: str = "lobby",
) -> GameRecord:
    """A game in `channel` hosted by `host` with `players` after the host; moved on to `status` if asked."""
    seats = [SeatRecord(seat=i, name=f"P{user}", user_id=user) for i, user in enumerate([host, *players])]
    record = await store.create_game(
        game="dice", guild_id=guild, channel_id=channel, host_id=host, options={}, seed=1, seats=seats
    )
    if status in ("active", "finished"):
        record = await store.start(record, record.seats, state="{}")
    if status == "finished":
        record = await store.record_action(record, 0, "stop", "{}", finished=True)
    if status in ("cancelled", "abandoned"):
        record = await store.set_status(record, status)
    return record


async def test_a_second_open_game_in_a_channel_is_refused_with_the_first_ones_id(database: Database) -> None:
    store = GameStore(database)
    first = await open_game(store, channel=2)
    with pytest.raises(ChannelBusy) as busy:
        await open_game(store, channel=2, host=11)
    assert busy.value.game_id == first.id and busy.value.channel_id == 2
    assert await database.fetchval("SELECT COUNT(*) FROM games") == 1  # nothing of the refused game
    other = await open_game(store, channel=3)  # another channel is free
    started = await store.start(first, first.seats, state="{}")
    with pytest.raises(ChannelBusy):  # a running game holds the channel too
        await open_game(store, channel=2, host=11)
    await store.record_action(started, 0, "stop", "{}", finished=True)
    again = await open_game(store, channel=2, host=11)  # finished: the channel is free again
    await store.set_status(again, "cancelled")
    third = await open_game(store, channel=2, host=12)  # cancelled: free again
    assert len({first.id, other.id, again.id, third.id}) == 4


async def test_two_games_opened_at_once_in_one_channel_give_one_game(database: Database) -> None:
    store = GameStore(database)
    results = await asyncio.gather(
        *(open_game(store, channel=2, host=host) for host in (10, 11, 12)), return_exceptions=True
    )
    made = [r for r in results if isinstance(r, GameRecord)]
    refused = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(made) == 1 and len(refused) == 2
    assert {r.game_id for r in refused} == {made[0].id}


async def test_a_seat_conflict_is_not_mistaken_for_a_busy_channel(database: Database) -> None:
    store = GameStore(database)
    with pytest.raises(Exception) as error:
        await store.create_game(
            game="dice",
            guild_id=1,
            channel_id=2,
            host_id=10,
            options={},
            seed=1,
            seats=[SeatRecord(seat=0, name="Ann", user_id=10), SeatRecord(seat=1, name="Ann", user_id=10)],
        )
    assert not isinstance(error.value, ChannelBusy)
    assert await store.in_channel(2) == []


async def test_mark_shown_never_lowers_what_the_channel_shows(database: Database) -> None:
    store = GameStore(database)
    record = await open_game(store, channel=2, status="active")
    record = await store.record_action(record, 0, "roll", "{}", finished=False)
    assert (record.version, record.shown_version) == (2, 0)
    await store.database.write([store.shown_statement(record.id, 1)])
    assert (await store.get(record.id)).shown_version == 1  # type: ignore[union-attr]
    await store.database.write([store.shown_statement(record.id, 2)])
    await store.database.write([store.shown_statement(record.id, 1)])  # a late report of an older post
    loaded = await store.get(record.id)
    assert loaded is not None and (loaded.version, loaded.shown_version) == (2, 2)
    await store.database.write([store.shown_statement(9999, 3)])  # an unknown game: nothing to do, no error


async def test_unshown_lists_running_and_finished_games_behind_their_channel_oldest_first(
    database: Database,
) -> None:
    store = GameStore(database)
    lobby = await open_game(store, channel=1)  # a lobby at version 0 and never shown: not listed
    lobby = await store.update_lobby(lobby, lobby.seats)
    behind = await open_game(store, channel=2, status="active")
    shown = await open_game(store, channel=3, status="active")
    await store.database.write([store.shown_statement(shown.id, shown.version)])
    finished = await open_game(store, channel=4, status="finished")
    cancelled = await open_game(store, channel=5, status="cancelled")
    unshown = await store.unshown()
    assert [r.id for r in unshown] == [behind.id, finished.id]
    assert lobby.id not in {r.id for r in unshown} and cancelled.id not in {r.id for r in unshown}
    assert unshown[0].seats == behind.seats and unshown[0].shown_version == 0
    await store.database.write([store.shown_statement(behind.id, behind.version)])
    await store.database.write([store.shown_statement(finished.id, finished.version)])
    assert await store.unshown() == []


async def test_open_in_place_finds_games_of_a_channel_and_of_threads_opened_from_it(
    database: Database,
) -> None:
    store = GameStore(database)
    here = await open_game(store, channel=5)
    in_thread = await open_game(store, channel=900, status="active")
    await set_thread(database, in_thread.id, 900, 5)
    closed_thread = await open_game(store, channel=901, status="finished")
    await set_thread(database, closed_thread.id, 901, 5)
    elsewhere = await open_game(store, channel=6)
    other_thread = await open_game(store, channel=902)
    await set_thread(database, other_thread.id, 902, 6)
    assert [r.id for r in await store.open_in_place(5)] == [here.id, in_thread.id]
    assert [r.id for r in await store.open_in_place(900)] == [in_thread.id]  # the thread itself
    assert [r.id for r in await store.open_in_place(6)] == [elsewhere.id, other_thread.id]
    assert await store.open_in_place(901) == [] and await store.open_in_place(7) == []


async def test_open_in_guild_lists_only_that_servers_open_games(database: Database) -> None:
    store = GameStore(database)
    a = await open_game(store, channel=1, guild=1)
    b = await open_game(store, channel=2, guild=1, status="active")
    await open_game(store, channel=3, guild=1, status="finished")
    await open_game(store, channel=4, guild=2)
    await open_game(store, channel=5, guild=None)
    assert [r.id for r in await store.open_in_guild(1)] == [a.id, b.id]
    assert await store.open_in_guild(3) == []


async def test_count_open_combines_its_filters(database: Database) -> None:
    store = GameStore(database)
    await open_game(store, channel=1, guild=1, host=10, players=[11])  # lobby
    await open_game(store, channel=2, guild=1, host=11, players=[12], status="active")
    await open_game(store, channel=3, guild=1, host=10, players=[11], status="finished")  # closed: never counted
    await open_game(store, channel=4, guild=2, host=10)  # lobby elsewhere
    await open_game(store, channel=5, guild=2, host=13, status="cancelled")
    assert await store.count_open() == 3
    assert await store.count_open(guild_id=1) == 2 and await store.count_open(guild_id=2) == 1
    assert await store.count_open(host_id=10) == 2 and await store.count_open(host_id=13) == 0
    assert await store.count_open(user_id=11) == 2 and await store.count_open(user_id=12) == 1
    assert await store.count_open(user_id=10) == 2  # the host sits in their games
    assert await store.count_open(status="lobby") == 2 and await store.count_open(status="active") == 1
    assert await store.count_open(user_id=11, status="active") == 1
    assert await store.count_open(guild_id=1, host_id=10) == 1
    assert await store.count_open(guild_id=2, user_id=11) == 0
    with pytest.raises(ValueError):
        await store.count_open(status="finished")


async def test_idle_lobbies_are_lobbies_unchanged_since_a_time(database: Database) -> None:
    store = GameStore(database)
    old = await open_game(store, channel=1)
    fresh = await open_game(store, channel=2)
    old_game = await open_game(store, channel=3, status="active")
    older = await open_game(store, channel=4)
    for record, when in ((old, "2024-01-02T00:00:00.000+00:00"), (old_game, "2024-01-01T00:00:00.000+00:00")):
        await database.write([Statement("UPDATE games SET updated_at = ? WHERE id = ?", (when, record.id))])
    await database.write(
        [Statement("UPDATE games SET updated_at = '2024-01-01T12:00:00.000+00:00' WHERE id = ?", (older.id,))]
    )
    idle = await store.idle_lobbies("2024-01-03T00:00:00.000+00:00")
    assert [r.id for r in idle] == [older.id, old.id]  # idlest first; the game in play and the fresh lobby stay
    assert fresh.id not in {r.id for r in idle} and idle[0].seats == older.seats
    assert await store.idle_lobbies("2024-01-01T00:00:00.000+00:00") == []
    await store.update_lobby(old, old.seats)  # a change makes it fresh again
    assert [r.id for r in await store.idle_lobbies("2024-01-03T00:00:00.000+00:00")] == [older.id]


async def test_set_host_passes_the_role_and_refuses_a_stale_version(database: Database) -> None:
    store = GameStore(database)
    record = await open_game(store, channel=2, host=10, players=[11], status="active")
    moved = await store.set_host(record, 11)
    assert (moved.host_id, moved.version, moved.status) == (11, record.version + 1, "active")
    assert await store.get(record.id) == moved
    with pytest.raises(StaleVersion):
        await store.set_host(record, 12)  # drawn from the version before the change
    assert (await store.get(record.id)).host_id == 11  # type: ignore[union-attr]


async def test_close_games_closes_the_open_ones_in_one_go_and_skips_the_rest(database: Database) -> None:
    store = GameStore(database)
    lobby = await open_game(store, channel=1)
    running = await open_game(store, channel=2, status="active")
    finished = await open_game(store, channel=3, status="finished")
    closed = await store.close_games([running.id, lobby.id, finished.id, 9999, lobby.id], "abandoned")
    assert [(r.id, r.status, r.version) for r in closed] == [
        (lobby.id, "abandoned", lobby.version + 1),
        (running.id, "abandoned", running.version + 1),
    ]
    assert closed[1].seats == running.seats and closed[1].state == "{}"
    assert await store.get(finished.id) == finished
    assert await store.with_status() == []
    assert await store.close_games([lobby.id], "cancelled") == []  # no longer open
    assert await store.close_games([], "cancelled") == []
    with pytest.raises(ValueError):
        await store.close_games([lobby.id], "finished")
    reopened = await open_game(store, channel=1)  # the channel is free again
    assert [r.id for r in await store.close_games([reopened.id], "cancelled")] == [reopened.id]


async def test_records_carry_shown_version_through_every_load(database: Database) -> None:
    store = GameStore(database)
    record = await open_game(store, channel=2, status="active")
    await store.database.write([store.shown_statement(record.id, record.version)])
    assert [r.shown_version for r in await store.in_channel(2)] == [record.version]
    assert [r.shown_version for r in await store.with_status()] == [record.version]
    assert [r.shown_version for r in await store.open_in_guild(1)] == [record.version]
