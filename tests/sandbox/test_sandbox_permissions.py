"""The bot's permissions per channel (overwrites, threads, app_permissions, REST refusals) and places that go away."""

from __future__ import annotations

import discord
import pytest

from localdiscord import ImpossibleInteraction, LocalChannel, LocalDiscord
from tests.sandbox.manual import BareBot, RawApi, dispatched
from tests.sandbox.toy_bot import ToyBot, png_bytes

P = discord.Permissions
VIEW = P(view_channel=True).value
SEND = P(send_messages=True).value
SEND_IN_THREADS = P(send_messages_in_threads=True).value
ATTACH = P(attach_files=True).value
EMBED = P(embed_links=True).value
HISTORY = P(read_message_history=True).value
PUBLIC_THREADS = P(create_public_threads=True).value
PRIVATE_THREADS = P(create_private_threads=True).value
MANAGE_THREADS = P(manage_threads=True).value


def seen_by_discord_py(bot: discord.Client, place: LocalChannel) -> int:
    """The bot's permissions in a channel or thread as discord.py computes them from its cache."""
    channel = bot.get_channel(place.id)
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    return channel.permissions_for(channel.guild.me).value


async def open_thread(raw: RawApi, local_discord: LocalDiscord, kind: int = 11) -> LocalChannel:
    """Open a thread in #trains through REST, as the bot would; return it."""
    trains = local_discord.channel("trains")
    status, body = await raw.call("POST", f"/channels/{trains.id}/threads", {"name": "game", "type": kind})
    assert status == 201, body
    return local_discord.channel(int(body["id"]))


async def test_discord_py_computes_what_the_stand_in_enforces(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")
    thread = await open_thread(raw, local_discord)
    await local_discord.caught_up()
    assert local_discord.bot_permissions_in(trains) == seen_by_discord_py(bare, trains)
    assert local_discord.bot_permissions_in(trains) & (SEND | ATTACH | EMBED | HISTORY | MANAGE_THREADS)
    steps = [
        lambda: local_discord.set_bot_permissions(trains, deny=SEND | EMBED),
        lambda: local_discord.set_role_permissions(trains, "@everyone", deny=VIEW),
        lambda: local_discord.set_role_permissions(trains, "Conductor", allow=VIEW, deny=ATTACH),
        lambda: local_discord.set_bot_permissions(trains, allow=ATTACH, deny=SEND_IN_THREADS),
        lambda: local_discord.set_bot_permissions(trains, deny=VIEW),
        lambda: local_discord.set_bot_permissions(trains),
    ]
    for step in steps:
        await step()
        for place in (trains, thread):
            assert local_discord.bot_permissions_in(place) == seen_by_discord_py(bare, place)
    assert local_discord.bot_permissions_in(trains) & VIEW
    assert not local_discord.bot_permissions_in(trains) & ATTACH  # the role's deny stays


async def test_changes_apply_at_once_and_reach_the_bot_before_the_next_interaction(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")
    local_discord.set_bot_permissions(trains, deny=SEND)  # not awaited: applied now, told in the background
    assert (await raw.post(trains, {"content": "hi"}))[1]["code"] == 50013
    pending, interaction = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    assert not P(seen_by_discord_py(bare, trains)).send_messages  # the update came before the interaction
    await raw.answer(interaction, {"type": 4, "data": {"content": "pong"}})
    await pending
    local_discord.set_bot_permissions(trains)
    await local_discord.caught_up()
    assert P(seen_by_discord_py(bare, trains)).send_messages


async def test_the_guild_the_bot_joins_carries_the_overwrites(local_discord: LocalDiscord) -> None:
    await local_discord.set_bot_permissions("general", deny=SEND | ATTACH)
    bot = BareBot()
    async with local_discord.connected(bot):
        general = local_discord.channel("general")
        seen = seen_by_discord_py(bot, general)
        assert seen == local_discord.bot_permissions_in(general)
        assert not P(seen).send_messages and P(seen).view_channel


async def test_interactions_carry_the_bots_permissions_in_their_channel(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    await local_discord.set_bot_permissions("general", deny=SEND | VIEW)
    here = await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"}, channel="general")
    there = await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"}, channel="trains")
    assert int(here.interaction.payload["app_permissions"]) == local_discord.bot_permissions_in("general")
    assert not int(here.interaction.payload["app_permissions"]) & (SEND | VIEW)
    assert int(there.interaction.payload["app_permissions"]) & SEND


async def test_answers_to_interactions_need_no_channel_permission(local_discord: LocalDiscord, toy: ToyBot) -> None:
    await local_discord.set_bot_permissions("trains", deny=VIEW | SEND | ATTACH | EMBED)
    game = (await local_discord.slash("alice", "newgame", {"game": "dice"})).message
    assert game is not None
    rolled = await local_discord.click("boris", game, "toy:roll:dice")
    assert (await rolled.edited()).content == "boris rolled 4 in dice"
    hand = await local_discord.slash("alice", "hand")
    assert hand.message is not None and [a.filename for a in hand.message.attachments] == ["hand.png"]
    toy.go.set()
    thinking = await local_discord.slash("carol", "think")
    assert thinking.content == "Thought it through"


async def test_channel_messages_need_their_permissions(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    status, mine = await raw.post(trains, {"content": "mine"})
    assert status == 200

    async def post(body: dict[str, object], **files: bytes) -> tuple[int, int]:
        status, answer = await raw.post(trains, body, files=files or None)
        return status, answer.get("code", 0) if status != 200 else 0

    await local_discord.set_bot_permissions(trains, deny=SEND)
    assert await post({"content": "hi"}) == (403, 50013)
    edited = await raw.call("PATCH", f"/channels/{trains.id}/messages/{mine['id']}", {"content": "mine, edited"})
    assert edited[0] == 200  # editing its own message needs no Send Messages
    await local_discord.set_bot_permissions(trains, deny=ATTACH)
    assert await post({"content": "a picture"}, **{"a.png": png_bytes()}) == (403, 50013)
    status, _ = await raw.call(
        "PATCH", f"/channels/{trains.id}/messages/{mine['id']}", {"content": "x"}, files={"b.png": png_bytes()}
    )
    assert status == 403
    await local_discord.set_bot_permissions(trains, deny=EMBED)
    assert await post({"embeds": [{"title": "Scores"}]}) == (403, 50013)
    await local_discord.set_bot_permissions(trains, deny=HISTORY)
    assert await post({"content": "re", "message_reference": {"message_id": mine["id"]}}) == (403, 50013)
    assert (await raw.call("GET", f"/channels/{trains.id}/messages/{mine['id']}"))[0] == 403
    assert await raw.call("GET", f"/channels/{trains.id}/messages") == (200, [])
    await local_discord.set_bot_permissions(trains, deny=VIEW)
    assert await post({"content": "hi"}) == (403, 50001)
    assert (await raw.call("GET", f"/channels/{trains.id}"))[1]["code"] == 50001
    assert (await raw.call("DELETE", f"/channels/{trains.id}/messages/{mine['id']}"))[1]["code"] == 50001
    await local_discord.set_bot_permissions(trains)
    assert await post({"content": "hi again"}) == (200, 0)
    assert sum("50013 Missing Permissions (the bot lacks" in line for line in local_discord.rejected) == 6


async def test_threads_need_their_own_permissions(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    thread = await open_thread(raw, local_discord)
    await local_discord.set_bot_permissions(trains, deny=SEND)
    assert (await raw.post(thread, {"content": "in the thread"}))[0] == 200  # Send Messages in Threads suffices
    await local_discord.set_bot_permissions(trains, deny=SEND_IN_THREADS)
    assert (await raw.post(thread, {"content": "again"}))[1]["code"] == 50013
    assert (await raw.post(trains, {"content": "in the channel"}))[0] == 200
    alice = local_discord.user("alice")
    assert (await raw.call("PUT", f"/channels/{thread.id}/thread-members/{alice.id}"))[1]["code"] == 50013
    assert (await raw.call("PUT", f"/channels/{thread.id}/thread-members/@me"))[0] == 204
    await local_discord.set_bot_permissions(trains, deny=PUBLIC_THREADS | PRIVATE_THREADS | MANAGE_THREADS)
    status, refused = await raw.call("POST", f"/channels/{trains.id}/threads", {"name": "x", "type": 11})
    assert (status, refused["code"]) == (403, 50013)
    status, refused = await raw.call("POST", f"/channels/{trains.id}/threads", {"name": "x", "type": 12})
    assert (status, refused["code"]) == (403, 50013)
    _, message = await raw.post(trains, {"content": "start here"})
    status, refused = await raw.call("POST", f"/channels/{trains.id}/messages/{message['id']}/threads", {"name": "x"})
    assert (status, refused["code"]) == (403, 50013)
    assert (await raw.call("PATCH", f"/channels/{thread.id}", {"locked": True}))[0] == 403
    assert (await raw.call("PATCH", f"/channels/{thread.id}", {"archived": True}))[0] == 200  # its own thread
    assert (await raw.call("DELETE", f"/channels/{thread.id}"))[0] == 403
    assert (await raw.call("PATCH", f"/channels/{trains.id}", {"topic": "x"}))[0] == 403  # Manage Channels
    await local_discord.set_bot_permissions(thread, deny=VIEW)  # the stand-in's own: one thread taken away
    assert (await raw.post(thread, {"content": "hidden"}))[1]["code"] == 50001
    assert local_discord.bot_permissions_in(trains) & VIEW


async def test_discord_py_raises_forbidden_where_the_bot_may_not_send(
    local_discord: LocalDiscord, bare: BareBot
) -> None:
    await local_discord.set_bot_permissions("trains", deny=SEND)
    channel = bare.get_channel(local_discord.channel("trains").id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).send_messages
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("hello")
    assert raised.value.code == 50013


async def test_a_deleted_channel_is_gone_for_the_bot_and_for_people(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    general = local_discord.channel("general")
    _, posted = await raw.post(general, {"content": "before", "components": [button("bare:go")]})
    thread = await open_thread(raw, local_discord)
    await local_discord.delete_channel(general)
    deleted = await bare.heard("guild_channel_delete")
    assert deleted.id == general.id and bare.get_channel(general.id) is None
    status, refused = await raw.post(general, {"content": "after"})
    assert (status, refused["code"]) == (404, 10003)
    assert (await raw.call("PATCH", f"/channels/{general.id}/messages/{posted['id']}", {"content": "x"}))[0] == 404
    with pytest.raises(ImpossibleInteraction, match="#general was deleted"):
        await local_discord.slash("alice", "ping", channel=general)
    with pytest.raises(ImpossibleInteraction, match="deleted"):
        await local_discord.click("alice", int(posted["id"]), "bare:go")
    assert not thread.deleted  # a thread of another channel stays
    await local_discord.delete_channel(thread)
    raw_event = await bare.heard("raw_thread_delete")
    assert raw_event.thread_id == thread.id and (await bare.heard("thread_delete")).id == thread.id
    assert (await raw.post(thread, {"content": "x"}))[1]["code"] == 10003


async def test_a_bot_removed_from_the_guild_has_no_access(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")
    await local_discord.remove_bot_from_guild()
    assert (await bare.heard("guild_remove")).id == local_discord.guild_id
    assert bare.get_guild(local_discord.guild_id) is None
    for method, path in [
        ("POST", f"/channels/{trains.id}/messages"),
        ("GET", f"/channels/{trains.id}/messages"),
        ("GET", f"/guilds/{local_discord.guild_id}/members/{local_discord.user('alice').id}"),
    ]:
        status, refused = await raw.call(method, path, {"content": "x"} if method == "POST" else None)
        assert (status, refused["code"]) == (403, 50001)
    with pytest.raises(ImpossibleInteraction, match="removed from the guild"):
        await local_discord.slash("alice", "ping")
    again = BareBot()
    async with local_discord.connected(again):
        assert list(again.guilds) == []


def button(custom_id: str) -> dict[str, object]:
    """An action row with one button."""
    return {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}]}
