"""The offline sandbox: the real bot plays a whole game on the local Discord, through its slash commands and
buttons, and the channel's transcript and every picture are written out. Also the scripted table the end-to-end
tests drive games with.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.app import Conductor, create_bot
from bot.games import GAMES
from bot.sandbox.errors import StandInTimeout
from bot.sandbox.local_discord import LocalDiscord
from bot.sandbox.models import LocalUser, RecordedMessage
from bot.sandbox.outcome import InteractionOutcome
from bot.settings import Settings
from bot.storage.games import GameRecord
from rules.engine import GameEngine

log = logging.getLogger(__name__)

SANDBOX_PEOPLE = ("Anna", "Boris", "Chen", "Dasha", "Emil", "Fatima")
STARTUP_SECONDS = 300.0
"""How long the sandbox waits by default for its bot to be ready (`--ready-timeout`), and at the end to finish: a
loaded machine may take minutes."""
PROGRESS_EVERY = 2.0
"""The longest the sandbox stays silent: a step still going after that many seconds is said again."""

Policy = Callable[[GameEngine[Any, Any, Any], BaseModel, int, random.Random], str]
"""How a scripted person picks a move: (engine, state, seat, rng) -> action text, from what that seat may see."""


def bot_policy(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random) -> str:
    """The default: the move the game's own bot player would make."""
    return engine.bot_action(state, seat, rng).encode()


async def add_bot(
    discord: LocalDiscord, person: LocalUser | str, lobby_id: int, kind: str = "normal"
) -> InteractionOutcome:
    """Click a lobby's Add bot player as `person` and choose `kind` in the private choice it answers with; return
    the answer to that choice (or the refusal of the click, when there was no choice)."""
    lobby = discord.message(lobby_id)
    custom_id = next(c["custom_id"] for c in lobby.buttons() if c["custom_id"].split(":")[3] == "bot")
    asked = await discord.click(person, lobby, custom_id)
    choice = asked.message
    menu = None if choice is None else next((c for c in choice.walk_components() if c.get("type") == 3), None)
    if choice is None or menu is None:
        return asked
    return await discord.select(person, choice, str(menu["custom_id"]), [kind])


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


@dataclass
class ScriptedTable:
    """Plays a game through the stand-in as its people would: clicking the buttons and menus the bot drew.

    People choose their moves with `policy` (by default the game's own bot player, from what their seat may
    see); `bot` is the running Conductor, used only to know whose turn it is and to pick moves, never to make
    them. How a move is made through the UI is the game's move driver (see `move_driver`).
    """

    discord: LocalDiscord
    bot: Conductor
    people: Sequence[LocalUser]
    policy: Policy = bot_policy
    latencies: list[float] = field(default_factory=list)
    """Seconds from each click being dispatched to the bot's first answer (for the benchmarks)."""
    timings: list[tuple[str, float]] = field(default_factory=list)
    """(what, seconds) for each interaction: the move's verb for the one that makes it, `menu` for the others."""
    shown: list[tuple[str, float]] = field(default_factory=list)
    """(verb, seconds) for each move: from its last interaction being dispatched until the public messages show
    the game past that move (a newer version's controls, or the final message)."""
    last_answer: InteractionOutcome | None = None
    _last_started: float = 0.0

    async def open(self, game: str, *, bots: int = 0, options: dict[str, object] | None = None) -> GameRecord:
        """Open a lobby by /newgame as the first person, seat the others and `bots` bot players, and start."""
        host, *others = self.people
        await self.discord.slash(host, f"newgame {game}", options)
        lobby = next((m for m in reversed(self.discord.messages) if _has_verb(m, "join")), None)
        assert lobby is not None, "/newgame opened no lobby"
        for person in others:
            await self.click_labelled(person, lobby.id, "join")
        for _ in range(bots):
            await self.add_bot(host, lobby.id)
        game_id = int(str(lobby.buttons()[0]["custom_id"]).split(":")[1])
        await self.click_labelled(host, lobby.id, "start")
        await self.discord.wait_for(  # a Start that opens the game's thread is acknowledged first, shown after
            lambda: not self.discord.message(lobby.id).buttons() or None, what="the lobby shown started"
        )
        record = await self.bot.service.get(game_id)
        await self.settle(record.id)
        return record

    async def add_bot(self, person: LocalUser, lobby_id: int, kind: str = "normal") -> InteractionOutcome:
        """Seat a bot player of `kind` as a person does: Add bot player, then the kind in the private choice."""
        return await add_bot(self.discord, person, lobby_id, kind)

    async def click_labelled(self, person: LocalUser, message_id: int, verb: str) -> None:
        """Click the button of a message whose custom id has this verb."""
        message = self.discord.message(message_id)
        custom_id = next(c["custom_id"] for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await self.discord.click(person, message, custom_id)

    async def timed(self, what: str, interaction: Awaitable[InteractionOutcome]) -> InteractionOutcome:
        """Await an interaction, noting how long the bot took to answer it."""
        started = self._last_started = time.perf_counter()
        outcome = await interaction
        elapsed = time.perf_counter() - started
        self.latencies.append(elapsed)
        self.timings.append((what, elapsed))
        self.last_answer = outcome
        return outcome

    async def turn_message(self, game_id: int, timeout: float = 10.0) -> RecordedMessage:
        """Wait until the message with the controls of the game's current version is shown, and return it."""
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        return await self.discord.wait_for(
            lambda: self.public_controls(record), timeout=timeout, what=f"the controls of version {record.version}"
        )

    def public_controls(self, record: GameRecord) -> RecordedMessage | None:
        """The newest public message with controls of this record's version in its channel, if shown yet."""
        return public_controls(self.discord, record)

    def person_to_act(self, record: GameRecord) -> tuple[int, LocalUser] | None:
        """The first seat a person plays among those to act now, with that person."""
        engine = self.bot.service.engine(record.game)
        people = {s.seat: s.user_id for s in record.seats if s.user_id is not None}
        try:
            state = self.bot.service.state(record.id)
        except KeyError:  # a bot player ended the game after the record was read: the next look sees it over
            return None
        for seat in sorted(engine.to_act(state)):
            if seat in people:
                return seat, next(p for p in self.people if p.id == people[seat])
        return None

    async def settle(self, game_id: int, timeout: float = 10.0) -> GameRecord:
        """Wait until the game is over, or a person is to act and the controls of that moment are shown."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            record = await self.bot.service.store.get(game_id)
            assert record is not None
            if record.status != "active":
                return record
            if self.person_to_act(record) is not None and self.public_controls(record) is not None:
                return record
            if loop.time() > deadline:
                raise TimeoutError(f"game {game_id} did not settle at version {record.version}")
            await asyncio.sleep(0.005)

    async def play_move(self, game_id: int, rng: random.Random) -> bool:
        """Make the next person's move through the UI (bot players move by themselves); False once over."""
        record = await self.settle(game_id)
        if record.status != "active":
            return False
        found = self.person_to_act(record)
        assert found is not None
        seat, person = found
        engine = self.bot.service.engine(record.game)
        code = self.policy(engine, self.bot.service.state(game_id), seat, rng)
        since = await self._first_message(game_id)
        await move_driver(record.game)(self, record, person, code)
        await self.discord.wait_for(
            lambda: self._shown_past(record, since), what=f"the game shown past {record.version}"
        )
        self.shown.append((code.partition(":")[0], time.perf_counter() - self._last_started))
        await self.wait_for_version_after(game_id, record.version)
        return True

    async def _first_message(self, game_id: int) -> int:
        """The id of the game's lobby message: every later message in its channel belongs to it."""
        where = await self.bot.service.message(game_id, "lobby")
        return where[1] if where is not None else 0

    def _shown_past(self, record: GameRecord, since: int) -> bool:
        """Whether a public message shows controls of a version after the record's, or the game's end."""
        prefix = f"{record.game}:{record.id}:"
        for message in reversed(self.discord.channel_messages(record.channel_id)):
            if message.id < since:
                break
            if _is_final(message):
                return True
            for component in message.walk_components():
                custom_id = str(component.get("custom_id", ""))
                if custom_id.startswith(prefix) and int(custom_id.split(":")[2]) > record.version:
                    return True
        return False

    async def play_to_the_end(self, game_id: int, *, seed: int = 0, max_moves: int = 5000) -> GameRecord:
        """Play every person's moves (bot players move by themselves) until the game is finished."""
        rng = random.Random(seed)
        for _ in range(max_moves):
            if not await self.play_move(game_id, rng):
                break
        record = await self.bot.service.store.get(game_id)
        assert record is not None
        assert record.status == "finished", f"game {game_id} did not finish in {max_moves} moves"
        since = await self._first_message(game_id)
        await self.discord.wait_for_message(lambda m: m.id > since and _is_final(m), timeout=10)
        return record

    async def wait_for_version_after(self, game_id: int, version: int, timeout: float = 10.0) -> None:
        """Wait until the game has moved past `version`, then until it settles (see `settle`)."""
        for _ in range(int(timeout / 0.005)):
            record = await self.bot.service.store.get(game_id)
            if record is not None and record.version > version:
                break
            await asyncio.sleep(0.005)
        else:
            answer = self.last_answer.text if self.last_answer is not None else ""
            raise TimeoutError(f"game {game_id} stayed at version {version}; the last answer was {answer!r}")
        await self.settle(game_id, timeout)

    def own_controls(self, record: GameRecord, person: LocalUser, verbs: set[str]) -> RecordedMessage | None:
        """The person's newest private message with a control of one of these verbs at the current version."""
        prefix = f"{record.game}:{record.id}:{record.version}:"
        for message in reversed(self.discord.ephemerals(person)):
            for component in message.walk_components():
                custom_id = str(component.get("custom_id", ""))
                if custom_id.startswith(prefix) and custom_id.split(":")[3] in verbs:
                    return message
        return None


MoveDriver = Callable[[ScriptedTable, GameRecord, LocalUser, str], Awaitable[None]]


async def click_turn_button(table: ScriptedTable, record: GameRecord, person: LocalUser, code: str) -> None:
    """Make a move by clicking its button on the turn message (the dice game's way)."""
    message = await table.turn_message(record.id)
    await table.timed(code.partition(":")[0], table.discord.click(person, message, button_for(message, code)))


def public_controls(discord: LocalDiscord, record: GameRecord) -> RecordedMessage | None:
    """The newest public message with controls of this record's version in its channel, if shown yet."""
    prefix = f"{record.game}:{record.id}:{record.version}:"
    for message in reversed(discord.channel_messages(record.channel_id)):
        if any(str(c.get("custom_id", "")).startswith(prefix) for c in message.walk_components()):
            return message
    return None


def button_for(message: RecordedMessage, code: str) -> str:
    """The custom id of the button applying `code`; a multi-die add is played one die at a time."""
    wanted = code if not code.startswith("add:") else f"add:{code[4]}"
    for component in message.walk_components():
        custom_id = str(component.get("custom_id", ""))
        if custom_id.split(":", 4)[3:] == ["act", wanted]:
            return custom_id
    raise KeyError(f"no button for {code!r} on message {message.id}")


def _has_verb(message: RecordedMessage, verb: str) -> bool:
    """Whether a message has a button whose custom id has this verb."""
    return any(str(c.get("custom_id", "")).split(":")[3:4] == [verb] for c in message.buttons())


def _is_final(message: RecordedMessage) -> bool:
    """Whether a message is a game's last: Rematch is its only control (a layout's text is no control), whatever
    its game draws."""
    ids = [str(component["custom_id"]) for component in message.walk_components() if "custom_id" in component]
    return bool(ids) and all(custom_id.endswith(":rematch") for custom_id in ids)


def _controls(message: RecordedMessage) -> Iterator[tuple[str, dict[str, Any]]]:
    """(verb, component) for each control of our custom id grammar on a message."""
    for component in message.walk_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) >= 4:
            yield parts[3], component


def _select_with(message: RecordedMessage | None, verb: str, value: str) -> str | None:
    """The custom id of a select of this verb offering `value`."""
    if message is None:
        return None
    for found, component in _controls(message):
        if found == verb and any(o.get("value") == value for o in component.get("options") or []):
            return str(component["custom_id"])
    return None


def move_driver(game: str) -> MoveDriver:
    """How a game's moves are made through its UI: the driver its entry names, or clicking a turn-message button."""
    path = GAMES[game].driver
    if path is None:
        return click_turn_button
    module, _, name = path.partition(":")
    driver: MoveDriver = getattr(importlib.import_module(module), name)
    return driver


def _ticket_choice(table: ScriptedTable, person: LocalUser, ids: list[str]) -> RecordedMessage | None:
    """The person's newest private ticket choice offering these tickets (it is not bound to a version; both Ticket
    to Ride games' drivers look for it)."""
    for message in reversed(table.discord.ephemerals(person)):
        if all(_select_with(message, "keep", ticket) is not None for ticket in ids):
            return message
    return None


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
        async with progress.talking(), LocalDiscord(users=people) as discord, AsyncExitStack() as running:
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
            for person in people:
                written += _write_pictures(discord.ephemerals(person), out, prefix=f"private-{person.name}-")
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
