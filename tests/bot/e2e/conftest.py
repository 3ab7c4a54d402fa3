"""End-to-end fixtures: the real bot (real discord.py, real SQLite file) on the local Discord stand-in."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord, LocalUser, RecordedMessage

PEOPLE = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """A local Discord with seven people; afterwards nothing may be unhandled and nothing logged as an error."""
    caplog.set_level(logging.INFO)
    people = [LocalUser(name=name, locale="ru" if name == "Dan" else "en-US") for name in PEOPLE]
    async with LocalDiscord(users=people) as discord:
        yield discord
    assert discord.unhandled == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [f"{r.name}: {r.getMessage()}" for r in errors]
    assert discord.logged_errors == []


Running = Callable[..., AbstractAsyncContextManager[Conductor]]


async def choose_threads(bot: Conductor, guild_id: int, threads: bool | None) -> None:
    """Set the server's thread setting as an admin would (`/config threads`); None: leave it as it is (never
    chosen, the default, unless chosen earlier)."""
    if threads is not None:
        await bot.config.change(guild_id, lambda config: config.model_copy(update={"threads": threads}))


@pytest.fixture
def running(stand_in: LocalDiscord, tmp_path: Path) -> Running:
    """Start a bot on the stand-in with the test's database; enter it again for a restart (same database).

    Games are played in the channel where they are opened (the server chose so), unless the test asks for
    `threads=None` (the default of a server that never chose: a thread each, where the bot may open one)."""

    @asynccontextmanager
    async def start(*, threads: bool | None = False) -> AsyncIterator[Conductor]:
        bot = create_bot(sandbox_settings(tmp_path / "games.sqlite3", bot_move_delay=0))
        async with stand_in.connected(bot):
            await choose_threads(bot, stand_in.guild_id, threads)
            yield bot

    return start


def people(stand_in: LocalDiscord, *names: str) -> list[LocalUser]:
    """The stand-in's users with these names, in order."""
    return [stand_in.user(name) for name in names]


def table(stand_in: LocalDiscord, bot: Conductor, *names: str) -> ScriptedTable:
    """A scripted table of these people for a running bot."""
    return ScriptedTable(stand_in, bot, people(stand_in, *names))


async def final_with_chart(stand_in: LocalDiscord, bot: Conductor, game_id: int) -> RecordedMessage:
    """A finished game's final message once the score chart has been added to it (drawn after the message is out)."""
    where = await bot.service.message(game_id, "final")
    assert where is not None, f"game {game_id} has no final message"
    await stand_in.wait_for(
        lambda: any(a.filename == "score-chart.png" for a in stand_in.message(where[1]).attachments),
        what="the score chart",
    )
    return stand_in.message(where[1])
