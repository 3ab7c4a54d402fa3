"""Bot players' levels and the coach through the local Discord: a bot of each level seated from the lobby, the
server's AFK level and hints in /config, /hint private and in the reader's language (refused where it should be)
and counted, and bot thinking in worker processes: clicks answered while a bot thinks, a worker killed
mid-thought, and a bot stopped mid-thought that plays on after a restart.

Slow thoughts wait on an event the test sets (see tests/bot/thinking_support.py), never on the clock."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from typing import Any

from bot.app import Conductor
from bot.exts.lobby._presenter import lobby_embed
from bot.games import GAMES
from bot.i18n import render
from bot.sandbox.table import ScriptedTable, add_bot
from bot.services.thinking import POOL, choose_move
from bot.storage.games import GameRecord, SeatRecord
from bot.ui.hints import hints_line, kind_name
from localdiscord import LocalDiscord
from rules.ttr import TicketToRideEngine
from rules.ttr.board import board_for
from tests.bot import thinking_support
from tests.bot.e2e.helpers import Clock, Running, verb_id
from tests.bot.thinking_support import Gate

manager = thinking_support.manager
gate = thinking_support.gate
TTR = TicketToRideEngine()
BOARD = board_for("usa")
GAME = "ticket-to-ride"
NOT_A_PLAYER = "You are not playing in this game."


async def ttr_lobby(stand_in: LocalDiscord, host: str = "Ann", options: dict[str, Any] | None = None) -> int:
    """/newgame ticket-to-ride by `host`: the lobby message's id."""
    lobby = (await stand_in.slash(host, f"newgame {GAME}", options)).message
    assert lobby is not None
    return lobby.id


async def started(stand_in: LocalDiscord, bot: Conductor, lobby_id: int, people: list[str]) -> GameRecord:
    """Start the lobby as its host and wait until a person's controls are shown."""
    lobby = stand_in.message(lobby_id)
    await stand_in.click(people[0], lobby, verb_id(lobby, "start"))
    record = await bot.service.game_in_channel(lobby.channel_id)
    return await ScriptedTable(stand_in, bot, [stand_in.user(p) for p in people]).settle(record.id)


def _offered_cities(state: Any, seat: int) -> set[str]:
    """The city ids of the tickets offered to `seat` (the opening's choice)."""
    return {
        c
        for t in state.offers[seat]
        for c in (BOARD.city_ids[BOARD.tickets[t][0]], BOARD.city_ids[BOARD.tickets[t][1]])
    }


def menu_of(message: Any) -> dict[str, Any]:
    return next(c for c in message.walk_components() if c.get("type") == 3)


async def test_a_bot_of_each_level_sits_down_from_the_lobby_named_in_the_readers_language(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby_id = await ttr_lobby(stand_in)
        await stand_in.click("Dan", stand_in.message(lobby_id), verb_id(stand_in.message(lobby_id), "join"))
        kinds = list(GAMES[GAME].engine.bot_kinds)
        for person, language in (("Ann", "en"), ("Dan", "ru")):
            lobby = stand_in.message(lobby_id)
            asked = await stand_in.click(person, lobby, verb_id(lobby, "bot"))
            assert asked.ephemeral and asked.message is not None
            options = menu_of(asked.message)["options"]
            assert [o["label"] for o in options] == [kind_name(language, k) for k in kinds]
            assert all(o.get("description") for o in options), "each level says what it plays like"
        assert [o["label"] for o in options][:3] == ["Лёгкий", "Обычный", "Сильный"]
        for level in ("easy", "normal", "hard"):
            chosen = await add_bot(stand_in, stand_in.user("Ann"), lobby_id, level)
            assert chosen.ephemeral and chosen.response_type == 7
        shown = stand_in.message(lobby_id).text
        for line in ("3. 🤖 Stephenson · Easy", "4. 🤖 Brunel · Normal", "5. 🤖 Cherepanov · Hard"):
            assert line in shown
        record = await bot.service.game_in_channel(stand_in.message(lobby_id).channel_id)
        assert [s.bot_kind for s in record.seats] == [None, None, "easy", "normal", "hard"]


def test_a_bot_stored_before_levels_shows_as_normal() -> None:
    seats = (SeatRecord(seat=0, name="Ann", user_id=1), SeatRecord(seat=1, name="Brunel", bot_kind="sensible"))
    record = GameRecord(1, GAME, 5, 6, 1, "lobby", {}, 1, 0, None, seats)
    embed = lobby_embed("en", GAMES[GAME], record)
    assert "2. 🤖 Brunel · Normal" in str(embed.fields[0].value)


async def test_config_sets_and_shows_the_afk_level_and_hints_and_an_absent_seat_goes_to_that_level(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        said = await stand_in.slash("Boss", "config players", {"afk_level": "easy", "hints": False})
        assert said.ephemeral
        assert "Bot for absent players: Easy" in said.content and "): no" in said.content
        shown = await stand_in.slash("Vera", "config show")
        assert "Бот за отошедших игроков: Лёгкий" in shown.text and "Подсказки" in shown.text
        refused = await stand_in.slash("Ann", "config players", {"hints": True}, force=True)
        assert refused.ephemeral and "Easy" not in refused.text
        assert (await bot.config.get(stand_in.guild_id)).hints is False

        lobby_id = await ttr_lobby(stand_in, options={"timeout": 15, "missed": 1})
        await add_bot(stand_in, stand_in.user("Ann"), lobby_id)
        record = await started(stand_in, bot, lobby_id, ["Ann"])
        clock.advance(11)  # the server's reminder at 10 minutes, then the game's timeout at 15
        bot.timers.poke()
        await stand_in.wait_for_message(lambda m: m.text.startswith("⏰"))
        clock.advance(5)
        bot.timers.poke()
        await stand_in.wait_for_message(lambda m: f"No people are left in game #{record.id}" in m.text)
        stored = await bot.service.store.get(record.id)
        assert stored is not None and [s.bot_kind for s in stored.seats] == ["easy", "normal"]


async def test_hint_is_private_in_the_readers_language_refused_where_it_should_be_and_counted(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby_id = await ttr_lobby(stand_in)
        await stand_in.click("Dan", stand_in.message(lobby_id), verb_id(stand_in.message(lobby_id), "join"))
        record = await started(stand_in, bot, lobby_id, ["Ann", "Dan"])
        state = bot.service.state(record.id)
        for person, seat, language in (("Ann", 0, "en"), ("Dan", 1, "ru")):  # both choose tickets at the start
            answered = await stand_in.slash(person, "hint")
            assert answered.response_type == 5 and answered.ephemeral, "deferred privately first: it thinks"
            offered = {render(language, BOARD.city_messages[BOARD.city_index[c]]) for c in _offered_cities(state, seat)}
            assert answered.text.startswith("💡 ") and "\n" not in answered.text, "one sentence: the move and why"
            assert any(city in answered.text for city in offered), "it names the seat's own tickets, in its language"
            assert any("а" <= c <= "я" for c in answered.text.lower()) == (language == "ru")
        stranger = await stand_in.slash("Ben", "hint")
        assert stranger.ephemeral and stranger.text == NOT_A_PLAYER
        stored = await bot.service.store.get(record.id)
        assert stored is not None and [s.hints for s in stored.seats] == [1, 1]
        assert hints_line("en", stored) == "Hints used: Ann (1 hint) · Dan (1 hint)"
        assert hints_line("ru", stored) == "Подсказки: Ann (1 подсказка) · Dan (1 подсказка)"

        table = ScriptedTable(stand_in, bot, [stand_in.user("Ann"), stand_in.user("Dan")])
        rng = random.Random(3)
        while len(TTR.to_act(bot.service.state(record.id))) > 1:  # the opening's choices, through the buttons
            await table.play_move(record.id, rng)
        waiting = next(s for s in (0, 1) if s not in TTR.to_act(bot.service.state(record.id)))
        out_of_turn = await stand_in.slash(("Ann", "Dan")[waiting], "hint")
        assert out_of_turn.ephemeral and out_of_turn.response_type == 4
        assert out_of_turn.text in (
            "Hints are for the player to move, and it is not your move now.",
            "Подсказка — для игрока, чей сейчас ход, а ход не ваш.",
        )
        await stand_in.slash("Boss", "config players", {"hints": False})
        off = await stand_in.slash(("Ann", "Dan")[1 - waiting], "hint")
        assert off.ephemeral and off.text in (
            "This server has turned hints off.",
            "На этом сервере подсказки выключены.",
        )
        stored = await bot.service.store.get(record.id)
        assert stored is not None and [s.hints for s in stored.seats] == [1, 1], "refusals are not counted"


async def bot_game(stand_in: LocalDiscord, bot: Conductor, gate: Gate) -> GameRecord:
    """Ann and a bot player in a Ticket to Ride game, the bot's thoughts held by `gate`; started."""
    bot.bot_players.thinker.move = gate.move()
    lobby_id = await ttr_lobby(stand_in)
    await add_bot(stand_in, stand_in.user("Ann"), lobby_id)
    return await started(stand_in, bot, lobby_id, ["Ann"])


async def test_a_game_whose_bot_is_thinking_answers_every_click_at_once(
    stand_in: LocalDiscord, running: Running, gate: Gate
) -> None:
    async with running() as bot:
        record = await bot_game(stand_in, bot, gate)
        await gate.wait_entered()  # the bot thinks about its opening tickets, and goes on thinking
        hand = await stand_in.slash("Ann", "hand")
        assert hand.ephemeral and [a.filename for a in hand.message.attachments] == ["tickets.png"]  # type: ignore[union-attr]
        table = ScriptedTable(stand_in, bot, [stand_in.user("Ann")])
        playing = asyncio.create_task(table.play_move(record.id, random.Random(1)))
        await stand_in.wait_for(lambda: 0 not in TTR.to_act(bot.service.state(record.id)), what="Ann's choice")
        assert 1 in TTR.to_act(bot.service.state(record.id)), "applied while the bot still thinks"
        gate.release.set()
        await gate.wait_entered()  # its first thought was of an older version: it thinks again
        assert await playing
        await table.settle(record.id)
        assert 1 not in TTR.to_act(bot.service.state(record.id)), "the bot chose its tickets"


async def test_a_thinking_worker_killed_mid_thought_is_replaced_and_the_bot_plays_on(
    stand_in: LocalDiscord, running: Running, gate: Gate
) -> None:
    async with running() as bot:
        record = await bot_game(stand_in, bot, gate)
        worker = await gate.wait_entered()
        replaced = POOL.replaced
        os.kill(worker, signal.SIGKILL)
        again = await gate.wait_entered()  # asked again, of a fresh worker
        assert POOL.replaced == replaced + 1 and again != worker and worker not in POOL.pids()
        gate.release.set()
        table = ScriptedTable(stand_in, bot, [stand_in.user("Ann")])
        await table.play_move(record.id, random.Random(1))
        await table.settle(record.id)
        assert 1 not in TTR.to_act(bot.service.state(record.id)), "the bot chose its tickets"


async def test_a_bot_stopped_mid_thought_plays_on_after_a_restart(
    stand_in: LocalDiscord, running: Running, gate: Gate
) -> None:
    async with running() as bot:
        record = await bot_game(stand_in, bot, gate)
        await gate.wait_entered()
    gate.release.set()  # the stopped bot's thought ends in its worker, unheard
    async with running() as bot:
        assert bot.bot_players.thinker.move is choose_move, "a new start thinks as bots always do"
        table = ScriptedTable(stand_in, bot, [stand_in.user("Ann")])
        await table.play_move(record.id, random.Random(1))
        await table.settle(record.id)
        assert 1 not in TTR.to_act(bot.service.state(record.id)), "the bot chose its tickets after the restart"
