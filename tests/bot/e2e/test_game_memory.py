"""Nothing is kept about a game once it is over, however it ends: finished by its last move, /endgame, its channel
or thread deleted, a post refused as its place is gone, the bot removed from the server, a timeout handing the last
person's seat to a bot player, a lobby expiring. While it runs, no picture's bytes are kept for it; and the
per-person cooldown tables drop who has not acted within their period."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from pathlib import Path

import pytest

from bot.app import Conductor
from bot.sandbox.table import bot_policy, move_driver
from bot.services.games import GameListener, Outcome
from bot.storage.games import GameRecord
from bot.ui.cooldowns import RATES, Cooldowns
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Clock, Running, bot_runner, lobby_expiry, table

GAMES = [("dice", {}), ("ticket-to-ride", {"map": "europe"}), ("ticket-to-ride-cards", {})]
PLAYED_OUT = [pytest.param(*game, marks=pytest.mark.slow) if game[0] == "ticket-to-ride" else game for game in GAMES]
"""The games to play to their end: Ticket to Ride's whole game runs in the slow group."""


class Ends(GameListener):
    """Added after the bot's own listeners (the controllers among them), so it hears of a game's end last."""

    def __init__(self) -> None:
        self._ended: dict[int, asyncio.Event] = {}

    def _event(self, game_id: int) -> asyncio.Event:
        return self._ended.setdefault(game_id, asyncio.Event())

    async def on_moved(self, outcome: Outcome) -> None:
        if outcome.finished:
            self._event(outcome.record.id).set()

    async def on_closed(self, record: GameRecord) -> None:
        self._event(record.id).set()

    async def wait(self, game_id: int) -> None:
        """Until every listener has been told that the game is over."""
        async with asyncio.timeout(10):
            await self._event(game_id).wait()


def listening(bot: Conductor) -> Ends:
    ends = Ends()
    bot.service.add_listener(ends)
    return ends


async def bot_players_done(game_id: int) -> None:
    """Until the task playing the game's bot seats (if any) has finished, with what it was showing."""
    driving = [task for task in asyncio.all_tasks() if task.get_name() == f"bots-{game_id}"]
    async with asyncio.timeout(10):
        await asyncio.gather(*driving, return_exceptions=True)


def kept_about(bot: Conductor, game_id: int) -> list[str]:
    """Every table of the game controllers that holds something about this game."""
    return [
        f"{game}.{name}"
        for game, controller in bot.controllers.items()
        for name, value in vars(controller).items()
        if isinstance(value, dict | set) and game_id in value
    ]


def bytes_kept(bot: Conductor, game_id: int) -> int:
    """How many bytes (pictures) the game controllers hold for this game, however deep."""
    found = 0
    for controller in bot.controllers.values():
        for value in vars(controller).values():
            if isinstance(value, dict) and game_id in value:
                found += _bytes_in(value[game_id], set())
    return found


def _bytes_in(value: object, seen: set[int]) -> int:
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, dict):
        return sum(_bytes_in(v, seen) for v in value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return sum(_bytes_in(v, seen) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(_bytes_in(getattr(value, f.name), seen) for f in dataclasses.fields(value))
    return 0


async def playing(stand_in: LocalDiscord, bot: Conductor, game: str, options: dict[str, object]) -> GameRecord:
    """Ann and Ben in a game, a few moves in, settled on a person's turn (no bot player moving meanwhile)."""
    players = table(stand_in, bot, "Ann", "Ben")
    record = await players.open(game, options=options)
    rng = random.Random(5)
    for _ in range(4):
        await players.play_move(record.id, rng)
    settled = await players.settle(record.id)
    assert kept_about(bot, record.id), "a running game is remembered (or this test could not fail)"
    assert bytes_kept(bot, record.id) == 0, "no picture's bytes are kept for a running game"
    return settled


@pytest.mark.parametrize(("game", "options"), PLAYED_OUT, ids=[g for g, _ in GAMES])
async def test_a_game_finished_by_its_last_move_leaves_nothing(
    stand_in: LocalDiscord, running: Running, game: str, options: dict[str, object]
) -> None:
    async with running() as bot:
        ends = listening(bot)
        players = table(stand_in, bot, "Ann")
        record = await players.open(game, bots=2, options=options)
        rng = random.Random(2)
        await players.play_move(record.id, rng)
        assert kept_about(bot, record.id) and bytes_kept(bot, record.id) == 0
        await players.play_to_the_end(record.id, seed=3)
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_game_ended_by_endgame_leaves_nothing(
    stand_in: LocalDiscord, running: Running, game: str, options: dict[str, object]
) -> None:
    async with running() as bot:
        ends = listening(bot)
        record = await playing(stand_in, bot, game, options)
        ended = await stand_in.slash("Ann", "endgame")
        assert not ended.ephemeral
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


async def test_a_game_whose_thread_is_deleted_leaves_nothing(stand_in: LocalDiscord, running: Running) -> None:
    async with running(threads=None) as bot:  # a thread of its own
        ends = listening(bot)
        record = await playing(stand_in, bot, "ticket-to-ride", {"map": "usa"})
        assert record.channel_id in {t.id for t in stand_in.threads}
        await stand_in.delete_channel(record.channel_id)
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


async def test_a_game_whose_channel_is_deleted_leaves_nothing(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        ends = listening(bot)
        record = await playing(stand_in, bot, "ticket-to-ride-cards", {})
        await stand_in.delete_channel(record.channel_id)
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


async def test_a_game_whose_post_is_refused_as_its_channel_is_gone_leaves_nothing(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        ends = listening(bot)
        players = table(stand_in, bot, "Ann", "Ben")
        record = await playing(stand_in, bot, "ticket-to-ride", {"map": "usa"})
        for method, path in (("POST", r"/channels/\d+/messages$"), ("PATCH", r"/channels/\d+/messages/\d+$")):
            stand_in.fail_requests(method, path, status=404, code=10003)  # deleted with nobody telling the bot
        found = players.person_to_act(record)
        assert found is not None
        seat, person = found
        code = bot_policy(bot.service.engine(record.game), bot.service.state(record.id), seat, random.Random(1))
        await move_driver(record.game)(players, record, person, code)
        await ends.wait(record.id)
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.status == "abandoned"
        assert kept_about(bot, record.id) == []


async def test_a_server_that_removes_the_bot_leaves_nothing_of_its_games(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        ends = listening(bot)
        record = await playing(stand_in, bot, "dice", {})
        await stand_in.remove_bot_from_guild()
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


async def test_a_timeout_that_leaves_nobody_in_the_game_leaves_nothing(stand_in: LocalDiscord, tmp_path: Path) -> None:
    clock = Clock()
    async with bot_runner(stand_in, tmp_path / "games.sqlite3", clock)() as bot:
        ends = listening(bot)
        lobby = (await stand_in.slash("Ann", "newgame ticket-to-ride", {"timeout": 15, "missed": 1})).message
        assert lobby is not None
        players = table(stand_in, bot, "Ann")
        await players.add_bot(stand_in.user("Ann"), lobby.id)
        await players.click_labelled(stand_in.user("Ann"), lobby.id, "start")
        record = await players.settle((await bot.service.game_in_channel(lobby.channel_id)).id)
        assert kept_about(bot, record.id)
        clock.advance(11)  # the server's reminder at 10 min, then the host's timeout at 15
        bot.timers.poke()
        await stand_in.wait_for_message(lambda m: m.text.startswith("⏰"))
        clock.advance(5)
        bot.timers.poke()
        await ends.wait(record.id)
        await bot_players_done(record.id)  # the bot seat may have been choosing its tickets as the game ended
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.status == "abandoned"
        assert kept_about(bot, record.id) == []


async def test_an_expired_lobby_leaves_nothing(stand_in: LocalDiscord, tmp_path: Path) -> None:
    clock = Clock(time.time())  # a lobby's idle time counts from its last change, stored by the wall clock
    async with bot_runner(stand_in, tmp_path / "games.sqlite3", clock)() as bot:
        ends = listening(bot)
        lobby = (await stand_in.slash("Ann", "newgame ticket-to-ride")).message
        assert lobby is not None
        record = await bot.service.game_in_channel(lobby.channel_id)
        await stand_in.click("Ben", lobby, lobby.custom_id("Join"))
        assert kept_about(bot, record.id), "a lobby clicked is remembered (or this test could not fail)"
        clock.advance(61)
        [expired] = await lobby_expiry(bot).run_due()
        assert expired.id == record.id
        await ends.wait(record.id)
        assert kept_about(bot, record.id) == []


def test_cooldowns_keep_only_people_who_acted_within_their_period() -> None:
    now = [1000.0]
    cooldowns = Cooldowns(clock=lambda: now[0])
    uses, per = RATES["picture"]
    for user_id in range(500):
        assert cooldowns.retry_after("picture", user_id) == 0.0
    assert cooldowns.size() == 500
    for _ in range(uses - 1):
        assert cooldowns.retry_after("picture", 7) == 0.0
    assert cooldowns.retry_after("picture", 7) > 0, "the sixth picture within the period waits"
    now[0] += per / 2
    cooldowns.retry_after("command", 8)
    assert cooldowns.size() == 501, "nobody's period is over yet"
    now[0] += per / 2 + 0.1
    assert cooldowns.retry_after("picture", 9) == 0.0
    assert cooldowns.size() == 2, "only the person just now and the one within their command period are left"
    assert cooldowns.retry_after("picture", 7) == 0.0, "a dropped bucket was full again anyway"
