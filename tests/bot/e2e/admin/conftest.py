"""Fixtures of the admin and lobby tests: a stand-in with a server admin (Boss), and a bot on an injected clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Clock, Running, bot_runner, stand_in_with_admins


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """The stand-in of the admin tests; afterwards nothing may be unhandled or logged as an error."""
    async with stand_in_with_admins(caplog) as discord_:
        yield discord_


@pytest.fixture
def clock() -> Clock:
    """The bot's clock, which a test moves by hand."""
    return Clock()


@pytest.fixture
def running(stand_in: LocalDiscord, tmp_path: Path, clock: Clock) -> Running:
    """Start a bot on the stand-in with the test's database and clock; enter it again for a restart."""
    return bot_runner(stand_in, tmp_path / "games.sqlite3", clock)
