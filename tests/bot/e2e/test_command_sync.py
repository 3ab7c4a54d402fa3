"""A start syncs the slash commands only when they changed since the last sync from this store (Discord limits
command writes per day); otherwise it reads their ids, so command mentions still work. An operator can force a sync."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running


@asynccontextmanager
async def started(
    stand_in: LocalDiscord, database: Path, *, ping: str | None = None, **settings: Any
) -> AsyncIterator[Conductor]:
    """Run a bot on this database with these settings changed, and a `/ping` described so if `ping` is given."""
    bot = create_bot(sandbox_settings(database, bot_move_delay=0).model_copy(update=settings))
    if ping is not None:
        bot.tree.add_command(app_commands.Command(name="ping", description=ping, callback=_ping))
    async with stand_in.connected(bot):
        yield bot


async def _ping(interaction: discord.Interaction[Any]) -> None:
    """Never run: a command only these tests add, to change the command tree between starts."""


async def test_a_second_start_with_the_same_commands_reads_their_ids_instead_of_syncing(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        newgame = stand_in.command("newgame").id
    async with running():
        answer = await stand_in.slash("Ann", "leave")
    assert stand_in.command_syncs == {None: 1}
    assert answer.text == f"There is no game in this channel. Start one with </newgame dice:{newgame}>."


async def test_a_changed_description_is_synced_again_and_then_not_again(stand_in: LocalDiscord, tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with started(stand_in, database, ping="Check the bot"):
        pass
    async with started(stand_in, database, ping="Check that the bot answers"):
        assert stand_in.command_syncs == {None: 2}
        assert stand_in.command("ping").payload["description"] == "Check that the bot answers"
    async with started(stand_in, database, ping="Check that the bot answers"):
        pass
    assert stand_in.command_syncs == {None: 2}


async def test_an_operator_can_sync_at_every_start(stand_in: LocalDiscord, tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with started(stand_in, database):
        pass
    async with started(stand_in, database, sync_commands="always"):
        pass
    assert stand_in.command_syncs == {None: 2}


async def test_commands_another_store_synced_since_are_put_back(stand_in: LocalDiscord, tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours.sqlite3", tmp_path / "theirs.sqlite3"
    async with started(stand_in, ours):
        pass
    async with started(stand_in, theirs, ping="Check the bot"):
        pass
    async with started(stand_in, ours):
        assert [c.name for c in stand_in.commands if c.name == "ping"] == []
    assert stand_in.command_syncs == {None: 3}


async def test_commands_of_a_dev_server_are_synced_once_to_that_server(stand_in: LocalDiscord, tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with started(stand_in, database, dev_guild_id=stand_in.guild_id):
        newgame = stand_in.command("newgame", guild_id=stand_in.guild_id)
    async with started(stand_in, database, dev_guild_id=stand_in.guild_id):
        answer = await stand_in.slash("Ann", "leave")
    assert newgame.guild_id == stand_in.guild_id and stand_in.command_syncs == {stand_in.guild_id: 1}
    assert answer.text == f"There is no game in this channel. Start one with </newgame dice:{newgame.id}>."
