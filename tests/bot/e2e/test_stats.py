"""/stats, /leaderboard and /config ratings reset through the local Discord, on a server with many finished games
(stored through the rating store, not played): public pictures in the reader's language, private answers for
what concerns one person, and a reset only a server manager can confirm."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.services.ratings import rate_game
from bot.storage.database import Statement
from bot.storage.opening import open_database
from bot.storage.ratings import RatingStore
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, stand_in_with_admins
from tests.bot.storage.test_ratings_store import add_finished_games, result

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
GAMES = 120
CALGARY_VANCOUVER = 1  # a USA track id, claimed in every seeded game


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """The usual people (Dan reads Russian) and two server managers, Boss and Vera."""
    async with stand_in_with_admins(caplog) as discord_:
        yield discord_


async def seed(stand_in: LocalDiscord, path: Path) -> None:
    """Store GAMES finished Ticket to Ride games of four of the six players, played in #trains, before the bot
    starts."""
    database = await open_database(path)
    try:
        store = RatingStore(database)
        guild = stand_in.guild_id
        ids = await add_finished_games(database, GAMES, guild_id=guild)
        trains = stand_in.channel("trains").id  # where everyone can see them, so everyone's stats count them
        await database.write([Statement("UPDATE games SET channel_id = ? WHERE guild_id = ?", (trains, guild))])
        rng = random.Random(13)
        users = [stand_in.user(name).id for name in PLAYERS]
        for n, game_id in enumerate(ids):
            seated = rng.sample(users, 4)
            facts = {"map": "usa", "trail": 5 + n % 9, "tickets_done": 2, "tickets_failed": 1, "tracks": [1, 7]}
            finished_at = f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}.000+00:00"
            await store.record(
                result(game_id, [1, 2, 3, 4], users=seated, facts=facts, finished_at=finished_at, guild_id=guild),
                rate_game,
            )
    finally:
        await database.close()


def picture(message: object) -> Image.Image:
    (attachment,) = message.attachments  # type: ignore[attr-defined]
    return Image.open(io.BytesIO(attachment.data))


async def test_stats_and_leaderboard_answer_in_public_with_a_picture_in_the_servers_language(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    await seed(stand_in, tmp_path / "games.sqlite3")
    async with running():
        mine = await stand_in.slash("Ann", "stats")
        assert not mine.ephemeral and mine.message is not None, mine.text
        assert mine.content.startswith("**Ann** in Ticket to Ride: ") and "Rating **" in mine.content
        assert picture(mine.message).width == 900 and mine.message.attachments[0].filename == "stats-ttr.png"
        assert "Ann's Ticket to Ride stats" in (mine.message.attachments[0].description or "")

        nobody = await stand_in.slash("Ann", "stats", {"member": "Gus"})
        assert nobody.ephemeral and nobody.text == "Gus has no finished games on this server yet."
        no_dice = await stand_in.slash("Ann", "stats", {"game": "dice"})
        assert no_dice.ephemeral and "no finished games of «Poezd», the train dice game" in no_dice.text

        board = await stand_in.slash("Cat", "leaderboard", {"game": "ticket-to-ride"})
        assert not board.ephemeral and board.message is not None
        assert "leaderboard of this server: 6 rated players." in board.content and "You are #" in board.content
        assert picture(board.message).width == 900
        outsider = await stand_in.slash("Gus", "leaderboard", {"game": "ticket-to-ride"})
        assert "You are not rated in Ticket to Ride yet." in outsider.content and not outsider.ephemeral

        english = await stand_in.slash("Dan", "stats", {"member": "Ben", "game": "ticket-to-ride"})
        assert english.content.startswith("**Ben** in Ticket to Ride: "), "public: the server's language"
        await stand_in.slash("Vera", "config language", {"value": "ru"})
        russian = await stand_in.slash("Ann", "stats", {"member": "Ben", "game": "ticket-to-ride"})
        assert russian.content.startswith("**Ben**, Билет на поезд: ") and "средний счёт" in russian.content
        assert "Статистика игрока Ben" in (russian.message.attachments[0].description or "")  # type: ignore[union-attr]


async def test_only_a_server_manager_resets_the_ratings_and_only_after_confirming(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    await seed(stand_in, tmp_path / "games.sqlite3")
    async with running() as bot:
        refused = await stand_in.slash("Ann", "config ratings reset", force=True)
        assert refused.ephemeral and "Only people who can manage this server" in refused.text
        asked = await stand_in.slash("Boss", "config ratings reset")
        assert asked.ephemeral and asked.message is not None and "Reset this server's ratings" in asked.text
        keep, reset = sorted(b["custom_id"] for b in asked.message.buttons())
        kept = await stand_in.click("Boss", asked.message, keep)
        assert kept.text == "Nothing changed: the ratings are kept."
        assert len(await bot.ratings.store.top(stand_in.guild_id, "ttr")) == 6

        again = await stand_in.slash("Vera", "config ratings reset")
        reset_id = next(b["custom_id"] for b in again.message.buttons() if b["custom_id"].endswith(":reset"))  # type: ignore[union-attr]
        done = await stand_in.click("Vera", again.message, reset_id)  # type: ignore[arg-type]
        assert done.text.startswith("Рейтинги сброшены: 6 рейтингов удалено.")
        board = await stand_in.slash("Ann", "leaderboard", {"game": "ticket-to-ride"})
        assert "0 rated players" in board.content
        stats = await stand_in.slash("Ann", "stats")  # the games and stats stay
        assert "Not rated yet" in stats.content
    assert reset.endswith(":reset")
