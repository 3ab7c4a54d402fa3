"""The offline sandbox: the real bot plays a whole game on the local Discord, through its slash commands and
buttons, and the channel's transcript and every picture are written out. Also the scripted table the end-to-end
tests drive games with.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import Conductor, create_bot
from bot.sandbox.local_discord import LocalDiscord
from bot.sandbox.models import LocalUser, RecordedMessage
from bot.settings import Settings
from bot.storage.games import GameRecord

log = logging.getLogger(__name__)

SANDBOX_PEOPLE = ("Anna", "Boris", "Chen", "Dasha", "Emil", "Fatima")


def sandbox_settings(database: Path, *, bot_move_delay: float = 0.05) -> Settings:
    """Settings for a bot on the local Discord: no token, fast start, quick bot players."""
    return Settings(
        discord_token=None,
        database_path=database,
        guild_ready_timeout=0.1,
        bot_move_delay=bot_move_delay,
        dev_guild_id=None,
    )


@dataclass
class ScriptedTable:
    """Plays a game through the stand-in as its people would: clicking the buttons the bot drew.

    People choose their moves with the game's own bot player (from what their seat may see); `bot` is the
    running Conductor, used only to know whose turn it is and to pick moves, never to make them.
    """

    discord: LocalDiscord
    bot: Conductor
    people: Sequence[LocalUser]
    latencies: list[float] = field(default_factory=list)
    """Seconds from each click being dispatched to the bot's first answer (for the benchmarks)."""

    async def open(self, game: str, *, bots: int = 0, options: dict[str, object] | None = None) -> GameRecord:
        """Open a lobby by /newgame as the first person, seat the others and `bots` bot players, and start."""
        host, *others = self.people
        lobby = (await self.discord.slash(host, "newgame", {"game": game, **(options or {})})).message
        assert lobby is not None, "/newgame answered without a lobby message"
        for person in others:
            await self.click_labelled(person, lobby.id, "join")
        for _ in range(bots):
            await self.click_labelled(host, lobby.id, "bot")
        await self.click_labelled(host, lobby.id, "start")
        record = await self.bot.service.game_in_channel(lobby.channel_id)
        await self.turn_message(record.id)
        return record

    async def click_labelled(self, person: LocalUser, message_id: int, verb: str) -> None:
        """Click the button of a message whose custom id has this verb."""
        message = self.discord.message(message_id)
        custom_id = next(c["custom_id"] for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await self.discord.click(person, message, custom_id)

    async def turn_message(self, game_id: int, timeout: float = 10.0) -> RecordedMessage:
        """Wait until the message with the controls of the game's current version is shown, and return it."""
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        prefix = f"{record.game}:{game_id}:{record.version}:"

        def current() -> RecordedMessage | None:
            for message in reversed(self.discord.channel_messages()):
                if any(str(c.get("custom_id", "")).startswith(prefix) for c in message.walk_components()):
                    return message
            return None

        return await self.discord.wait_for(current, timeout=timeout, what=f"the controls of version {prefix}")

    async def play_move(self, game_id: int, rng: random.Random) -> bool:
        """Make the next person's move by clicking its button; False once the game is over or bots are to act."""
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        if record.status != "active":
            return False
        engine = self.bot.service.engine(record.game)
        state = self.bot.service.state(game_id)
        seats = sorted(engine.to_act(state))
        people = {s.seat: s.user_id for s in record.seats if s.user_id is not None}
        seat = next((s for s in seats if s in people), None)
        if seat is None:
            await self.wait_for_version_after(game_id, record.version)
            return True
        code = engine.bot_action(state, seat, rng).encode()
        message = await self.turn_message(game_id)
        custom_id = _button_for(message, code)
        person = next(p for p in self.people if p.id == people[seat])
        started = time.perf_counter()
        await self.discord.click(person, message, custom_id)
        self.latencies.append(time.perf_counter() - started)
        await self.wait_for_version_after(game_id, record.version)
        return True

    async def play_to_the_end(self, game_id: int, *, seed: int = 0, max_moves: int = 5000) -> GameRecord:
        """Play every person's moves (bot players move by themselves) until the game is finished."""
        rng = random.Random(seed)
        for _ in range(max_moves):
            if not await self.play_move(game_id, rng):
                break
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        assert record.status == "finished", f"game {game_id} did not finish in {max_moves} moves"
        await self.discord.wait_for_message(lambda m: _is_final(m, game_id), timeout=10)
        return record

    async def wait_for_version_after(self, game_id: int, version: int, timeout: float = 10.0) -> None:
        """Wait until the game has moved past `version` and its new controls (or final message) are shown."""

        async def moved() -> bool:
            record = await self.bot.service.store.get(game_id)
            return record is not None and record.version > version

        for _ in range(int(timeout / 0.01)):
            if await moved():
                break
            await asyncio.sleep(0.01)
        else:
            raise TimeoutError(f"game {game_id} stayed at version {version}")
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        if record.status == "active":
            await self.turn_message(game_id, timeout)


def _button_for(message: RecordedMessage, code: str) -> str:
    """The custom id of the button applying `code`; a multi-die add is played one die at a time."""
    wanted = code if not code.startswith("add:") else f"add:{code[4]}"
    for component in message.walk_components():
        custom_id = str(component.get("custom_id", ""))
        if custom_id.split(":", 4)[3:] == ["act", wanted]:
            return custom_id
    raise KeyError(f"no button for {code!r} on message {message.id}")


def _is_final(message: RecordedMessage, game_id: int) -> bool:
    return any(a.filename == "scores.png" for a in message.attachments) and not message.components


async def run_sandbox(game: str, players: int, out: Path, *, seed: int | None = None) -> int:
    """Play one whole game offline among scripted people and bot players; print the channel; 0 when all went well."""
    out.mkdir(parents=True, exist_ok=True)
    n_people = max(1, min(players - 1, len(SANDBOX_PEOPLE)))
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[:n_people]]
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "sandbox.sqlite3")
        async with LocalDiscord(users=people) as discord:
            bot = create_bot(settings)
            async with discord.connected(bot):
                table = ScriptedTable(discord, bot, people)
                record = await table.open(game, bots=players - n_people)
                await table.play_to_the_end(record.id, seed=seed if seed is not None else random.randrange(1 << 30))
            print(discord.transcript())
            written = _write_pictures(discord.channel_messages(), out)
            print(f"\n{written} pictures written to {out.resolve()}")
            problems = [*discord.unhandled, *discord.logged_errors]
    for problem in problems:
        print(f"problem: {problem}")
    return 1 if problems else 0


def _write_pictures(messages: Sequence[RecordedMessage], out: Path) -> int:
    """Write every picture of every version of the channel's messages, named by message and revision."""
    count = 0
    for message in messages:
        revisions = [*message.history, message.revision()]
        seen: set[bytes] = set()
        for number, revision in enumerate(revisions):
            for attachment in revision.attachments:
                if attachment.data in seen:
                    continue
                seen.add(attachment.data)
                name = re.sub(r"[^\w.-]", "_", attachment.filename)
                (out / f"{message.id}-{number:02d}-{name}").write_bytes(attachment.data)
                count += 1
    return count
