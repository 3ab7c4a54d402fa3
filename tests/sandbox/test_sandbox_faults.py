"""Injected REST failures (errors, rate limits) and held requests, as discord.py and a bot live through them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import discord
import pytest

from localdiscord import LocalDiscord
from tests.sandbox.manual import BareBot
from tests.sandbox.toy_bot import ToyBot

MESSAGES = r"/channels/\d+/messages$"


def text_channel(bot: discord.Client, local_discord: LocalDiscord, name: str = "trains") -> discord.TextChannel:
    """The bot's cached text channel of that name."""
    channel = bot.get_channel(local_discord.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_injected_errors_reach_discord_py_and_then_requests_pass(
    local_discord: LocalDiscord, bare: BareBot
) -> None:
    channel = text_channel(bare, local_discord)
    forbidden = local_discord.fail_requests("POST", MESSAGES, status=403, code=50013, message="Missing Permissions")
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("first")
    assert (raised.value.code, forbidden.hits, forbidden.active) == (50013, 1, False)
    assert local_discord.rejected[-1].endswith("-> 403 50013 Missing Permissions (injected)")
    local_discord.fail_requests("POST", MESSAGES, status=404, code=10003, message="Unknown Channel")
    with pytest.raises(discord.NotFound) as missing:
        await channel.send("second")
    assert missing.value.code == 10003
    unavailable = local_discord.fail_requests("POST", MESSAGES, status=503, times=None)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("third")
    assert unavailable.hits == 1  # discord.py does not retry a 503 on its own calls
    unavailable.cancel()
    sent = await channel.send("fourth")
    assert [m.content for m in local_discord.channel_messages("trains")] == ["fourth"]
    assert sent.id == local_discord.channel_messages("trains")[0].id


async def test_rate_limits_are_retried_until_discord_py_gives_up(local_discord: LocalDiscord, bare: BareBot) -> None:
    channel = text_channel(bare, local_discord)
    limited = local_discord.fail_requests("POST", MESSAGES, status=429, retry_after=0.01, times=2)
    await channel.send("after two 429s")
    assert limited.hits == 2
    always = local_discord.fail_requests("POST", MESSAGES, status=429, retry_after=0.01, times=None)
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send("never")
    assert (raised.value.status, always.hits) == (429, 5)
    always.cancel()
    await channel.send("once the limit is lifted")
    assert [m.content for m in local_discord.channel_messages("trains")] == [
        "after two 429s",
        "once the limit is lifted",
    ]


async def test_a_new_rule_for_the_same_requests_replaces_the_old_one(
    local_discord: LocalDiscord, bare: BareBot
) -> None:
    channel = text_channel(bare, local_discord)
    first = local_discord.fail_requests("POST", MESSAGES, status=503, times=50)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("refused")
    local_discord.fail_requests("POST", MESSAGES, status=503, times=0)
    await channel.send("served")
    assert (first.hits, first.active) == (1, False)


async def test_a_rate_limited_follow_up_is_retried(local_discord: LocalDiscord, toy: ToyBot) -> None:
    limited = local_discord.fail_requests("POST", r"/webhooks/\d+/[^/]+$", status=429, retry_after=0.01)
    toy.go.set()
    outcome = await local_discord.slash("alice", "think")
    assert (outcome.content, limited.hits) == ("Thought it through", 1)


async def test_a_held_request_is_served_when_released(local_discord: LocalDiscord, bare: BareBot) -> None:
    channel = text_channel(bare, local_discord)
    async with local_discord.hold_requests("POST", MESSAGES) as hold:
        sending = asyncio.create_task(channel.send("held"))
        await hold.arrived()
        assert (hold.waiting, sending.done(), local_discord.channel_messages("trains")) == (1, False, [])
    sent = await sending
    assert [m.id for m in local_discord.channel_messages("trains")] == [sent.id]
    assert hold.waiting == 0
    await channel.send("not held any more")


async def test_a_dropped_request_fails_in_the_bot(local_discord: LocalDiscord, bare: BareBot) -> None:
    channel = text_channel(bare, local_discord)
    hold = local_discord.hold_requests("POST", MESSAGES)
    sending = asyncio.create_task(channel.send("lost"))
    await hold.arrived()
    hold.drop()
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await sending
    assert local_discord.channel_messages("trains") == []
    assert local_discord.rejected[-1].endswith("-> dropped (connection aborted)")


async def test_a_dropped_delete_is_retried_once_by_aiohttp(local_discord: LocalDiscord, bare: BareBot) -> None:
    channel = text_channel(bare, local_discord)
    sent = await channel.send("to delete")
    hold = local_discord.hold_requests("DELETE", r"/messages/\d+$")
    deleting = asyncio.create_task(sent.delete())
    await hold.arrived()
    hold.drop()
    await deleting
    assert local_discord.message(sent.id).deleted


async def test_shutting_a_bot_down_while_its_post_is_held(
    local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]
) -> None:
    hold = local_discord.hold_requests("POST", MESSAGES)
    async with local_discord.connected(make_bot()):
        await local_discord.slash("alice", "board")  # answers, then posts the scores to the channel
        await hold.arrived()
    assert local_discord.timeouts == []  # the handler waiting on the held post is cancelled, not waited out
    assert hold.waiting == 1
    hold.drop()  # the post never reached Discord
    assert [m.content for m in local_discord.channel_messages("trains")] == ["The board"]


async def test_a_post_released_after_the_bot_stopped_is_done_unseen(
    local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]
) -> None:
    hold = local_discord.hold_requests("POST", MESSAGES)
    async with local_discord.connected(make_bot()):
        await local_discord.slash("alice", "board")
        await hold.arrived()
    hold.release()  # Discord posts it; the bot that sent it is gone and never hears back
    scores = await local_discord.wait_for_message(lambda m: m.text.startswith("Scores"))
    assert [a.filename for a in scores.attachments] == ["scores.png"] and not scores.edited


async def test_closing_the_stand_in_drops_what_is_still_held() -> None:
    async with LocalDiscord() as stand_in:
        bot = BareBot()
        hold = stand_in.hold_requests("POST", MESSAGES)
        async with stand_in.connected(bot):
            sending = asyncio.create_task(text_channel(bot, stand_in).send("held forever"))
            await hold.arrived()
        with pytest.raises(aiohttp.ClientError):
            await sending  # the bot's session closed under it
    assert hold.waiting == 0 and stand_in.messages == []
