"""A store another program holds locked: every click and command is still acknowledged within Discord's deadline
(the stand-in enforces it) and answered, privately, that the store is busy and nothing changed; once the other
program lets go, the same clicks work. A Start that could not be stored leaves no thread."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import Conductor
from localdiscord import InteractionOutcome, LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Running, table

BUSY = "The game's store is busy; nothing was changed. Try again in a moment."
BUSY_RU = "Хранилище игр сейчас занято; ничего не изменилось. Попробуйте ещё раз чуть позже."
ANSWERED_WITHIN = 90.0
"""How long a test waits for an answer that comes once the store gives up (a failure limit, never asserted)."""

_HOLDER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.readline()
connection.execute("ROLLBACK")
"""
"""Another program: it takes the file's write lock, says so, and keeps it until told to let go."""


@asynccontextmanager
async def locked_by_another_program(path: Path) -> AsyncIterator[None]:
    """Hold the SQLite file's write lock from another process for as long as the block runs."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _HOLDER, str(path), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert await holder.stdout.readline() == b"held\n"
        yield
    finally:
        holder.stdin.write(b"release\n")
        await holder.stdin.drain()
        assert await holder.wait() == 0


def buttons(message: RecordedMessage) -> dict[str, str]:
    """A message's buttons: the verb (a dice move's action) -> custom id."""
    found = {}
    for component in message.walk_components():
        parts = str(component.get("custom_id", "")).split(":", 4)
        if len(parts) >= 4:
            found[parts[4] if parts[3] == "act" else parts[3]] = str(component["custom_id"])
    return found


async def said(outcome: InteractionOutcome) -> str:
    """The private answer an interaction got, however long it took to come."""
    return (await outcome.private_answer(timeout=ANSWERED_WITHIN)).text


async def stored(bot: Conductor, game_id: int) -> tuple[int, str, int]:
    """A game's stored version, status and number of seats."""
    record = await bot.service.store.get(game_id)
    assert record is not None
    return record.version, record.status, len(record.seats)


@pytest.mark.slow
async def test_a_store_another_program_locks_leaves_no_click_or_command_unanswered(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        game = await players.open("dice")
        turn = await players.turn_message(game.id)
        to_act = players.person_to_act(await bot.service.get(game.id))
        assert to_act is not None
        mover = to_act[1]
        lobby = (await stand_in.slash("Cat", "newgame dice", channel="general")).message
        assert lobby is not None
        await bot.shown.flush()  # what the channels show is stored: nothing is left to write meanwhile
        before = await stored(bot, game.id), await stored(bot, int(buttons(lobby)["join"].split(":")[1]))

        async with locked_by_another_program(tmp_path / "games.sqlite3"):
            move, roll, join, join_too = await asyncio.gather(
                stand_in.click(mover, turn, buttons(turn)["roll"], timeout=ANSWERED_WITHIN),
                stand_in.slash(mover, "roll", timeout=ANSWERED_WITHIN),
                stand_in.click("Dan", lobby, buttons(lobby)["join"], timeout=ANSWERED_WITHIN),
                stand_in.click("Eve", lobby, buttons(lobby)["join"], timeout=ANSWERED_WITHIN),
            )  # each acknowledged within the stand-in's deadline, or it raises
            answers = await asyncio.gather(said(move), said(roll), said(join), said(join_too))
            assert answers == [BUSY, BUSY, BUSY_RU, BUSY], "Dan reads Russian"
            assert roll.message is None or roll.message.deleted, "the public 'thinking…' gave way to the private answer"
            lobby_id = int(buttons(lobby)["join"].split(":")[1])
            assert (await stored(bot, game.id), await stored(bot, lobby_id)) == before, "nothing was changed"

        moved = await stand_in.click(mover, turn, buttons(turn)["roll"])
        assert not moved.ephemeral
        joined = await stand_in.click("Eve", lobby, buttons(stand_in.message(lobby.id))["join"])
        assert not joined.ephemeral
        assert (await stored(bot, game.id))[0] == before[0][0] + 1
        assert (await stored(bot, lobby_id))[2] == before[1][2] + 1


async def test_a_start_that_cannot_be_stored_leaves_no_thread(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    async with running(threads=True) as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, buttons(lobby)["join"])
        await bot.shown.flush()
        game_id = int(buttons(lobby)["start"].split(":")[1])

        async with locked_by_another_program(tmp_path / "games.sqlite3"):
            start = buttons(stand_in.message(lobby.id))["start"]
            refused = await stand_in.click("Ann", lobby, start, timeout=ANSWERED_WITHIN)
            assert await said(refused) == BUSY
            assert stand_in.threads and all(thread.deleted for thread in stand_in.threads), "its thread is gone"
            assert (await stored(bot, game_id))[1] == "lobby"

        started = await stand_in.click("Ann", lobby, buttons(stand_in.message(lobby.id))["start"])
        await started.edited()
        live = [thread for thread in stand_in.threads if not thread.deleted]
        assert len(live) == 1 and (await bot.service.get(game_id)).channel_id == live[0].id
