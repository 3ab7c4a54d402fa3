"""The scripted table the end-to-end tests, the benchmarks and the offline sandbox drive games with: people who click
the buttons and menus the bot drew on the local Discord, never calling the bot to make a move."""

from __future__ import annotations

import asyncio
import importlib
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.app import Conductor
from bot.games import GAMES
from bot.storage.games import GameRecord
from localdiscord.local_discord import LocalDiscord
from localdiscord.models import LocalUser, RecordedMessage
from localdiscord.outcome import InteractionOutcome
from rules.engine import GameEngine

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

    async def turn_message(self, game_id: int, timeout: float | None = None) -> RecordedMessage:
        """Wait until the message with the controls of the game's current version is shown, and return it."""
        record = await self.bot.records.get(game_id)
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

    async def settle(self, game_id: int, timeout: float | None = None) -> GameRecord:
        """Wait until the game is over, or a person is to act and the controls of that moment are shown (giving up
        after `timeout`, by default the stand-in's)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.discord.timeout)
        while True:
            record = await self.bot.records.get(game_id)
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
        where = await self.bot.shown.message(game_id, "lobby")
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
        record = await self.bot.records.get(game_id)
        assert record is not None
        assert record.status == "finished", f"game {game_id} did not finish in {max_moves} moves"
        since = await self._first_message(game_id)
        await self.discord.wait_for_message(lambda m: m.id > since and _is_final(m))
        return record

    async def wait_for_version_after(self, game_id: int, version: int, timeout: float | None = None) -> None:
        """Wait until the game has moved past `version`, then until it settles (see `settle`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.discord.timeout)
        while (record := await self.bot.records.get(game_id)) is None or record.version <= version:
            if loop.time() > deadline:
                answer = self.last_answer.text if self.last_answer is not None else ""
                raise TimeoutError(f"game {game_id} stayed at version {version}; the last answer was {answer!r}")
            await asyncio.sleep(0.005)
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


def move_driver(game: str) -> MoveDriver:
    """How a game's moves are made through its UI: the driver its entry names, or clicking a turn-message button."""
    path = GAMES[game].driver
    if path is None:
        return click_turn_button
    module, _, name = path.partition(":")
    driver: MoveDriver = getattr(importlib.import_module(module), name)
    return driver


async def click_on_turn_message(table: ScriptedTable, record: GameRecord, person: LocalUser, code: str) -> None:
    """Make a draw as a person would on the turn message of a card-table game: the enabled button whose move is
    `code`, or the face-up card it draws (`take`)."""
    message = await table.turn_message(record.id)
    custom_id = next(
        str(c["custom_id"])
        for found, c in controls(message)
        if not c.get("disabled")
        and (
            (found == "act" and str(c["custom_id"]).split(":", 4)[4] == code)
            or (found == "take" and f"draw:{str(c['custom_id']).rsplit(':', 1)[1]}" == code)
        )
    )
    await table.timed(code.partition(":")[0], table.discord.click(person, message, custom_id))


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


def controls(message: RecordedMessage) -> Iterator[tuple[str, dict[str, Any]]]:
    """(verb, component) for each control of our custom id grammar on a message."""
    for component in message.walk_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) >= 4:
            yield parts[3], component


def select_with(message: RecordedMessage | None, verb: str, value: str) -> str | None:
    """The custom id of a select of this verb offering `value`."""
    if message is None:
        return None
    for found, component in controls(message):
        if found == verb and any(o.get("value") == value for o in component.get("options") or []):
            return str(component["custom_id"])
    return None


def ticket_choice(table: ScriptedTable, person: LocalUser, ids: list[str]) -> RecordedMessage | None:
    """The person's newest private ticket choice offering these tickets (it is not bound to a version)."""
    for message in reversed(table.discord.ephemerals(person)):
        if all(select_with(message, "keep", ticket) is not None for ticket in ids):
            return message
    return None
