"""The operator's tools against the bot as a service runs it (a process of its own, its health served on a port):
`python -m bot health` follows the bot's health, `backup` copies the store while the bot plays, `restore` is refused
until the bot is stopped and then puts the backup back."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.storage.backup import backups
from bot.storage.games import GameStore
from bot.storage.opening import open_database
from localdiscord import LocalDiscord
from tests.bot.e2e.test_real_server import child_bot
from tests.ports import free_port

# A bot in a process of its own, and the tools in processes of theirs: the slow group, which CI runs.
pytestmark = pytest.mark.slow


async def tool(env: dict[str, str], *args: str) -> tuple[int, str]:
    """Run `python -m bot ARGS` as an operator would; its exit status and what it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


async def lobby_channels(database: Path) -> set[int]:
    """The channels of the lobbies stored in a database."""
    store = await open_database(database)
    try:
        return {record.channel_id for record in await GameStore(store).with_status(("lobby",))}
    finally:
        await store.close()


async def test_health_backup_and_restore_follow_the_running_bot(
    stand_in: LocalDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "games.sqlite3"
    monkeypatch.setenv("CONDUCTOR_OPS_LISTEN", f"127.0.0.1:{free_port()}")  # the child bot reads it too
    monkeypatch.setenv("CONDUCTOR_DATABASE_PATH", str(database))
    monkeypatch.delenv("CONDUCTOR_DISCORD_TOKEN", raising=False)
    env = dict(os.environ)
    async with child_bot(stand_in, database) as child:
        status, said = await tool(env, "health")
        assert status == 0, said
        before = (await stand_in.slash("Ann", "newgame dice", channel="trains")).message
        status, said = await tool(env, "backup")
        assert status == 0, said
        after = (await stand_in.slash("Ann", "newgame dice", channel="general")).message
        assert before is not None and after is not None
        backup = backups(tmp_path / "backups")[-1]
        status, said = await tool(env, "restore", str(backup))
        assert status == 2 and "runs on the database" in said, said
        child.send_signal(signal.SIGTERM)
        assert await child.wait() == 0
    status, said = await tool(env, "health")
    assert status == 1, f"nobody answers: unhealthy ({said})"
    assert await lobby_channels(database) == {before.channel_id, after.channel_id}
    status, said = await tool(env, "restore", str(backup))
    assert status == 0 and "kept as" in said, said
    assert await lobby_channels(database) == {before.channel_id}, "the store as it was backed up"
