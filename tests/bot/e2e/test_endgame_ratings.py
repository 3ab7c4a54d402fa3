"""/endgame and the ratings through the local Discord: a host (not a server admin) who ends a running game that
others still play loses it, below everyone, while the others are placed by their points so far; an admin's
/endgame, and a host's alone with bot players, stay abandoned and unrated (docs/ratings.md)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.app import Conductor
from bot.games import GAMES
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, fix_seed, stand_in_with_admins, table

SEED = 4
"""A dice deal in which the host soon leads while the two others stand apart (people play as the normal bot)."""


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """The usual people (Dan reads Russian) and two server admins, Boss and Vera."""
    async with stand_in_with_admins(caplog) as discord_:
        yield discord_


async def results(bot: Conductor, game_id: int) -> dict[str, tuple[int, bool, int]]:
    """Name → (place, won, score) of each seat's stored result of a game (empty while unrated)."""
    rows = await bot.database.fetch("SELECT name, place, won, score FROM game_results WHERE game_id = ?", (game_id,))
    return {row["name"]: (row["place"], bool(row["won"]), row["score"]) for row in rows}


async def play_until_host_leads(players: ScriptedTable, game_id: int) -> dict[int, int]:
    """Play moves until the host (seat 0) leads and the two others have different points; return the points."""
    rng = random.Random(3)
    for _ in range(300):
        await players.settle(game_id)
        record = await players.bot.service.get(game_id)
        points = GAMES[record.game].ratings.points_so_far(players.bot.service.state(game_id))
        if points[0] > max(points[1], points[2]) and points[1] != points[2]:
            return points
        await players.play_move(game_id, rng)
    raise AssertionError("the host never led with the others apart")


async def test_a_hosts_endgame_is_their_loss_and_the_others_are_placed_by_their_points(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, SEED)
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        record = await players.open("dice")
        points = await play_until_host_leads(players, record.id)
        leader, trailer = ("Ben", "Cat") if points[1] > points[2] else ("Cat", "Ben")

        ended = await stand_in.slash("Ann", "endgame")
        assert not ended.ephemeral and ended.text == (
            f"🛑 Ann (host) ends game #{record.id} early. It is recorded as abandoned, and in the ratings as a loss"
            " for Ann: the others are placed by their points so far."
        )
        await bot.ratings.until_recorded(1)
        stored = await results(bot, record.id)
        assert stored == {
            "Ann": (3, False, points[0]),
            leader: (1, True, max(points[1], points[2])),
            trailer: (2, False, min(points[1], points[2])),
        }, "the host is last even when ahead"
        store, guild = bot.ratings.store, stand_in.guild_id
        board = [s.user_id for s in await store.top(guild, "dice")]
        assert board == [stand_in.user(name).id for name in (leader, trailer, "Ann")]
        ann = await store.standing(guild, "dice", stand_in.user("Ann").id)
        assert ann is not None and (ann.rating.games, ann.rating.wins) == (1, 0)
        assert (await bot.service.store.get(record.id)).status == "abandoned"  # type: ignore[union-attr]


async def test_an_admins_endgame_and_a_host_alone_with_bots_stay_unrated(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        by_admin = await players.open("dice")
        ended = await stand_in.slash("Boss", "endgame")
        assert ended.text == f"🛑 Boss ends game #{by_admin.id}. It is recorded as abandoned."

        alone = await table(stand_in, bot, "Ann").open("dice", bots=1)
        ended = await stand_in.slash("Ann", "endgame")
        assert ended.text == f"🛑 Ann ends game #{alone.id}. It is recorded as abandoned."

        await stand_in.slash("Vera", "config language", {"value": "ru"})
        rated = await table(stand_in, bot, "Ben", "Dan").open("dice")
        ended = await stand_in.slash("Ben", "endgame")
        assert ended.text.startswith(f"🛑 Ben (👑) досрочно завершает игру №{rated.id}.")
        await bot.ratings.until_recorded(1)
        assert await results(bot, by_admin.id) == {} and await results(bot, alone.id) == {}
        assert await results(bot, rated.id) == {"Ben": (2, False, 0), "Dan": (1, True, 0)}
