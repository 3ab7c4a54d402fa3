"""Turn timers through the local Discord: the test moves the bot's clock, so nothing waits for real."""

from __future__ import annotations

import asyncio
import random

from bot.app import Conductor
from bot.storage.games import GameRecord
from localdiscord import LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Clock, Running, armed, dice_move, seat_to_act, verb_id, version_after


async def started(stand_in: LocalDiscord, bot: Conductor, **timers: object) -> GameRecord:
    """Ann and Ben in a dice game opened with these timer overrides, started."""
    lobby = (await stand_in.slash("Ann", "newgame dice", timers)).message
    assert lobby is not None
    await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
    await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
    return await bot.service.game_in_channel(lobby.channel_id)


async def notice(stand_in: LocalDiscord, start: str, after: RecordedMessage | None = None) -> RecordedMessage:
    return await stand_in.wait_for_message(lambda m: m.text.startswith(start), channel="trains", after=after)


async def test_a_reminder_then_a_timeout_where_a_bot_plays_the_turn(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        record = await started(stand_in, bot, reminder=5, timeout=15, missed=3)
        absent = seat_to_act(bot, record.id)
        user = record.seats[absent].user_id
        clock.advance(4)
        bot.timers.poke()
        clock.advance(1)
        bot.timers.poke()
        reminder = await notice(stand_in, "⏰")
        assert reminder.text == f"⏰ <@{user}>, it is your turn in game #{record.id} (waiting for 5 min)."
        assert (await bot.service.store.actions(record.id)) == []
        clock.advance(10)
        bot.timers.poke()
        timeout = await notice(stand_in, "⌛", after=reminder)
        name = record.seats[absent].name
        assert timeout.text == (
            f"⌛ {name}: no move in 15 min, so a bot player plays this turn for them. Missed in a row: 1 of 3 turns."
        )
        await stand_in.wait_for(lambda: seat_to_act(bot, record.id) != absent or None, what="the turn to pass")
        played = {seat for seat, _ in await bot.service.store.actions(record.id)}
        assert played == {absent}
        assert not (await bot.service.get(record.id)).seats[absent].is_bot, "one missed turn keeps the seat"


async def test_a_reminder_due_while_the_bot_was_down_is_sent_after_the_restart(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)  # the server's timers: a reminder after 10 minutes
        user = record.seats[seat_to_act(bot, record.id)].user_id
    clock.advance(11)  # the bot was down meanwhile
    async with running():
        reminder = await notice(stand_in, "⏰")
    assert reminder.text == f"⏰ <@{user}>, it is your turn in game #{record.id} (waiting for 10 min)."


async def test_after_repeated_missed_turns_a_bot_player_takes_the_seat_for_good(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config timers", {"reminder": 0})  # a host cannot switch the reminder off
        record = await started(stand_in, bot, timeout=5, missed=2)
        ann, ben = stand_in.user("Ann"), stand_in.user("Ben")
        rng = random.Random(4)
        for _ in range(300):
            current = await bot.service.get(record.id)
            if current.seats[0].is_bot:
                break
            if seat_to_act(bot, record.id) == 0:  # Ann is away: her turns time out
                timer = await armed(bot, record.id, 0, current.version)
                if timer is not None:
                    clock.now = timer.due_at
                    bot.timers.poke()
            else:
                await dice_move(stand_in, bot, "trains", current, ben, rng)
            await version_after(bot, record.id, current.version)
        handed = await notice(stand_in, "🤖")
        assert handed.text == "🤖 Ann misses 2 turns in a row: a bot player takes their seat for the rest of the game."
        seat = (await bot.service.get(record.id)).seats[0]
        assert seat.is_bot and seat.user_id is None
        await stand_in.wait_for(lambda: seat_to_act(bot, record.id) == 1 or None, what="the bot player's turn to end")
        late = await stand_in.slash(ann, "roll")
        assert late.ephemeral and "not playing" in late.text


async def test_the_pause_policy_waits_for_the_player_who_then_plays_on(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config timers", {"reminder": 0})
        record = await started(stand_in, bot, timeout=5, afk="pause")
        absent = seat_to_act(bot, record.id)
        clock.advance(6)
        bot.timers.poke()
        paused = await notice(stand_in, "⏸")
        name = record.seats[absent].name
        assert paused.text.startswith(f"⏸ {name}: no move in 5 min, so the game waits for them.")
        assert await bot.service.store.actions(record.id) == []
        person = stand_in.user(name)
        current = await bot.service.get(record.id)
        await dice_move(stand_in, bot, "trains", current, person, random.Random(1))
        await version_after(bot, record.id, current.version)
        async with asyncio.timeout(5):  # the timers hear of the move once it is shown, just after the reply
            while await bot.timers.store.missed(record.id, absent) != 0:
                await asyncio.sleep(0.005)


async def test_host_overrides_stay_within_what_the_server_allows(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        cases = {
            (("timeout", 0),): "Timeout is on here (60 min): a host cannot switch it off for one game.",
            (("reminder", 0),): "Reminder is on here (10 min): a host cannot switch it off for one game.",
            (("missed", 0),): "Missed turns before a bot takes over: this server hands a seat to a bot player"
            " after 3 missed turns; a host cannot switch that off for one game.",
            (("timeout", 2),): "Timeout must be at least 5 min; 2 min is too short.",
        }
        for overrides, reason in cases.items():
            refused = await stand_in.slash("Ann", "newgame dice", dict(overrides))
            assert refused.ephemeral and refused.text == reason
        russian = await stand_in.slash("Dan", "newgame dice", {"timeout": 0})
        assert russian.text.startswith("Тайм-аут: на этом сервере стоит 60 мин — в одной игре это не отключить")
        assert await bot.service.store.in_channel(stand_in.channel("trains").id) == []

        short = await stand_in.slash("Boss", "config timers", {"timeout": 2})
        assert short.ephemeral and short.text == "Timeout must be at least 5 min; 2 min is too short."
        locked = await stand_in.slash("Boss", "config timers", {"timeout": 45, "locked": True})
        assert "🔒 Hosts cannot change the timers for one game." in locked.text
        refused = await stand_in.slash("Ann", "newgame dice", {"timeout": 90})
        assert refused.text == "This server fixes the turn timers: a host cannot change them for one game."
        opened = await stand_in.slash("Ann", "newgame dice")
        assert not opened.ephemeral, "without overrides a game opens with the server's timers"
        record = await bot.service.game_in_channel(stand_in.channel("trains").id)
        assert (await bot.timers.policy(record.id)).timeout_minutes == 45
        unlocked = await stand_in.slash("Boss", "config timers", {"locked": False})
        assert "✏️ Hosts can change the timers for one game: not below 5 min" in unlocked.text
        longer = await stand_in.slash("Ben", "newgame dice", {"timeout": 90}, channel="general")
        assert not longer.ephemeral
