"""Slash commands as Discord receives them: synced once, with Russian names and descriptions."""

from __future__ import annotations

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running


async def test_commands_are_synced_with_russian_names_and_descriptions(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        newgame = stand_in.command("newgame").payload
    assert newgame["name_localizations"]["ru"] == "новаяигра"
    assert newgame["description_localizations"]["ru"].startswith("Открыть")
    dice = stand_in.command("newgame").option("dice")
    assert dice["name_localizations"]["ru"] == "поезд"
    assert stand_in.command("newgame").option("dice", "target")["name_localizations"]["ru"] == "цель"
    assert "en-US" not in newgame.get("name_localizations", {})


async def test_stats_and_leaderboard_are_synced_with_russian_names(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        stats, leaderboard = stand_in.command("stats"), stand_in.command("leaderboard")
    assert stats.payload["name_localizations"]["ru"] == "статистика"
    assert leaderboard.payload["name_localizations"]["ru"] == "лидеры"
    games = {c["value"] for c in leaderboard.option("game")["choices"]}
    assert games == {"ticket-to-ride", "ticket-to-ride-cards", "dice"}
    ratings = stand_in.command("config").option("ratings")
    assert ratings["name_localizations"]["ru"] == "рейтинги"
