"""The result and rating tables on both backends: a game is stored once, ratings move in the same transaction, a
reset starts over, a recompute gives the same numbers, and the /stats and /leaderboard reads."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.ratings import rate_game
from bot.storage.database import Database, now_iso
from bot.storage.ratings import FinishedGame, Rating, RatingStore, SeatResult

GUILD = 77


async def add_finished_games(
    database: Database, count: int, *, guild_id: int = GUILD, game: str = "ticket-to-ride"
) -> list[int]:
    """Store `count` finished games, shown in their channels (rows only, no snapshot: the results are written
    through the store), and return their ids, oldest first."""
    now = now_iso()
    ids = []
    async with database.transaction() as transaction:
        for index in range(count):
            ids.append(
                await transaction.fetchval(
                    "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version,"
                    " shown_version, created_at, updated_at) VALUES (?, ?, ?, 1, 'finished', '{}', 1, 1, 1, ?, ?)"
                    " RETURNING id",
                    (game, guild_id, 1000 + index, now, now),
                )
            )
    return ids


def result(
    game_id: int,
    places: Sequence[int],
    *,
    users: Sequence[int | None] = (),
    family: str = "ttr",
    finished_at: str = "",
    guild_id: int = GUILD,
    facts: dict[str, object] | None = None,
) -> FinishedGame:
    """A finished game whose seat i ends at `places[i]`, played by user `users[i]` (10 + i by default; None: a
    bot), scoring 100 - 10 × place."""
    people = list(users) or [10 + i for i in range(len(places))]
    return FinishedGame(
        game_id=game_id,
        guild_id=guild_id,
        family=family,
        finished_at=finished_at or f"2026-01-01T00:00:{game_id % 60:02d}.000+00:00",
        seats=tuple(
            SeatResult(
                seat=i,
                name=f"P{user}" if user is not None else "Bot",
                place=place,
                score=100 - 10 * place,
                won=place == 1,
                user_id=user,
                bot_kind=None if user is not None else "hard",
                facts=facts or {},
            )
            for i, (place, user) in enumerate(zip(places, people, strict=True))
        ),
    )


async def ratings(database: Database, guild_id: int = GUILD) -> dict[int, Rating]:
    store = RatingStore(database)
    return {s.user_id: s.rating for s in await store.top(guild_id, "ttr", limit=100)}


async def test_a_game_is_stored_once_and_rates_its_people_in_order(database: Database) -> None:
    store = RatingStore(database)
    (game_id,) = await add_finished_games(database, 1)
    assert [found for found, _ in await store.unrecorded(["ticket-to-ride"])] == [game_id]
    assert await store.unrecorded(["dice"]) == []
    assert await store.record(result(game_id, [1, 2, 3, 4]), rate_game)
    assert not await store.record(result(game_id, [4, 3, 2, 1]), rate_game)  # the same game again: nothing
    assert await store.unrecorded(["ticket-to-ride"]) == []
    top = await store.top(GUILD, "ttr")
    assert [s.user_id for s in top] == [10, 11, 12, 13] and [s.rank for s in top] == [1, 2, 3, 4]
    assert all(s.rating.games == 1 for s in top) and [s.rating.wins for s in top] == [1, 0, 0, 0]
    standing = await store.standing(GUILD, "ttr", 12)
    assert standing is not None and standing.rank == 3 and standing.rated == 4
    assert await store.standing(GUILD, "ttr", 99) is None
    assert await store.families_of(GUILD, 10) == {"ttr": 1}
    (mine,) = await store.results_of(GUILD, "ttr", 11)
    assert (mine.place, mine.score, mine.won) == (2, 80, False)


async def test_bots_and_lone_people_rate_nobody_but_keep_their_results(database: Database) -> None:
    store = RatingStore(database)
    solo, duo = await add_finished_games(database, 2)
    await store.record(result(solo, [1, 2, 3], users=[10, None, None]), rate_game)
    assert await ratings(database) == {}
    assert len(await store.results_of(GUILD, "ttr", 10)) == 1
    await store.record(result(duo, [1, 2, 3], users=[None, 11, 10]), rate_game)
    rated = await ratings(database)
    assert set(rated) == {10, 11} and rated[11].mu > rated[10].mu and rated[11].wins == 0


async def test_a_reset_starts_over_and_a_recompute_gives_the_same_numbers(database: Database) -> None:
    store = RatingStore(database)
    ids = await add_finished_games(database, 6)
    for n, game_id in enumerate(ids[:3]):
        await store.record(result(game_id, [1, 2, 3, 3], finished_at=f"2020-01-0{n + 1}T00:00:00.000+00:00"), rate_game)
    live = await ratings(database)
    assert await store.recompute(GUILD, rate_game) == 3
    assert await ratings(database) == live
    assert await store.reset(GUILD) == 4
    assert await ratings(database) == {}
    await store.record(result(ids[3], [2, 1], finished_at="2020-01-09T00:00:00.000+00:00"), rate_game)  # before
    assert await ratings(database) == {}
    for game_id in ids[4:]:
        await store.record(result(game_id, [2, 1, 3], finished_at=now_iso()), rate_game)
    after_reset = await ratings(database)
    assert set(after_reset) == {10, 11, 12} and after_reset[11].games == 2
    assert await store.recompute(GUILD, rate_game) == 2
    assert await ratings(database) == after_reset


async def test_ties_share_a_rank_on_the_leaderboard_and_servers_stay_apart(database: Database) -> None:
    store = RatingStore(database)
    here, there = await add_finished_games(database, 2)
    await store.record(result(here, [1, 1, 3]), rate_game)
    await store.record(result(there, [2, 1], guild_id=GUILD + 1), rate_game)
    top = await store.top(GUILD, "ttr")
    assert [s.rank for s in top] == [1, 1, 3]
    assert top[0].rating.mu == top[1].rating.mu and top[0].rating.sigma == top[1].rating.sigma
    assert [s.user_id for s in await store.top(GUILD + 1, "ttr")] == [11, 10]
    assert await store.families_of(GUILD, 10) == {"ttr": 1}
