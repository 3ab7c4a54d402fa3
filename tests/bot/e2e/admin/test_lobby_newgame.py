"""/newgame through the local Discord: one open game per channel, caps, permissions, threads, and echoed input."""

from __future__ import annotations

import asyncio

import discord

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, verb_id

SEND_AND_ATTACH = discord.Permissions(send_messages=True, attach_files=True).value
NO_THREADS = discord.Permissions(create_public_threads=True).value
GRANT = "A server admin can grant these in the channel's settings → Permissions (to my role or to me)."


async def test_three_simultaneous_newgames_in_one_channel_open_one_lobby(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        outcomes = await asyncio.gather(*(stand_in.slash(name, "newgame dice") for name in ("Ann", "Ben", "Cat")))
        [opened] = [o for o in outcomes if not o.ephemeral]
        refused = [o for o in outcomes if o.ephemeral]
        trains = stand_in.channel("trains").id
        [record] = await bot.service.store.in_channel(trains)
        assert opened.message is not None and verb_id(opened.message, "join").startswith(f"lobby:{record.id}:")
        busy = f"A game (#{record.id}) is already open in this channel; finish it or cancel its lobby first."
        assert [o.text for o in refused] == [busy, busy]
        assert await bot.service.store.count_open(guild_id=stand_in.guild_id) == 1


async def test_caps_on_lobbies_and_games_per_person_and_per_server(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config limits", {"lobbies_per_person": 1})
        assert saved.ephemeral and saved.text.startswith("Saved: caps on open games and lobby expiry.")
        assert "👤 A person may host **1** open lobby at once." in saved.text
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        second = await stand_in.slash("Ann", "newgame dice", channel="general")
        assert second.ephemeral
        assert second.text == (
            "You already host 1 open lobby on this server, the most it allows. Start or cancel one first."
        )
        russian = await stand_in.slash("Dan", "config show", force=True)  # Dan is no admin: refused, in Russian
        assert russian.ephemeral

        await stand_in.slash("Boss", "config limits", {"lobbies_per_person": 2, "games_per_person": 1})
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))  # Ben now sits in one open game
        ben = await stand_in.slash("Ben", "newgame dice", channel="general")
        assert ben.text == (
            "You already play in 1 open game on this server, the most it allows. Finish or leave one first."
        )

        await stand_in.slash("Boss", "config limits", {"games_per_person": 5, "games_per_server": 1})
        cat = await stand_in.slash("Cat", "newgame dice", channel="general")
        assert cat.text == (
            "This server already has 1 open game, the most it allows. Wait for one to end, or ask an admin"
            f" (</config limits:{stand_in.command('config').id}>)."
        )
        dan = await stand_in.slash("Dan", "newgame dice", channel="general")
        assert dan.text.startswith("На этом сервере уже 1 открытая игра — больше нельзя.")
        assert await bot.service.store.count_open(guild_id=stand_in.guild_id) == 1

        shown = await stand_in.slash("Boss", "config show")
        summary = shown.message.text if shown.message else ""
        for line in (
            "👤 A person may host **2** open lobbies at once.",
            "🎲 A person may play in **5** open games at once.",
            "🏠 At most **1** open game on this server.",
            "⌛ A lobby nobody joins or changes for **60** min expires.",
        ):
            assert line in summary, summary
        await stand_in.slash("Boss", "config limits", {"games_per_server": 2})
        opened = await stand_in.slash("Cat", "newgame dice", channel="general")
        assert not opened.ephemeral, "below the cap again"


async def test_joining_counts_against_the_cap_on_games_per_person(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config limits", {"games_per_person": 1})
        first = (await stand_in.slash("Ann", "newgame dice")).message
        second = (await stand_in.slash("Cat", "newgame dice", channel="general")).message
        assert first is not None and second is not None
        await stand_in.click("Ben", first, verb_id(first, "join"))
        refused = await stand_in.click("Ben", second, verb_id(second, "join"))
        assert refused.ephemeral
        assert (
            refused.text
            == "You already play in 1 open game on this server, the most it allows. Finish or leave one first."
        )
        assert await bot.service.store.count_open(guild_id=stand_in.guild_id, user_id=stand_in.user("Ben").id) == 1


async def test_a_channel_where_the_bot_cannot_post_refuses_newgame_and_start_naming_the_permissions(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        await stand_in.set_bot_permissions("trains", deny=SEND_AND_ATTACH)
        trains = stand_in.channel("trains").id
        refused = await stand_in.slash("Ann", "newgame dice")
        assert refused.ephemeral
        assert refused.text == (
            f"I cannot show the game in <#{trains}>: I lack Send Messages, Embed Links, Attach Files. {GRANT}"
        ), "without Send Messages, Discord takes Embed Links and Attach Files too"
        assert await bot.service.store.in_channel(trains) == []
        russian = await stand_in.slash("Dan", "newgame dice")
        assert russian.ephemeral and russian.text.startswith(f"Я не могу показать игру в <#{trains}>")

        lobby = (await stand_in.slash("Ann", "newgame dice", channel="general")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        await stand_in.set_bot_permissions("general", deny=discord.Permissions(attach_files=True).value)
        general = stand_in.channel("general").id
        drawn = stand_in.message(lobby.id)
        edits = len(drawn.history)
        start = await stand_in.click("Ann", drawn, verb_id(drawn, "start"))
        assert start.ephemeral
        assert start.text == f"I cannot show the game in <#{general}>: I lack Attach Files. {GRANT}"
        record = await bot.service.game_in_channel(general)
        assert record.status == "lobby" and len(stand_in.message(lobby.id).history) == edits, "lobby unchanged"

        await stand_in.set_bot_permissions("general")  # an admin fixed it
        current = stand_in.message(lobby.id)
        started = await stand_in.click("Ann", current, verb_id(current, "start"))
        assert not started.ephemeral and (await bot.service.get(record.id)).status == "active"


async def test_with_threads_on_but_no_thread_permission_the_game_opens_in_the_channel_and_the_host_is_told(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        await stand_in.set_bot_permissions("trains", deny=NO_THREADS)
        trains = stand_in.channel("trains").id
        opened = await stand_in.slash("Ann", "newgame dice")
        assert (
            not opened.ephemeral
            and opened.message is not None
            and opened.message.component(verb_id(opened.message, "join"))
        )
        told = await opened.followup(0)
        assert told.ephemeral and told.recipient_id == stand_in.user("Ann").id
        assert told.text == (
            f"This server opens each game in a thread of its own, but I cannot open threads in <#{trains}>:"
            f" I lack Create Public Threads. This game is played in the channel instead. {GRANT}"
        )
        assert stand_in.threads == []
        record = await bot.service.game_in_channel(trains)
        assert record.channel_id == trains and record.status == "lobby"


async def test_an_over_long_option_value_is_cut_when_it_is_echoed(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        typed = "x" * 3000
        for option, value in (("target", typed), ("mode", typed), (typed, "1")):
            refused = await stand_in.slash(
                "Boss", "config option", {"game": "dice", "option": option, "value": value}, force=True
            )
            assert refused.ephemeral and "x" * 99 + "…" in refused.text
            assert len(refused.text) < 400, refused.text
        language = await stand_in.slash("Boss", "config language", {"value": typed}, force=True)
        assert language.ephemeral and len(language.text) < 400 and "…" in language.text


async def test_with_threads_start_is_acknowledged_before_the_slow_thread_and_the_lobby_points_to_it(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        async with stand_in.hold_requests("POST", r"/channels/\d+/messages/\d+/threads$") as held:
            clicked = asyncio.create_task(stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start")))
            await held.arrived()  # Discord is making the thread: the click is acknowledged already
            assert stand_in.interactions[-1].response_type == 6 and stand_in.threads == []
        shown = await (await clicked).edited()
        [thread] = stand_in.threads
        assert f"The game is played in <#{thread.id}>." in shown.text
        assert (await bot.service.game_in_channel(thread.id)).channel_id == thread.id


async def test_a_thread_discord_refuses_at_start_leaves_the_game_in_the_channel_and_says_so(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        stand_in.fail_requests("POST", r"/channels/\d+/messages/\d+/threads$", status=403, code=50013)
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        started = await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
        told = await started.private_answer()
        assert told.recipient_id == stand_in.user("Ann").id and told.text == (
            "This server opens each game in a thread of its own, but Discord did not let me open one,"
            " so this game is played in the channel."
        )
        shown = await started.edited()
        assert shown.buttons() == [] and "played in" not in shown.text
        trains = stand_in.channel("trains").id
        record = await bot.service.game_in_channel(trains)
        assert record.status == "active" and record.channel_id == trains and stand_in.threads == []
