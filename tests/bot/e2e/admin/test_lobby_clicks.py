"""Lobby buttons through the local Discord: versioned clicks refused when stale, and names shown literally."""

from __future__ import annotations

import asyncio

from bot.app import Conductor
from bot.sandbox.table import add_bot
from localdiscord import InteractionOutcome, LocalDiscord, LocalUser
from tests.bot.e2e.helpers import Running, verb_id

STALE = (
    "The lobby changed as you clicked (someone joined, left or a bot player was added);"
    " look at it again and press once more."
)


async def test_two_simultaneous_add_bot_choices_seat_one_bot(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        drawn = stand_in.message(lobby.id)
        add = verb_id(drawn, "bot")
        # both asked which bot player on the lobby as drawn, and both chose at once
        asked = [await stand_in.click(person, drawn, add) for person in ("Ann", "Ben")]
        menus = [o.message for o in asked]
        assert all(o.ephemeral and m is not None for o, m in zip(asked, menus, strict=True))
        assert len(stand_in.message(lobby.id).history) == len(drawn.history), "asking changes nothing"
        outcomes = await asyncio.gather(
            *(
                stand_in.select(
                    person, menu, next(c["custom_id"] for c in menu.walk_components() if c["type"] == 3), ["hard"]
                )
                for person, menu in zip(("Ann", "Ben"), menus, strict=True)
                if menu is not None
            )
        )
        refused = [o for o in outcomes if o.text == STALE]
        assert len(refused) == 1
        [seated] = [o for o in outcomes if o.text != STALE]
        assert seated.response_type == 7 and seated.ephemeral, "the choice that counted says so in its private message"
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.bot_kind for s in record.seats] == [None, None, "hard"]
        shown = await stand_in.wait_for(lambda: "Players 3/6" in stand_in.message(lobby.id).text, what="the lobby")
        assert shown and "🤖 Stephenson · Hard" in stand_in.message(lobby.id).text


async def test_a_stale_remove_bot_or_start_is_refused_and_the_lobby_is_unchanged(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await add_bot(stand_in, stand_in.user("Ann"), lobby.id)
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
        started = await stand_in.click("Ann", current, verb_id(current, "start"))
        assert not started.ephemeral and (await bot.service.get(after.id)).status == "active"


async def clicked_together(
    stand_in: LocalDiscord, bot: Conductor, game_id: int, message_id: int, clicks: list[tuple[str, str]]
) -> list[InteractionOutcome]:
    """Clicks on the lobby as drawn now, all made before the bot applies any, reaching its lock in this order."""
    lock = (await bot.service.table(game_id)).lock
    drawn = stand_in.message(message_id)
    ids = [verb_id(drawn, verb) for _, verb in clicks]
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
        await stand_in.click(bold, lobby, verb_id(lobby, "join"))
        shown = stand_in.message(lobby.id).text
        assert r"1. \[nitro](https://evil.example)" in shown and "1. [nitro]" not in shown
        assert r"2. \*\*x\*\*" in shown and "2. **x**" not in shown
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.name for s in record.seats] == ["[nitro](https://evil.example)", "**x**"], "stored as typed"
        ended = await stand_in.slash(linker, "endgame")
        assert ended.text == rf"🛑 \[nitro](https://evil.example) cancels the lobby of game #{record.id}."
