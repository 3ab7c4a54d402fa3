"""What the admin end-to-end tests share: a guild with admins and a role, a movable clock, and thread games."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from bot.services.lobbies import LobbyExpiry
from bot.storage.games import GameRecord
from bot.storage.timers import TurnTimer
from localdiscord import LocalDiscord, LocalRole, LocalUser, RecordedMessage
from rules.dice import DiceEngine
from tests.bot.e2e.conftest import choose_threads

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
CREATORS = "Conductors"


class Clock:
    """The bot's clock, moved by the test: timers fire without anyone waiting. `now` starts it elsewhere (lobby
    expiry compares it with the wall-clock time stored at a lobby's last change: start it at time.time())."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

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


Running = Callable[..., AbstractAsyncContextManager[Conductor]]


def bot_runner(stand_in: LocalDiscord, database: Path, clock: Clock) -> Running:
    """Start the bot on the stand-in with this database and clock; enter again for a restart. Games are played in
    the channel (the server chose so) unless the test asks for `threads=` otherwise."""

    @asynccontextmanager
    async def start(*, threads: bool | None = False) -> AsyncIterator[Conductor]:
        bot = create_bot(sandbox_settings(database, bot_move_delay=0))
        bot.clock = clock
        async with stand_in.connected(bot):
            await choose_threads(bot, stand_in.guild_id, threads)
            yield bot

    return start


async def play_dice(
    stand_in: LocalDiscord, bot: Conductor, place: int | str, game_id: int, players: list[LocalUser], seed: int = 0
) -> GameRecord:
    """Play a dice game in a channel or thread to its end, clicking the buttons each person would choose."""
    engine, rng = DiceEngine(), random.Random(seed)
    for _ in range(5000):
        record = await bot.service.store.get(game_id)
        assert record is not None
        if record.status != "active":
            return record
        state = bot.service.state(game_id)
        by_seat = {s.seat: s.user_id for s in record.seats if s.user_id is not None}
        seat = next((s for s in sorted(engine.to_act(state)) if s in by_seat), None)  # type: ignore[arg-type]
        if seat is not None:
            person = next(p for p in players if p.id == by_seat[seat])
            await dice_move(stand_in, bot, place, record, person, rng)
        await version_after(bot, game_id, record.version)
    raise AssertionError(f"game {game_id} did not end")


async def dice_move(
    stand_in: LocalDiscord, bot: Conductor, place: int | str, record: GameRecord, person: LocalUser, rng: random.Random
) -> None:
    """Click the dice move this person would choose now (a multi-die add is one die at a time)."""
    engine, seat = DiceEngine(), record.seat_of(person.id)
    assert seat is not None
    code = engine.bot_action(bot.service.state(record.id), seat, rng).encode()  # type: ignore[arg-type]
    wanted = f"add:{code[4]}" if code.startswith("add:") else code
    message, custom_id = await controls(stand_in, place, f"dice:{record.id}:{record.version}:act:{wanted}")
    await stand_in.click(person, message, custom_id)


async def controls(stand_in: LocalDiscord, place: int | str, custom_id: str) -> tuple[RecordedMessage, str]:
    """Wait for the message in `place` carrying this custom id."""

    def shown() -> tuple[RecordedMessage, str] | None:
        for message in reversed(stand_in.channel_messages(place)):
            if message.component(custom_id) is not None:
                return message, custom_id
        return None

    return await stand_in.wait_for(shown, what=f"a button {custom_id} in {place}")


async def version_after(bot: Conductor, game_id: int, version: int) -> GameRecord:
    """Wait until a game has moved past a version."""
    async with asyncio.timeout(10):
        while True:
            record = await bot.service.store.get(game_id)
            assert record is not None
            if record.version > version:
                return record
            await asyncio.sleep(0.005)


async def armed(bot: Conductor, game_id: int, seat: int, version: int) -> TurnTimer | None:
    """Wait until a seat's timer is armed (moves are shown before their timers are set); None if the game moved on."""
    async with asyncio.timeout(10):
        while True:
            timer = (await bot.timers.store.timers(game_id)).get(seat)
            record = await bot.service.store.get(game_id)
            if timer is not None or record is None or record.version != version:
                return timer
            await asyncio.sleep(0.005)


def lobby_expiry(bot: Conductor) -> LobbyExpiry:
    """The bot's lobby expiry (on the bot's clock); one made like it when the bot does not keep one."""
    wired: LobbyExpiry | None = getattr(bot, "lobbies", None)
    if wired is not None:
        return wired
    cog: Any = bot.get_cog("LobbyCog")
    return LobbyExpiry(bot.service, bot.config, clock=bot.clock, present=cog.show_expired)


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
