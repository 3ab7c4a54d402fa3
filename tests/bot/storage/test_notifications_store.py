"""The notification tables on both backends: choices, DM waits and watchers round trip, and go with their game."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.storage.notifications import DmWait, NotificationStore, NotifyPrefs, Watcher
from tests.bot.storage.test_timers_store import new_game

BIG_ID = 1_234_567_890_123_456_789
"""A Discord id: 64 bits wide, as PostgreSQL's BIGINT must keep it."""


async def test_choices_round_trip_and_are_replaced(database: Database) -> None:
    store = NotificationStore(database)
    assert await store.all_prefs() == {}
    chosen = NotifyPrefs(BIG_ID, dm=True, delay_minutes=15, ping=False, language="ru")
    await store.put_prefs(chosen)
    await store.put_prefs(NotifyPrefs(7))
    assert await store.all_prefs() == {BIG_ID: chosen, 7: NotifyPrefs(7)}
    closed = NotifyPrefs(BIG_ID, dm=True, dms_closed=True, closed_told=True)
    await store.put_prefs(closed)
    assert (await store.all_prefs())[BIG_ID] == closed
    assert not closed.wants_dm and chosen.wants_dm


async def test_waits_are_put_changed_dropped_and_go_with_their_game(database: Database) -> None:
    games, store = GameStore(database), NotificationStore(database)
    first, second = await new_game(games, channel=5, user=BIG_ID), await new_game(games, channel=6, user=BIG_ID)
    await store.change_waits(first, put=[DmWait(first, BIG_ID, 1_700_000_000.5), DmWait(first, 8, None)])
    await store.change_waits(second, put=[DmWait(second, 8, 12.0)])
    await store.change_waits(first, put=[DmWait(first, BIG_ID, None)])
    assert await store.all_waits() == [DmWait(first, 8, None), DmWait(first, BIG_ID, None), DmWait(second, 8, 12.0)]
    await store.change_waits(first, drop=[8])
    await store.change_waits(first)  # nothing to change: no write
    assert await store.all_waits() == [DmWait(first, BIG_ID, None), DmWait(second, 8, 12.0)]
    await store.watch(Watcher(second, BIG_ID, "ru"))
    assert await store.end_game(second) == [Watcher(second, BIG_ID, "ru")]
    assert await store.all_waits() == [DmWait(first, BIG_ID, None)]
    assert await store.end_game(second) == []


async def test_watching_is_switched_on_and_off(database: Database) -> None:
    games, store = GameStore(database), NotificationStore(database)
    game_id = await new_game(games, channel=5, user=BIG_ID)
    assert not await store.watching(game_id, BIG_ID)
    await store.watch(Watcher(game_id, BIG_ID, "en"))
    await store.watch(Watcher(game_id, BIG_ID, "ru"))  # again: the language is the latest
    assert await store.watching(game_id, BIG_ID)
    await store.unwatch(game_id, BIG_ID)
    assert not await store.watching(game_id, BIG_ID)
    await store.watch(Watcher(game_id, 9, "en"))
    assert await store.end_game(game_id) == [Watcher(game_id, 9, "en")]
