"""Turn notifications through the local Discord: DMs at a turn's start (at once or later, on the bot's clock, which
the test moves), closed DMs, the channel ping, /mygames and /watch."""

from __future__ import annotations

import random

import pytest

from bot.app import Conductor
from bot.storage.games import GameRecord
from localdiscord import LocalDiscord, LocalUser, RecordedMessage
from rules.dice import DiceEngine
from tests.bot.e2e.admin import conftest as admin
from tests.bot.e2e.helpers import (
    Clock,
    Running,
    dice_move,
    play_dice,
    verb_id,
    version_after,
)

CANNOT_DM = "403 50007"


stand_in = admin.stand_in
clock = admin.clock
running = admin.running


async def choose(stand_in: LocalDiscord, person: str, *, dm: str | None = None, ping: bool | None = None) -> str:
    """Set a person's notifications through the /notify panel as they would; the panel's text afterwards."""
    panel = await stand_in.slash(person, "notify")
    assert panel.ephemeral and panel.message is not None
    shown = panel.message
    if dm is not None:
        shown = (await stand_in.select(person, shown, "notify:dm", [dm])).message or shown
    if ping is not None:
        shown = (await stand_in.click(person, shown, f"notify:ping:{'on' if ping else 'off'}")).message or shown
    return stand_in.message(shown.id).text


async def started(stand_in: LocalDiscord, bot: Conductor, channel: str = "trains") -> GameRecord:
    """Ann and Ben in a dice game, started."""
    lobby = (await stand_in.slash("Ann", "newgame dice", channel=channel)).message
    assert lobby is not None
    await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
    await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
    record = await bot.service.game_in_channel(lobby.channel_id)
    await stand_in.wait_for(lambda: not bot.shown.behind(record.id) or None, what="the first turn shown")
    return record


async def started_with_dms(stand_in: LocalDiscord, bot: Conductor, dm: str) -> GameRecord:
    """Ann and Ben, who both chose DMs (`dm`: "0" at once, or minutes), in a dice game, started."""
    for person in ("Ann", "Ben"):
        await choose(stand_in, person, dm=dm)
    return await started(stand_in, bot)


def acting(stand_in: LocalDiscord, bot: Conductor, record: GameRecord) -> LocalUser:
    """The person whose turn it is."""
    seat = min(DiceEngine().to_act(bot.service.state(record.id)))  # type: ignore[arg-type]
    return stand_in.user(next(s.user_id for s in record.seats if s.seat == seat) or 0)


async def play_turn(
    stand_in: LocalDiscord, bot: Conductor, record: GameRecord, rng: random.Random, *, moves: int = 99
) -> LocalUser:
    """Play moves of the person to act (at most `moves`) until the turn passes or the game ends; who played."""
    player = acting(stand_in, bot, record)
    for _ in range(moves):
        current = await bot.service.get(record.id)
        await dice_move(stand_in, bot, "trains", current, player, rng)
        after = await version_after(bot, record.id, current.version)
        if after.status != "active" or acting(stand_in, bot, record) != player:
            break
    return player


async def dm_number(stand_in: LocalDiscord, person: LocalUser, count: int) -> RecordedMessage:
    """Wait until a person has received `count` DMs; the last."""
    return await stand_in.wait_for(
        lambda: stand_in.dms(person)[count - 1] if len(stand_in.dms(person)) >= count else None,
        what=f"DM number {count} to {person.name}",
    )


async def turn_link(stand_in: LocalDiscord, bot: Conductor, record: GameRecord) -> str:
    where = await bot.shown.message(record.id, "turn")
    assert where is not None
    return f"https://discord.com/channels/{stand_in.guild_id}/{where[0]}/{where[1]}"


async def test_a_dm_at_each_turn_start_with_its_link_none_while_acting_on_none_when_switched_off(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        assert "DM when your turn starts: at once" in await choose(stand_in, "Cat", dm="0")
        record = await started_with_dms(stand_in, bot, "0")
        first = acting(stand_in, bot, record)
        second = stand_in.user("Ben" if first.name == "Ann" else "Ann")
        dm = await dm_number(stand_in, first, 1)
        assert dm.text == (
            f"🚂 Your turn in **«Poezd», the train dice game** (game #{record.id}) on **Conductor Sandbox**,"
            f" <#{record.channel_id}>: {await turn_link(stand_in, bot, record)}"
        )
        assert dm.text not in stand_in.transcript("trains")
        rng = random.Random(3)
        await play_turn(stand_in, bot, record, rng)
        dm = await dm_number(stand_in, second, 1)
        assert dm.text.endswith(await turn_link(stand_in, bot, record))
        assert len(stand_in.dms(first)) == 1, "no DM for the moves of one's own turn"
        await choose(stand_in, first.name, dm="off")
        await play_turn(stand_in, bot, record, rng)
        await play_turn(stand_in, bot, record, rng)  # the first player's turn passes without a DM
        await dm_number(stand_in, second, 2)
        assert len(stand_in.dms(first)) == 1
        assert stand_in.dms("Cat") == []


async def test_a_delayed_dm_survives_a_restart_and_is_cancelled_when_the_person_moves_first(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    rng = random.Random(5)
    async with running() as bot:
        record = await started_with_dms(stand_in, bot, "15")
        first = acting(stand_in, bot, record)
        clock.advance(14)
        assert await bot.notifications.run_due() == 0
    async with running() as bot:
        clock.advance(1)
        bot.notifications.poke()
        late = await dm_number(stand_in, first, 1)
        assert late.text.startswith("🚂 Still your turn after 15 minutes in **«Poezd», the train dice game**")
        assert late.text.endswith(await turn_link(stand_in, bot, record))
        assert acting(stand_in, bot, await bot.service.get(record.id)) == first
        await play_turn(stand_in, bot, record, rng)  # the second player's wait begins
        current = await bot.service.get(record.id)
        await dice_move(stand_in, bot, "trains", current, acting(stand_in, bot, current), rng)  # moves first
        await version_after(bot, record.id, current.version)
        clock.advance(16)
        assert await bot.notifications.run_due() == 0
        other = stand_in.user("Ben" if first.name == "Ann" else "Ann")
        assert stand_in.dms(other) == []


async def test_closed_dms_are_told_once_privately_and_not_tried_again(stand_in: LocalDiscord, running: Running) -> None:
    stand_in.close_dms("Ann")
    stand_in.close_dms("Ben")
    rng = random.Random(7)
    async with running() as bot:
        record = await started_with_dms(stand_in, bot, "0")
        first = acting(stand_in, bot, record)
        await stand_in.wait_for(lambda: any(CANNOT_DM in line for line in stand_in.rejected) or None)
        await bot.notifications.run_due()  # waits for the round whose DM was refused: the refusal is kept
        told = await stand_in.slash(first, "mygames")
        notice = await told.followup(0)
        assert notice.ephemeral
        assert notice.text.startswith("⚠️ I could not DM you about your turn: Discord says your DMs are closed.")
        again = await stand_in.slash(first, "mygames")
        await play_turn(stand_in, bot, record, rng)
        await stand_in.wait_for(lambda: sum(CANNOT_DM in line for line in stand_in.rejected) == 2 or None)
        await bot.notifications.run_due()  # the second refusal is kept too before that person's next turn comes
        await play_turn(stand_in, bot, record, rng)
        await play_turn(stand_in, bot, record, rng)
        await bot.notifications.run_due()
        assert sum(CANNOT_DM in line for line in stand_in.rejected) == 2, "each person was tried once"
        assert "⚠️ Discord refused my last DM to you" in await choose(stand_in, first.name)
        stand_in.close_dms(first, closed=False)
        await choose(stand_in, first.name, dm="0")  # a change: DMs are tried again
        await play_turn(stand_in, bot, record, rng)
        if acting(stand_in, bot, record) != first:
            await play_turn(stand_in, bot, record, rng)
        await dm_number(stand_in, first, 1)
        assert again.followups == [], "told once"


@pytest.mark.slow
async def test_mygames_lists_the_games_of_this_server_waiting_on_me(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        here = await started(stand_in, bot, "trains")
        there = await started(stand_in, bot, "general")
        answers = {}
        for name in ("Ann", "Ben", "Cat"):
            answers[name] = await stand_in.slash(name, "mygames")
            assert answers[name].ephemeral
        assert answers["Cat"].text == "No game on this server is waiting for you."
        assert (await stand_in.slash("Dan", "mygames")).text == "На этом сервере вас не ждёт ни одна игра."
        panel = await choose(stand_in, "Dan", dm="5")
        assert panel.splitlines()[:2] == [
            "**Уведомления о вашем ходе** (одни на всех серверах)",
            "• Личное сообщение, когда начинается ваш ход: через 5 минут, если вы ещё не сходили",
        ]
        waiting = {
            game.id: acting(stand_in, bot, game).name
            for game in (await bot.service.get(here.id), await bot.service.get(there.id))
        }
        for name in ("Ann", "Ben"):
            mine = sorted(game_id for game_id, who in waiting.items() if who == name)
            if not mine:
                assert answers[name].text == "No game on this server is waiting for you."
                continue
            lines = answers[name].text.splitlines()
            assert len(lines) == 1 + len(mine)
            for line, game_id in zip(lines[1:], mine, strict=True):
                record = await bot.service.get(game_id)
                assert (
                    line == f"• «Poezd», the train dice game, game #{game_id}: {await turn_link(stand_in, bot, record)}"
                )


async def test_watchers_are_told_when_the_game_ends_players_are_refused(
    stand_in: LocalDiscord, running: Running
) -> None:
    stand_in.close_dms("Dan")
    async with running() as bot:
        record = await started(stand_in, bot)
        player = await stand_in.slash("Ann", "watch")
        assert player.text == f"You play in game #{record.id}: you see its end anyway, so there is nothing to watch."
        cat = await stand_in.slash("Cat", "watch")
        assert cat.ephemeral and cat.text.startswith(f"👀 You will get a DM when game #{record.id} ends.")
        await stand_in.slash("Dan", "watch", {"game": record.id}, channel="general")
        await stand_in.slash("Eve", "watch")
        stopped = await stand_in.slash("Eve", "watch")
        assert stopped.text == f"You no longer watch game #{record.id}."
        unknown = await stand_in.slash("Eve", "watch", {"game": record.id + 50})
        assert unknown.text == f"There is no running game #{record.id + 50} on this server."
        people = [stand_in.user("Ann"), stand_in.user("Ben")]
        await play_dice(stand_in, bot, "trains", record.id, people, seed=2)
        told = await dm_number(stand_in, stand_in.user("Cat"), 1)
        final = await bot.shown.message(record.id, "final")
        assert final is not None
        link = f"https://discord.com/channels/{stand_in.guild_id}/{final[0]}/{final[1]}"
        assert told.text == (
            f"🏁 **«Poezd», the train dice game** (game #{record.id}) on **Conductor Sandbox**,"
            f" <#{record.channel_id}>, has ended: {link}"
        )
        dan = stand_in.user("Dan")
        line = await stand_in.wait_for_message(lambda m: m.text.startswith("🏁"), channel="trains")
        assert (
            line.text
            == f"🏁 <@{dan.id}>: game #{record.id} has ended (your DMs are closed, so you are told here): {link}"
        )
        assert line.pinged == [dan.id]
        assert stand_in.dms("Eve") == []


@pytest.mark.slow
async def test_the_channel_pings_each_player_once_per_turn_unless_switched_off(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        assert "Ping in the game's channel: off" in await choose(stand_in, "Ben", ping=False)
        record = await started(stand_in, bot)
        lobby = await bot.shown.message(record.id, "lobby")
        assert lobby is not None
        ann, ben = stand_in.user("Ann"), stand_in.user("Ben")
        starts = {ann.id: 0, ben.id: 0}
        starts[acting(stand_in, bot, record).id] += 1
        rng = random.Random(11)
        for _ in range(6):
            await play_turn(stand_in, bot, record, rng)
            if (await version_after(bot, record.id, 0)).status != "active":
                break  # the game ended: no turn starts
            starts[acting(stand_in, bot, record).id] += 1
        await stand_in.wait_for(lambda: not bot.shown.behind(record.id) or None, what="the last turn shown")
        played = [m for m in stand_in.channel_messages("trains") if m.id > lobby[1]]
        assert len([m for m in played if ann.id in m.pinged]) == starts[ann.id], "once per turn of hers"
        assert not any(ben.id in m.pinged for m in played), "never Ben, who switched it off"
        as_posted = [(m.history[0] if m.history else m).text for m in played]
        assert any(f"<@{ben.id}>" in posted for posted in as_posted), "his turns still name him"


async def test_a_reminder_names_but_never_pings_a_person_who_switched_the_channel_ping_off(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        for person in ("Ann", "Ben"):
            await choose(stand_in, person, ping=False)
        record = await started(stand_in, bot)  # the server's timers: a reminder after 10 minutes
        waited_for = acting(stand_in, bot, record)
        clock.advance(10)
        bot.timers.poke()
        reminder = await stand_in.wait_for_message(lambda m: m.text.startswith("⏰"), channel="trains")
        assert f"<@{waited_for.id}>" in reminder.text and reminder.pinged == []
