"""The offline sandbox: the real bot plays a whole game on the local Discord, through its slash commands and
buttons, and the channel's transcript and every picture are written out. The one module that ties the stand-in, the
bot and the games' move drivers together.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from bot.app import Conductor, create_bot
from bot.sandbox.table import ScriptedTable
from bot.settings import Settings
from bot.storage.games import GameRecord
from localdiscord.errors import StandInTimeout
from localdiscord.local_discord import LocalDiscord
from localdiscord.models import LocalUser, RecordedMessage

log = logging.getLogger(__name__)

SANDBOX_PEOPLE = ("Anna", "Boris", "Chen", "Dasha", "Emil", "Fatima")
STARTUP_SECONDS = 300.0
"""How long the sandbox waits by default for its bot to be ready (`--ready-timeout`), and at the end to finish: a
loaded machine may take minutes."""
PATIENCE = 60.0
"""How long a scripted person waits for the bot's answer before the sandbox gives up (a busy machine can take
seconds)."""
PROGRESS_EVERY = 2.0
"""The longest the sandbox stays silent: a step still going after that many seconds is said again."""

SANDBOX_THINK_SECONDS = 0.1
"""A bot player's budget per move on the local Discord: the real thinking workers, briefly."""


def sandbox_art() -> Path:
    """Where sandbox and test bots keep the static art: the user's cache folder, so every sandbox game and test run
    after the first finds it drawn (its subfolders are per version, so checkouts can share it)."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "conductor" / "art"


def sandbox_settings(database: Path, *, bot_move_delay: float = 0.05) -> Settings:
    """Settings for a bot on the local Discord: no token, fast start, art kept in the user's cache, quick bot players
    (thinking briefly), no cooldowns."""
    return Settings(
        discord_token=None,
        database_path=database,
        art_folder=sandbox_art(),
        guild_ready_timeout=0.1,
        bot_move_delay=bot_move_delay,
        bot_think_seconds=SANDBOX_THINK_SECONDS,
        dev_guild_id=None,
        cooldowns=False,
    )


async def run_sandbox(
    game: str,
    players: int,
    out: Path,
    *,
    seed: int | None = None,
    options: dict[str, object] | None = None,
    ready_timeout: float = STARTUP_SECONDS,
) -> int:
    """Play one whole game offline among scripted people and bot players, saying each step; print the channel; 0 when
    all went well, 1 when something went wrong or the bot was not ready in `ready_timeout` seconds.

    `players` counts every seat: `players - 1` scripted people (one at least, six at most), bot players for the rest.
    `options` are /newgame's variant options (e.g. `{"map": "europe"}`)."""
    out.mkdir(parents=True, exist_ok=True)
    n_people = max(1, min(players - 1, len(SANDBOX_PEOPLE)))
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[:n_people]]
    progress = Progress()
    progress.say(
        f"A {game} game at {players} seats, all played by the computer: {seating(people, players - n_people)}."
    )
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "sandbox.sqlite3")
        progress.say("Starting a local Discord…")
        async with (
            progress.talking(),
            LocalDiscord(users=people, timeout=PATIENCE) as discord,
            AsyncExitStack() as running,
        ):
            bot = create_bot(settings)
            if not await _start(progress, discord, bot, running, ready_timeout):
                return 1
            table = ScriptedTable(discord, bot, people)
            progress.say("The bot is ready; opening the game…")
            record = await table.open(game, bots=players - n_people, options=options)
            progress.say("Playing…", _moves_made(bot, record))
            seed = seed if seed is not None else random.randrange(1 << 30)
            finished = await table.play_to_the_end(record.id, seed=seed)
            progress.say(
                f"The game is over after {finished.version - record.version} moves; stopping the bot…",
                lambda: "Still stopping the bot…",
            )
            await running.aclose()
            places = [discord.channel("trains").id, *(thread.id for thread in discord.threads)]  # games in threads
            print("\n" + "\n\n".join(discord.transcript(place) for place in places))
            progress.say(f"Writing pictures to {out.resolve()}…")
            written = sum(_write_pictures(discord.channel_messages(place), out) for place in places)
            for person in people:  # every private message they got, the menus withdrawn once used included
                got = [m for m in discord.messages if m.ephemeral and m.recipient_id == person.id]
                written += _write_pictures(got, out, prefix=f"private-{person.name}-")
            progress.say(f"{written} pictures written.")
            problems = [*discord.unhandled, *discord.logged_errors]
    for problem in problems:
        print(f"problem: {problem}")
    return 1 if problems else 0


async def _start(
    progress: Progress, discord: LocalDiscord, bot: Conductor, running: AsyncExitStack, ready_timeout: float
) -> bool:
    """Start the bot on the local Discord, kept running by `running`; False, said in plain words, when it was not
    ready in `ready_timeout` seconds (the stand-in's StandInTimeout speaks to test authors)."""
    began = time.monotonic()
    progress.say("Starting the bot…", lambda: f"Still starting the bot ({time.monotonic() - began:.0f} s)…")
    try:
        await running.enter_async_context(discord.connected(bot, timeout=ready_timeout))
    except StandInTimeout:
        print(
            f"The bot was not ready after {ready_timeout:g} s; this machine may be busy. Try again, or pass "
            f"--ready-timeout {max(600, 2 * ready_timeout):g}.",
            file=sys.stderr,
            flush=True,
        )
        return False
    return True


def seating(people: Sequence[LocalUser], bots: int) -> str:
    """Who sits at the sandbox's table, in words: the scripted people by name, then how many bot players."""
    one = len(people) == 1
    scripted = f"{len(people)} scripted {'person who clicks' if one else 'people who click'} the buttons"
    return f"{scripted} ({', '.join(p.name for p in people)}) and {bots} bot player{'' if bots == 1 else 's'}"


def _moves_made(bot: Conductor, opened: GameRecord) -> Callable[[], str]:
    """The playing step's progress line: the moves made since the game opened (the most seen: a game that just
    ended is no longer among the running ones)."""
    newest = opened.version

    def line() -> str:
        nonlocal newest
        newest = max([newest, *(r.version for r in bot.service.running() if r.id == opened.id)])
        return f"Playing… ({newest - opened.version} moves)"

    return line


class Progress:
    """The sandbox's console (stdout, plain English for whoever runs it): a short line per step, and the step's
    progress again after PROGRESS_EVERY seconds of silence, so a slow step never looks like a hang."""

    def __init__(self) -> None:
        self._again: Callable[[], str] | None = None
        self._said = time.monotonic()

    def say(self, line: str, again: Callable[[], str] | None = None) -> None:
        """Print a step; while it lasts, `again()` is printed after each silence (nothing when None)."""
        print(line, flush=True)
        self._said = time.monotonic()
        self._again = again

    @asynccontextmanager
    async def talking(self) -> AsyncIterator[None]:
        """Say the current step's progress after each silence while the block runs."""
        ticker = asyncio.create_task(self._keep_talking(), name="sandbox-progress")
        try:
            yield
        finally:
            ticker.cancel()

    async def _keep_talking(self) -> None:
        while True:
            silent = time.monotonic() - self._said
            if silent < PROGRESS_EVERY:
                await asyncio.sleep(PROGRESS_EVERY - silent)
            elif self._again is not None:
                self.say(self._again(), self._again)
            else:
                await asyncio.sleep(PROGRESS_EVERY)


def _write_pictures(messages: Sequence[RecordedMessage], out: Path, *, prefix: str = "") -> int:
    """Write every picture of every version of these messages, named by message and revision."""
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
                (out / f"{prefix}{message.id}-{number:02d}-{name}").write_bytes(attachment.data)
                count += 1
    return count
