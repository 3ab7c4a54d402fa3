"""Where a game is seen from (`SEEN_FROM`), on both backends: its channel, or the channel of the thread the bot
opened for it; the lists of finished games and a person's results narrowed to the games seen from some channels."""

from __future__ import annotations

from bot.services.ratings import rate_game
from bot.storage.database import Database
from bot.storage.games import DatedGame, GameStore
from bot.storage.ratings import RatingStore
from tests.bot.storage.conftest import set_thread
from tests.bot.storage.test_game_queries import open_game
from tests.bot.storage.test_ratings_store import result

HALL, STAFF, THREAD = 100, 200, 201
ANN, BEN = 10, 11


def ids(listed: tuple[list[DatedGame], int]) -> tuple[list[int], int]:
    """The ids of a listed page, and the count of all."""
    return [dated.record.id for dated in listed[0]], listed[1]


async def test_a_game_is_seen_from_its_channel_or_its_threads_channel(database: Database) -> None:
    store = GameStore(database)
    hall = await open_game(store, channel=HALL, players=[BEN], status="finished")
    staff = await open_game(store, channel=STAFF, status="finished")
    threaded = await open_game(store, channel=THREAD, players=[BEN], status="finished")
    await set_thread(database, threaded.id, THREAD, STAFF)
    await open_game(store, channel=300, players=[BEN])  # a lobby: not finished

    assert await store.seen_from(threaded.id) == STAFF and await store.seen_from(hall.id) == HALL
    assert await store.seen_from(9999) is None
    assert sorted(await store.places(1, ("finished",))) == [HALL, STAFF]
    assert sorted(await store.places(1, ("finished",), user_id=BEN)) == [HALL, STAFF]

    assert ids(await store.listed(1, ("finished",), places=[HALL], limit=10)) == ([hall.id], 1)
    assert ids(await store.listed(1, ("finished",), places=[STAFF], limit=10)) == ([threaded.id, staff.id], 2)
    assert ids(await store.listed(1, ("finished",), user_id=BEN, places=[STAFF], limit=10)) == ([threaded.id], 1)
    assert ids(await store.listed(1, ("finished",), places=[], limit=10)) == ([], 0)
    assert ids(await store.listed(1, ("finished",), limit=10))[1] == 3


async def test_a_persons_results_count_only_the_games_seen_from_the_channels_given(database: Database) -> None:
    games, ratings = GameStore(database), RatingStore(database)
    hall = await open_game(games, channel=HALL, host=ANN, players=[BEN], status="finished")
    threaded = await open_game(games, channel=THREAD, host=ANN, players=[BEN], status="finished")
    await set_thread(database, threaded.id, THREAD, STAFF)
    for game in (hall, threaded):
        await ratings.record(result(game.id, [1, 2], users=[ANN, BEN], family="dice", guild_id=1), rate_game)

    assert await ratings.families_of(1, ANN) == {"dice": 2}
    assert await ratings.families_of(1, ANN, places=[HALL]) == {"dice": 1}
    assert await ratings.families_of(1, ANN, places=[]) == {}
    assert len(await ratings.results_of(1, "dice", BEN, places=[STAFF])) == 1
    assert len(await ratings.results_of(1, "dice", BEN, places=[HALL, STAFF])) == 2
