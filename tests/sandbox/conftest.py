"""Fixtures that run the toy bot against a fresh local Discord stand-in, and check it stayed clean."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable

import aiohttp
import pytest

from localdiscord import LocalDiscord
from tests.sandbox.manual import BareBot, RawApi
from tests.sandbox.toy_bot import ToyBot


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker for tests that expect discord.py to log errors."""
    config.addinivalue_line("markers", "discord_errors_expected: discord.py may log ERROR records")


@pytest.fixture
async def local_discord(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LocalDiscord]:
    """A started stand-in; afterwards no request may be unhandled and discord.py must have logged no error."""
    caplog.set_level(logging.WARNING)
    async with LocalDiscord() as stand_in:
        yield stand_in
    assert stand_in.unhandled == []
    if request.node.get_closest_marker("discord_errors_expected") is None:
        errors = [r for r in caplog.records if r.name.startswith("discord") and r.levelno >= logging.ERROR]
        assert errors == [], [r.getMessage() for r in errors]
        assert stand_in.logged_errors == []


@pytest.fixture
def make_bot(local_discord: LocalDiscord) -> Callable[[], ToyBot]:
    """Build a new toy bot object for the stand-in's guild (call it again to simulate a restart)."""
    return lambda: ToyBot(local_discord.guild_id)


@pytest.fixture
async def toy(local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]) -> AsyncIterator[ToyBot]:
    """A toy bot connected to the stand-in for the whole test."""
    bot = make_bot()
    async with local_discord.connected(bot):
        yield bot


@pytest.fixture
async def raw(local_discord: LocalDiscord) -> AsyncIterator[RawApi]:
    """The stand-in's REST API, called directly with the bot's token."""
    async with aiohttp.ClientSession() as session:
        yield RawApi(local_discord, session)


@pytest.fixture
async def bare(local_discord: LocalDiscord, raw: RawApi) -> AsyncIterator[BareBot]:
    """A connected bot that answers nothing (the test answers by hand through ``raw``), with /ping synced."""
    await raw.sync_ping()
    bot = BareBot()
    async with local_discord.connected(bot):
        yield bot
