"""/endgame and /leave through the local Discord, for any game: who may, what is recorded, what people see."""

from __future__ import annotations

from bot.app import Conductor
from bot.storage.games import GameRecord
from localdiscord import LocalDiscord
from rules.dice import DiceEngine
from tests.bot.e2e.helpers import Running, verb_id, version_after


async def started(stand_in: LocalDiscord, bot: Conductor, game: str = "dice", *joining: str) -> GameRecord:
    """Ann hosts a game with these people (Ben by default), started."""
    lobby = (await stand_in.slash("Ann", f"newgame {game}")).message
    assert lobby is not None
    for name in joining or ("Ben",):
        await stand_in.click(name, lobby, verb_id(stand_in.message(lobby.id), "join"))
    await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
    return await bot.service.game_in_channel(lobby.channel_id)


async def status(bot: Conductor, game_id: int) -> str:
    record = await bot.service.store.get(game_id)
    assert record is not None
    return record.status


async def test_only_the_host_or_an_admin_can_end_a_game(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)
        refused = await stand_in.slash("Ben", "endgame")
        assert refused.ephemeral and refused.text == "Only the host of this game or a server admin can end it."
        russian = await stand_in.slash("Dan", "endgame")
        assert russian.text == "Завершить эту игру можно, только если вы её ведёте (👑) или управляете сервером."
        assert await status(bot, record.id) == "active"
        turn = await stand_in.wait_for_message(lambda m: any(b["custom_id"].startswith("dice:") for b in m.buttons()))
        ended = await stand_in.slash("Ann", "endgame")
        assert not ended.ephemeral
        assert ended.text.startswith(f"🛑 Ann (host) ends game #{record.id} early. It is recorded as abandoned")
        assert await status(bot, record.id) == "abandoned"
        await stand_in.wait_for(lambda: not stand_in.message(turn.id).buttons() or None, what="buttons retired")
        again = await stand_in.slash("Ann", "roll")
        assert again.ephemeral and "no game in this channel" in again.text
        assert await bot.timers.store.timers(record.id) == {}


async def test_a_server_admin_can_end_someone_elses_game_and_a_lobby_is_cancelled(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)
        ended = await stand_in.slash("Boss", "endgame")
        assert ended.text == f"🛑 Boss ends game #{record.id}. It is recorded as abandoned."
        lobby = (await stand_in.slash("Cat", "newgame dice")).message
        assert lobby is not None
        waiting = await bot.service.game_in_channel(lobby.channel_id)
        cancelled = await stand_in.slash("Cat", "endgame")
        assert cancelled.text == f"🛑 Cat cancels the lobby of game #{waiting.id}."
        assert await status(bot, waiting.id) == "cancelled"
        assert stand_in.message(lobby.id).buttons() == [] and "cancelled" in stand_in.message(lobby.id).text


async def test_leaving_hands_the_seat_to_a_bot_player_who_plays_on(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        record = await started(stand_in, bot, "dice", "Ben", "Cat")
        left = await stand_in.slash("Ben", "leave")
        answer = await left.edited()  # a deferred answer: the hand-over may wait for the game's lock
        assert (
            left.ephemeral and answer.text == f"You left game #{record.id}; a bot player plays your seat from now on."
        )
        said = await stand_in.wait_for_message(lambda m: m.text.startswith("🤖"))
        assert said.text == "🤖 Ben leaves the game: a bot player takes their seat for the rest of the game."
        seats = (await bot.service.get(record.id)).seats
        assert seats[1].is_bot and seats[1].name == "Ben" and seats[1].user_id is None
        assert await status(bot, record.id) == "active"
        not_in = await stand_in.slash("Ben", "leave")
        assert not_in.ephemeral and "not playing" in not_in.text
        stranger = await stand_in.slash("Eve", "leave")
        assert stranger.text == "You are not playing in this game."


async def test_when_the_last_person_leaves_the_game_ends(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)
        await stand_in.slash("Ben", "leave")
        last = await stand_in.slash("Ann", "leave")
        assert (await last.edited()).text == f"You left game #{record.id}; nobody else was left, so it ended."
        assert await status(bot, record.id) == "abandoned"
        await stand_in.wait_for_message(lambda m: m.text.startswith(f"No people are left in game #{record.id}"))


async def test_leave_in_a_lobby_points_to_the_leave_button(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        refused = await stand_in.slash("Ben", "leave")
        assert refused.ephemeral and refused.text.startswith("This game has not started yet: press **Leave**")
        assert len((await bot.service.game_in_channel(lobby.channel_id)).seats) == 2


async def test_leaving_in_the_middle_of_ones_turn_lets_the_bot_finish_it(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)
        seat = min(DiceEngine().to_act(bot.service.state(record.id)))  # type: ignore[arg-type]
        name = record.seats[seat].name
        version = (await bot.service.get(record.id)).version
        await stand_in.slash(name, "leave")
        moved = await version_after(bot, record.id, version + 1)  # the hand-over, the host passed on, a move
        while not await bot.service.store.actions(record.id):  # the bot thinks off the lock: it may move last
            moved = await version_after(bot, record.id, moved.version)
        played = {s for s, _ in await bot.service.store.actions(record.id)}
        assert played == {seat}


async def test_a_host_who_leaves_passes_the_host_role_on_and_can_no_longer_end_the_game(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await started(stand_in, bot, "dice", "Ben", "Cat")
        left = await stand_in.slash("Ann", "leave")
        answer = await left.edited()
        assert answer.text == (
            f"You left game #{record.id}; a bot player plays your seat from now on. Ben is the host now."
        )
        said = await stand_in.wait_for_message(lambda m: m.text.startswith("👑"))
        assert said.text == f"👑 Ben is now the host of game #{record.id}."
        assert (await bot.service.get(record.id)).host_id == stand_in.user("Ben").id
        refused = await stand_in.slash("Ann", "endgame")
        assert refused.ephemeral and refused.text == "Only the host of this game or a server admin can end it."
        assert await status(bot, record.id) == "active"
        cat = await stand_in.slash("Cat", "leave")  # not the host: nothing passes
        assert (await cat.edited()).text == (f"You left game #{record.id}; a bot player plays your seat from now on.")
        ended = await stand_in.slash("Ben", "endgame")
        assert not ended.ephemeral and await status(bot, record.id) == "abandoned"


async def test_a_host_who_leaves_last_ends_the_game_as_before(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        record = await started(stand_in, bot)
        await stand_in.slash("Ben", "leave")
        last = await stand_in.slash("Ann", "leave")
        assert (await last.edited()).text == f"You left game #{record.id}; nobody else was left, so it ended."
        assert await status(bot, record.id) == "abandoned"
        assert not any(m.text.startswith("👑") for m in stand_in.channel_messages("trains"))
