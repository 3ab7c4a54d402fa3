"""What the admin end-to-end tests share: a guild with admins and a role, a movable clock, and thread games."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import discord
import pytest

from bot.app import Conductor, create_bot
from bot.sandbox import LocalDiscord, LocalRole, LocalUser, RecordedMessage
from bot.sandbox.run import ScriptedTable, sandbox_settings

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
CREATORS = "Conductors"


class Clock:
    """The bot's clock, moved by the test: timers fire without anyone waiting."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60


@asynccontextmanager
async def checked_stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """The usual seven people (Dan reads Russian), Ben with the creators' role, and two admins: Boss (English)
    and Vera (Russian); afterwards nothing unhandled and no error logged."""
    caplog.set_level(logging.INFO)
    people = [
        LocalUser(name, locale="ru" if name == "Dan" else "en-US", roles=(CREATORS,) if name == "Ben" else ())
        for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
    ]
    people += [LocalUser("Boss", permissions=MANAGE_GUILD), LocalUser("Vera", locale="ru", permissions=MANAGE_GUILD)]
    async with LocalDiscord(users=people, roles=[LocalRole(CREATORS)]) as discord_:
        yield discord_
    assert discord_.unhandled == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [f"{r.name}: {r.getMessage()}" for r in errors]
    assert discord_.logged_errors == []


Running = Callable[[], AbstractAsyncContextManager[Conductor]]


def bot_runner(stand_in: LocalDiscord, database: Path, clock: Clock) -> Running:
    """Start the bot on the stand-in with this database and clock; enter again for a restart."""

    @asynccontextmanager
    async def start() -> AsyncIterator[Conductor]:
        bot = create_bot(sandbox_settings(database, bot_move_delay=0))
        bot.clock = clock
        async with stand_in.connected(bot):
            yield bot

    return start


class PlaceTable(ScriptedTable):
    """A scripted table whose game is played in one channel or thread (not only #trains)."""

    place: int | str = "trains"

    async def turn_message(self, game_id: int, timeout: float = 10.0) -> RecordedMessage:
        """The message with the current version's controls, in this table's place."""
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        prefix = f"{record.game}:{game_id}:{record.version}:"

        def current() -> RecordedMessage | None:
            for message in reversed(self.discord.channel_messages(self.place)):
                if any(str(c.get("custom_id", "")).startswith(prefix) for c in message.walk_components()):
                    return message
            return None

        return await self.discord.wait_for(current, timeout=timeout, what=f"the controls of {prefix} in {self.place}")


def lobby_in(stand_in: LocalDiscord, place: int | str) -> RecordedMessage:
    """The newest lobby message in a channel or thread."""
    return next(
        m
        for m in reversed(stand_in.channel_messages(place))
        if any(b["custom_id"].startswith("lobby:") for b in m.buttons())
    )


def button(message: RecordedMessage, verb: str) -> str:
    """The custom id of a lobby button by its verb."""
    return next(b["custom_id"] for b in message.buttons() if b["custom_id"].split(":")[3] == verb)
