"""End-to-end fixtures: the real bot (real discord.py, real SQLite file) on the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, bot_runner, checked, usual_people


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """A local Discord with seven people; afterwards nothing may be unhandled and nothing logged as an error."""
    async with checked(caplog, usual_people()) as discord:
        yield discord


@pytest.fixture
def running(stand_in: LocalDiscord, tmp_path: Path) -> Running:
    """Start a bot on the stand-in with the test's database; enter it again for a restart (same database).

    Games are played in the channel where they are opened (the server chose so), unless the test asks for
    `threads=None` (the default of a server that never chose: a thread each, where the bot may open one)."""
    return bot_runner(stand_in, tmp_path / "games.sqlite3")
