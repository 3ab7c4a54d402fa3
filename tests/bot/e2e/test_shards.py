"""Two bot processes, each holding one of two shards, on one PostgreSQL: each drives only its own servers' games;
a process that loses its lease on its shard stops driving them at once and exits, and its restart drives them alone.

The processes are real (`python -m bot.sandbox.child`, as `python -m bot` with CONDUCTOR_SHARD_COUNT/IDS and
CONDUCTOR_DATABASE_URL), but for one bot run in the test's process to look inside it; the test reads the shared
store to know whose turn it is, and plays through the buttons.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.__main__ import LEASE_LOST
from bot.app import create_bot
from bot.i18n import text
from bot.sandbox.run import sandbox_settings
from bot.sandbox.table import add_bot, bot_policy, button_for, public_controls
from bot.shards import EVERY_SHARD
from bot.storage.database import Database, LeaseLost
from bot.storage.games import GameRecord, GameStore
from bot.storage.opening import open_database
from localdiscord import LocalDiscord, LocalUser
from localdiscord.models import RecordedMessage
from localdiscord.outcome import InteractionOutcome
from rules.dice import DiceEngine
from tests.bot.storage.test_leases import terminate_lease, until_let_go

ENGINE = DiceEngine()
SHARDS = 2
STARTUP_TIMEOUT = 120.0
"""A fresh process draws the art before it connects: seconds on a busy machine."""


@dataclass
class Shard:
    """A bot process holding one shard, and what it wrote to stderr."""

    shard_id: int
    process: asyncio.subprocess.Process
    log: Path

    def errors(self) -> str:
        """What the process logged that a healthy run never does."""
        text = self.log.read_text(errors="replace")
        return "\n".join(line for line in text.splitlines() if "Traceback" in line or "changed under its lock" in line)


@asynccontextmanager
async def shard_process(
    discord: LocalDiscord, url: str, shard_id: int, folder: Path, *, guild_id: int | None = None
) -> AsyncIterator[Shard]:
    """Run the bot for one shard of two in a process of its own (connected to `guild_id`'s shard, if given);
    killed at the end if still running."""
    log = folder / f"shard-{shard_id}-{len(list(folder.glob('shard-*')))}.log"
    environment = {
        **os.environ,
        "CONDUCTOR_DATABASE_URL": url,
        "CONDUCTOR_SHARD_COUNT": str(SHARDS),
        "CONDUCTOR_SHARD_IDS": str(shard_id),
    }
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.sandbox.child",
            discord.api_url,
            discord.gateway_url,
            discord.token,
            str(folder / "unused.sqlite3"),
            env=environment,
            stderr=stderr,
        )
    shard = Shard(shard_id, process, log)
    try:
        if guild_id is not None:
            await discord.wait_connected(timeout=STARTUP_TIMEOUT, guild_id=guild_id)
        yield shard
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


class StoredTable:
    """Plays dice games through the buttons, reading whose turn it is from the shared store (as no person can)."""

    def __init__(self, discord: LocalDiscord, store: GameStore, people: list[LocalUser]) -> None:
        self.discord = discord
        self.store = store
        self.people = people
        self.rng = random.Random(7)

    async def open(self, channel_id: int) -> int:
        """/newgame dice, the second person joins, a bot player sits down, start: return the game id, read from the
        lobby's buttons (Start is answered before the game moves on, maybe into a thread of its own)."""
        host, other = self.people
        await self.discord.slash(host, "newgame dice", channel=channel_id)
        lobby = next(m for m in reversed(self.discord.messages) if _verbs(m) >= {"join"})  # maybe in a new thread
        game_id = 0
        for person, verb in ((other, "join"), (host, "bot"), (host, "start")):
            if verb == "bot":
                await add_bot(self.discord, person, lobby.id)
                continue
            message = self.discord.message(lobby.id)
            button = next(c for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
            game_id = int(button["custom_id"].split(":")[1])
            await self.discord.click(person, message, button["custom_id"])
        return game_id

    async def move(self, game_id: int) -> bool:
        """Make the next person's move once the channel shows its buttons; False when the game is over."""
        record = await self.settled(game_id)
        if record.status != "active":
            return False
        await self.click_move(record)
        await self._past(game_id, record.version)
        return True

    async def click_move(self, record: GameRecord) -> InteractionOutcome:
        """Click a move of the first person to act in a settled game; return the bot's answer."""
        assert record.state is not None
        state = ENGINE.load_state(record.state)
        seat = min(s for s in ENGINE.to_act(state) if not record.bot_plays(s))
        person = next(p for p in self.people if p.id == next(s.user_id for s in record.seats if s.seat == seat))
        code = bot_policy(ENGINE, state, seat, self.rng)
        message = public_controls(self.discord, record)
        assert message is not None
        return await self.discord.click(person, message, button_for(message, code))

    async def settled(self, game_id: int) -> GameRecord:
        """Wait until the game is over, or a person is to act and the channel shows that moment's buttons (a Start
        may be answered before it is stored)."""
        async with asyncio.timeout(60):
            while True:
                record = await self.store.get(game_id)
                assert record is not None
                if record.status not in ("lobby", "active"):
                    return record
                if record.status == "active":
                    assert record.state is not None
                    to_act = ENGINE.to_act(ENGINE.load_state(record.state))
                    if any(not record.bot_plays(s) for s in to_act) and public_controls(self.discord, record):
                        return record
                await asyncio.sleep(0.01)

    async def _past(self, game_id: int, version: int) -> None:
        async with asyncio.timeout(60):
            while (record := await self.store.get(game_id)) is not None and record.version <= version:
                await asyncio.sleep(0.01)


def _verbs(message: RecordedMessage) -> set[str]:
    return {parts[3] for c in message.buttons() if len(parts := str(c.get("custom_id", "")).split(":")) > 3}


@asynccontextmanager
async def shared_store(url: str) -> AsyncIterator[GameStore]:
    database: Database = await open_database(url)
    try:
        yield GameStore(database)
    finally:
        await database.close()


@pytest.mark.slow
async def test_two_shard_processes_on_one_postgresql_play_their_own_servers_games_one_killed_and_restarted(
    postgres_url: str, tmp_path: Path
) -> None:
    people = [LocalUser(name="Ann"), LocalUser(name="Ben")]
    async with LocalDiscord(users=people, timeout=60) as discord, shared_store(postgres_url) as store:
        north = discord.add_guild("North", shard=(0, SHARDS), channels=("trains",))
        south = discord.add_guild("South", shard=(1, SHARDS), channels=("trains",))
        places = {guild: discord.channel("trains", guild_id=guild).id for guild in (north, south)}
        table = StoredTable(discord, store, people)
        async with shard_process(discord, postgres_url, 0, tmp_path, guild_id=north) as first:
            async with shard_process(discord, postgres_url, 1, tmp_path, guild_id=south) as second:
                games = {guild: await table.open(place) for guild, place in places.items()}
                for _ in range(6):  # both games under way, each driven by its own process
                    for game_id in games.values():
                        await table.move(game_id)

                async with shard_process(discord, postgres_url, 1, tmp_path) as intruder:
                    assert await asyncio.wait_for(intruder.process.wait(), STARTUP_TIMEOUT) == 2
                    assert "shard 1 of 2 is run by another Conductor process" in intruder.log.read_text()

                second.process.kill()  # mid-game, no goodbye: its shard's session just drops
                await second.process.wait()
            assert await table.move(games[north]), "the other process plays on meanwhile"

            async with shard_process(discord, postgres_url, 1, tmp_path, guild_id=south) as restarted:
                while any([await table.move(game_id) for game_id in games.values()]):
                    pass
                for game_id in games.values():
                    record = await store.get(game_id)
                    assert record is not None and record.status == "finished"
                    try:
                        async with asyncio.timeout(30):  # the channel shows the end, the restarted process's too
                            while (
                                shown := await store.get(game_id)
                            ) is not None and shown.shown_version < shown.version:
                                await asyncio.sleep(0.05)
                    except TimeoutError:
                        logs = "\n".join(f"{p.log.name}:\n{p.log.read_text()[-6000:]}" for p in (first, restarted))
                        last = [m.text[:200] for m in discord.channel_messages(record.channel_id)[-3:]]
                        raise AssertionError(
                            f"game {game_id}'s end is not shown: stored {shown}\nits channel ends with {last}\n{logs}"
                        ) from None
            for process in (first, second, restarted):
                assert process.errors() == "", f"shard {process.shard_id} logged:\n{process.errors()}"


async def test_a_process_that_loses_its_lease_stops_driving_at_once_and_a_restart_drives_its_games_alone(
    postgres_url: str, tmp_path: Path
) -> None:
    people = [LocalUser(name="Ann"), LocalUser(name="Ben")]
    settings = sandbox_settings(tmp_path / "unused.sqlite3", bot_move_delay=0).model_copy(
        update={"database_url": SecretStr(postgres_url)}
    )
    async with LocalDiscord(users=people, timeout=60) as discord, shared_store(postgres_url) as store:
        table = StoredTable(discord, store, people)
        bot = create_bot(settings)
        async with discord.connected(bot):
            game_id = await table.open(discord.channel("trains").id)
            await table.move(game_id)
            record = await table.settled(game_id)
            driving = {bot.timers.task_name, bot.notifications.task_name, bot.lobbies.task_name, bot.ratings.task_name}
            assert driving <= _running_tasks()

            await terminate_lease(postgres_url)  # an operator's pg_terminate_backend, a failover, a server restart
            async with asyncio.timeout(30):
                await bot.lease_lost.wait()
            assert not (driving & _running_tasks()) and not any(t.startswith("bots-") for t in _running_tasks())
            answer = await (await table.click_move(record)).private_answer()
            assert answer.text == text("en", "bot.reason.restarting")

            await until_let_go(postgres_url)
            async with shared_store(postgres_url) as second:
                await second.database.hold(EVERY_SHARD)  # another process takes the shard
                with pytest.raises(LeaseLost):
                    await bot.service.store.record_action(record, 0, "roll", record.state or "", finished=False)
            after = await store.get(game_id)
            assert after is not None and (after.version, after.state) == (record.version, record.state)
        # leaving the block closed the bot, its database too, without a word of it (close() raised nothing)

        await until_let_go(postgres_url)
        restarted = create_bot(settings)
        async with discord.connected(restarted):
            while await table.move(game_id):
                pass
            assert not restarted.lease_lost.is_set()
        finished = await store.get(game_id)
        assert finished is not None and finished.status == "finished"


@pytest.mark.slow
async def test_a_shard_process_that_loses_its_lease_exits_for_its_supervisor_and_its_restart_plays_on(
    postgres_url: str, tmp_path: Path
) -> None:
    people = [LocalUser(name="Ann"), LocalUser(name="Ben")]
    async with LocalDiscord(users=people, timeout=60) as discord, shared_store(postgres_url) as store:
        south = discord.add_guild("South", shard=(1, SHARDS), channels=("trains",))
        table = StoredTable(discord, store, people)
        async with shard_process(discord, postgres_url, 1, tmp_path, guild_id=south) as first:
            game_id = await table.open(discord.channel("trains", guild_id=south).id)
            await table.move(game_id)
            await table.settled(game_id)
            await terminate_lease(postgres_url, shard=1)
            assert await asyncio.wait_for(first.process.wait(), STARTUP_TIMEOUT) == LEASE_LOST  # closed, no raise
            assert "lost the lease on shards [1]" in first.log.read_text()
        await until_let_go(postgres_url)
        async with shard_process(discord, postgres_url, 1, tmp_path, guild_id=south) as restarted:
            while await table.move(game_id):
                pass
            record = await store.get(game_id)
            assert record is not None and record.status == "finished"
        assert restarted.errors() == ""


def _running_tasks() -> set[str]:
    return {task.get_name() for task in asyncio.all_tasks() if not task.done()}
