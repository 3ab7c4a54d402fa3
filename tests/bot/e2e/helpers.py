"""What the end-to-end tests share: the stand-in's people and its clean-up checks, starting the bot, seating a table,
finding controls and stored versions, playing a game to a wanted moment, and scanning public messages for secrets."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import discord
import pytest

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from bot.sandbox.table import ScriptedTable
from bot.services.lobby_expiry import LobbyExpiry
from bot.storage.games import GameRecord
from bot.storage.timers import TurnTimer
from localdiscord import LocalDiscord, LocalRole, LocalUser, MessageRevision, RecordedMessage
from rules.dice import DiceEngine

PEOPLE = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
CREATORS = "Conductors"

Running = Callable[..., AbstractAsyncContextManager[Conductor]]
Seen = TypeVar("Seen")

PATIENCE = 60.0
"""How long an end-to-end wait may last before the test fails: a passing test never waits it out, and a loaded 2-core
machine can take seconds where an idle one takes milliseconds."""


# ---- the stand-in and the bot ---------------------------------------------------------------------------------


def usual_people(roles: Mapping[str, tuple[str, ...]] | None = None) -> list[LocalUser]:
    """The seven people of every test (Dan reads Russian), with these role names by person."""
    return [
        LocalUser(name, locale="ru" if name == "Dan" else "en-US", roles=(roles or {}).get(name, ())) for name in PEOPLE
    ]


@asynccontextmanager
async def checked(
    caplog: pytest.LogCaptureFixture, users: list[LocalUser], **options: Any
) -> AsyncIterator[LocalDiscord]:
    """A started stand-in with these people; afterwards nothing may be unhandled and nothing logged as an error."""
    caplog.set_level(logging.INFO)
    options.setdefault("timeout", PATIENCE)
    async with LocalDiscord(users=users, **options) as discord_:
        yield discord_
    assert discord_.unhandled == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [f"{r.name}: {r.getMessage()}" for r in errors]
    assert discord_.logged_errors == []


def stand_in_with_admins(caplog: pytest.LogCaptureFixture) -> AbstractAsyncContextManager[LocalDiscord]:
    """The usual people, Ben with the creators' role, and two admins: Boss (English) and Vera (Russian); checked
    afterwards as `checked` does."""
    admins = [LocalUser("Boss", permissions=MANAGE_GUILD), LocalUser("Vera", locale="ru", permissions=MANAGE_GUILD)]
    return checked(caplog, usual_people({"Ben": (CREATORS,)}) + admins, roles=[LocalRole(CREATORS)])


class Clock:
    """The bot's clock, moved by the test: timers fire without anyone waiting. `now` starts it elsewhere (lobby
    expiry compares it with the wall-clock time stored at a lobby's last change: start it at time.time())."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60


async def choose_threads(bot: Conductor, guild_id: int, threads: bool | None) -> None:
    """Set the server's thread setting as an admin would (`/config threads`); None: leave it as it is (never
    chosen, the default, unless chosen earlier)."""
    if threads is not None:
        await bot.config.change(guild_id, lambda config: config.model_copy(update={"threads": threads}))


def bot_runner(stand_in: LocalDiscord, database: Path, clock: Clock | None = None) -> Running:
    """Start the bot on the stand-in with this database (and clock); enter again for a restart. Games are played in
    the channel (the server chose so) unless the test asks for `threads=` otherwise (None: a server that never
    chose, a thread each where the bot may open one)."""

    @asynccontextmanager
    async def start(*, threads: bool | None = False) -> AsyncIterator[Conductor]:
        bot = create_bot(sandbox_settings(database, bot_move_delay=0))
        if clock is not None:
            bot.clock = clock
        async with stand_in.connected(bot):
            await choose_threads(bot, stand_in.guild_id, threads)
            yield bot

    return start


def people(stand_in: LocalDiscord, *names: str) -> list[LocalUser]:
    """The stand-in's users with these names, in order."""
    return [stand_in.user(name) for name in names]


def table(stand_in: LocalDiscord, bot: Conductor, *names: str) -> ScriptedTable:
    """A scripted table of these people for a running bot."""
    return ScriptedTable(stand_in, bot, people(stand_in, *names))


def fix_seed(bot: Conductor, seed: int) -> None:
    """Deal every new game of this bot from `seed`, so a test plays the same game each time."""
    bot.lobby._new_seed = lambda: seed  # the service draws a seed per game; a test wants a fixed deal


def lobby_expiry(bot: Conductor) -> LobbyExpiry:
    """The bot's lobby expiry (on the bot's clock); one made like it when the bot does not keep one."""
    wired: LobbyExpiry | None = getattr(bot, "lobbies", None)
    if wired is not None:
        return wired
    cog: Any = bot.get_cog("LobbyCog")
    return LobbyExpiry(bot.lobby, bot.config, clock=bot.clock, present=cog.show_expired)


# ---- what is stored -------------------------------------------------------------------------------------------


async def stored(bot: Conductor, game_id: int) -> GameRecord:
    """The game's stored record (it must exist)."""
    record = await bot.service.store.get(game_id)
    assert record is not None, f"game {game_id} is not stored"
    return record


async def stored_version(bot: Conductor, game_id: int) -> int:
    """The game's stored version (it moves on with every accepted move)."""
    return (await stored(bot, game_id)).version


async def version_after(bot: Conductor, game_id: int, version: int) -> GameRecord:
    """Wait until a game has moved past a version."""
    async with asyncio.timeout(PATIENCE):
        while True:
            record = await stored(bot, game_id)
            if record.version > version:
                return record
            await asyncio.sleep(0.005)


async def armed(bot: Conductor, game_id: int, seat: int, version: int) -> TurnTimer | None:
    """Wait until a seat's timer is armed (moves are shown before their timers are set); None if the game moved on."""
    async with asyncio.timeout(PATIENCE):
        while True:
            timer = (await bot.timers.store.timers(game_id)).get(seat)
            record = await bot.service.store.get(game_id)
            if timer is not None or record is None or record.version != version:
                return timer
            await asyncio.sleep(0.005)


# ---- controls -------------------------------------------------------------------------------------------------


def verb_id(message: RecordedMessage, verb: str) -> str:
    """The custom id of a message's button or select with this verb (`join`, `start`, `yes`, `undo`, …)."""
    for component in message.walk_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) > 3 and parts[3] == verb:
            return str(component["custom_id"])
    raise KeyError(f"message {message.id} has no control with the verb {verb!r}")


def controls(message: RecordedMessage | None) -> dict[str, dict[str, Any]]:
    """Custom id tail (`act:draw:deck`, `take:0:red`, `hand`, `color`, …) -> component, for a message's controls."""
    assert message is not None
    return {str(c["custom_id"]).split(":", 3)[3]: c for c in message.walk_components() if "custom_id" in c}


def act_buttons(message: RecordedMessage) -> dict[str, str]:
    """Action code -> custom id, for the action buttons of a turn message."""
    found = {}
    for component in message.walk_components():
        parts = str(component.get("custom_id", "")).split(":", 4)
        if len(parts) == 5 and parts[3] == "act":
            found[parts[4]] = str(component["custom_id"])
    return found


def lobby_in(stand_in: LocalDiscord, place: int | str) -> RecordedMessage:
    """The newest lobby message in a channel or thread."""
    return next(
        m
        for m in reversed(stand_in.channel_messages(place))
        if any(b["custom_id"].startswith("lobby:") for b in m.buttons())
    )


async def shown_control(stand_in: LocalDiscord, place: int | str, custom_id: str) -> tuple[RecordedMessage, str]:
    """Wait for the message in `place` carrying this custom id."""

    def shown() -> tuple[RecordedMessage, str] | None:
        for message in reversed(stand_in.channel_messages(place)):
            if message.component(custom_id) is not None:
                return message, custom_id
        return None

    return await stand_in.wait_for(shown, what=f"a button {custom_id} in {place}")


async def final_with_chart(stand_in: LocalDiscord, bot: Conductor, game_id: int) -> RecordedMessage:
    """A finished game's final message once the score chart has been added to it (drawn after the message is out)."""
    where = await bot.shown.message(game_id, "final")
    assert where is not None, f"game {game_id} has no final message"
    await stand_in.wait_for(
        lambda: any(a.filename == "score-chart.png" for a in stand_in.message(where[1]).attachments),
        what="the score chart",
    )
    return stand_in.message(where[1])


# ---- playing --------------------------------------------------------------------------------------------------


def seat_to_act(bot: Conductor, game_id: int) -> int:
    """The seat to act in a running dice game."""
    return min(DiceEngine().to_act(bot.service.state(game_id)))  # type: ignore[arg-type]


async def dice_move(
    stand_in: LocalDiscord, bot: Conductor, place: int | str, record: GameRecord, person: LocalUser, rng: random.Random
) -> None:
    """Click the dice move this person would choose now (a multi-die add is one die at a time)."""
    engine, seat = DiceEngine(), record.seat_of(person.id)
    assert seat is not None
    code = engine.bot_action(bot.service.state(record.id), seat, rng).encode()  # type: ignore[arg-type]
    wanted = f"add:{code[4]}" if code.startswith("add:") else code
    message, custom_id = await shown_control(stand_in, place, f"dice:{record.id}:{record.version}:act:{wanted}")
    await stand_in.click(person, message, custom_id)


async def play_dice(
    stand_in: LocalDiscord, bot: Conductor, place: int | str, game_id: int, players: list[LocalUser], seed: int = 0
) -> GameRecord:
    """Play a dice game in a channel or thread to its end, clicking the buttons each person would choose."""
    engine, rng = DiceEngine(), random.Random(seed)
    for _ in range(5000):
        record = await stored(bot, game_id)
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


async def playing(
    stand_in: LocalDiscord,
    bot: Conductor,
    game: str,
    names: tuple[str, ...],
    seed: int,
    *,
    bots: int = 0,
    options: dict[str, object] | None = None,
) -> tuple[ScriptedTable, int]:
    """A started game among these people (and bot players) dealt from `seed`, past the opening choice; returns the
    table and the game id."""
    fix_seed(bot, seed)
    players = table(stand_in, bot, *names)
    record = await players.open(game, bots=bots, options=options)
    rng = random.Random(seed)
    while getattr(bot.service.view(record.id, None), "phase", None) == "opening":
        await players.play_move(record.id, rng)
    return players, record.id


def state(bot: Conductor, game_id: int) -> Any:
    """The running game's state."""
    return bot.service.state(game_id)


async def play_until(
    players: ScriptedTable,
    game_id: int,
    wanted: Callable[[Seen], Any],
    rng: random.Random,
    look: Callable[[Conductor, int], Seen] = state,
) -> Seen:
    """Play moves until `wanted(look(...))` holds (by default on the state) at a person's turn, with its controls
    shown; return what was looked at then."""
    for _ in range(600):
        record = await players.settle(game_id)
        assert record.status == "active", "the game ended before the wanted moment"
        now = look(players.bot, game_id)
        if wanted(now):
            return now
        assert await players.play_move(game_id, rng), "the game ended before the wanted moment"
    raise AssertionError("the game never reached the wanted moment")


# ---- what the public sees -------------------------------------------------------------------------------------


def revisions(message: RecordedMessage) -> list[MessageRevision]:
    """Every version a message was shown in."""
    return [*message.history, message.revision()]


def _components(revision: MessageRevision) -> list[dict[str, Any]]:
    """Every component of a message revision, nested ones included."""
    found, stack = [], list(revision.components)
    while stack:
        component = stack.pop()
        stack += component.get("components") or []
        found.append(component)
    return found


def walk(revision: MessageRevision) -> list[dict[str, Any]]:
    """The components with a custom id in a message revision."""
    return [c for c in _components(revision) if "custom_id" in c]


def verbs(revision: MessageRevision) -> set[str]:
    """The verbs of a message revision's controls."""
    return {str(c["custom_id"]).split(":")[3] for c in walk(revision)}


def public_words(revision: MessageRevision) -> str:
    """Everything a revision of a message shows as words: its text (content, embeds, text displays), its controls'
    labels, placeholders and options, its pictures' alt text, and its file names."""
    parts = [revision.text]
    for component in _components(revision):
        parts += [str(component.get(k) or "") for k in ("label", "placeholder")]
        parts += [f"{o.get('label')} {o.get('description') or ''}" for o in component.get("options") or []]
        parts += [str(item.get("description") or "") for item in component.get("items") or []]
    parts += [f"{a.filename} {a.description or ''}" for a in revision.attachments]
    return "\n".join(parts)


def assert_private_pictures_only_to_players(stand_in: LocalDiscord, record: GameRecord, files: set[str]) -> None:
    """Every message with one of these (private) pictures is ephemeral and went to one of the game's players."""
    players = {s.user_id for s in record.seats if s.user_id is not None}
    for message in stand_in.messages:
        if {a.filename for a in message.attachments} & files:
            assert message.ephemeral and message.recipient_id in players
