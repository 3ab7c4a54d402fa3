"""Board page fixtures: the local Discord with the usual people, and a bot on it with its board pages on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import checked, usual_people
from tests.web.support import WebRunning, web_runner


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """A local Discord with seven people; afterwards nothing may be unhandled and nothing logged as an error."""
    async with checked(caplog, usual_people()) as discord:
        yield discord


@pytest.fixture
def running(stand_in: LocalDiscord, tmp_path: Path) -> WebRunning:
    """Start a bot with its board pages on, on the stand-in with the test's database."""
    return web_runner(stand_in, tmp_path / "games.sqlite3")
