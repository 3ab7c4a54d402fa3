"""Lobby buttons through the local Discord: versioned clicks refused when stale, and names shown literally."""

from __future__ import annotations

import asyncio

from bot.app import Conductor
from bot.sandbox import InteractionOutcome, LocalDiscord, LocalUser
from tests.bot.e2e.admin.support import Running, button

STALE = (
    "The lobby changed as you clicked (someone joined, left or a bot player was added);"
    " look at it again and press once more."
)


async def test_two_simultaneous_add_bot_clicks_seat_one_bot(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, button(lobby, "join"))
        drawn = stand_in.message(lobby.id)
        add = button(drawn, "bot")
        # both clicks were made on the lobby as drawn (force: the second one's client still shows it)
        outcomes = await asyncio.gather(
            stand_in.click("Ann", drawn, add, force=True), stand_in.click("Ben", drawn, add, force=True)
        )
        refused = [o for o in outcomes if o.ephemeral]
        assert len(refused) == 1 and refused[0].text == STALE
        [shown] = [o for o in outcomes if not o.ephemeral]
        assert shown.response_type == 7, "the click that counted redrew the lobby"
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.is_bot for s in record.seats] == [False, False, True]
        assert "Players 3/6" in stand_in.message(lobby.id).text


async def test_a_stale_remove_bot_or_start_is_refused_and_the_lobby_is_unchanged(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ann", lobby, button(lobby, "bot"))
        before = await bot.service.game_in_channel(lobby.channel_id)
        edits = len(stand_in.message(lobby.id).history)
        ben, ann_unbot, ann_start, dan = await clicked_together(
            stand_in,
            bot,
            before.id,
            lobby.id,
            [("Ben", "join"), ("Ann", "unbot"), ("Ann", "start"), ("Dan", "join")],
        )
        assert ben.response_type == 7, "Ben's join came first and counted"
        for refused in (ann_unbot, ann_start):
            assert refused.ephemeral and refused.text == STALE
        assert dan.response_type == 7, "Join ignores the version: it acts on the clicker's own seat"
        after = await bot.service.game_in_channel(lobby.channel_id)
        assert after.status == "lobby"
        assert [s.name for s in after.seats] == [*(s.name for s in before.seats), "Ben", "Dan"], "the bot stayed"
        assert len(stand_in.message(lobby.id).history) == edits + 2, "only the two joins redrew the lobby"
        current = stand_in.message(lobby.id)
        started = await stand_in.click("Ann", current, button(current, "start"))
        assert not started.ephemeral and (await bot.service.get(after.id)).status == "active"


async def clicked_together(
    stand_in: LocalDiscord, bot: Conductor, game_id: int, message_id: int, clicks: list[tuple[str, str]]
) -> list[InteractionOutcome]:
    """Clicks on the lobby as drawn now, all made before the bot applies any, reaching its lock in this order."""
    lock = (await bot.service._table(game_id)).lock
    drawn = stand_in.message(message_id)
    ids = [button(drawn, verb) for _, verb in clicks]
    tasks: list[asyncio.Task[InteractionOutcome]] = []
    async with lock:  # the game's lock: each click waits on it, in the order it came
        for (person, _), custom_id in zip(clicks, ids, strict=True):
            tasks.append(asyncio.create_task(stand_in.click(person, message_id, custom_id)))
            async with asyncio.timeout(5):  # the bot has the click when it waits on the lock
                while len(lock._waiters or ()) < len(tasks):
                    await asyncio.sleep(0.002)
    return list(await asyncio.gather(*tasks))


async def test_markdown_in_display_names_is_shown_literally_in_the_lobby(
    stand_in: LocalDiscord, running: Running
) -> None:
    linker = stand_in.add_user(LocalUser("[nitro](https://evil.example)"))
    bold = stand_in.add_user(LocalUser("**x**"))
    async with running() as bot:
        lobby = (await stand_in.slash(linker, "newgame dice")).message
        assert lobby is not None
        await stand_in.click(bold, lobby, button(lobby, "join"))
        shown = stand_in.message(lobby.id).text
        assert r"1. \[nitro](https://evil.example)" in shown and "1. [nitro]" not in shown
        assert r"2. \*\*x\*\*" in shown and "2. **x**" not in shown
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.name for s in record.seats] == ["[nitro](https://evil.example)", "**x**"], "stored as typed"
        ended = await stand_in.slash(linker, "endgame")
        assert ended.text == rf"🛑 \[nitro](https://evil.example) cancelled the lobby of game #{record.id}."
