"""Messages the bot creates: deferred replies, follow-ups, files, embeds, edits, threads, limits and transcripts."""

from __future__ import annotations

from collections.abc import Callable

import aiohttp
import discord
import pytest

from localdiscord import LocalDiscord, MessageKind, RejectedResponse, StandInTimeout
from tests.sandbox.toy_bot import ToyBot, png_bytes


async def test_deferred_reply_is_filled_by_the_first_followup_with_a_png(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    outcome = await local_discord.slash("alice", "board")
    assert outcome.response_type == 5
    followup = await outcome.followup()
    assert followup is outcome.message
    assert not followup.loading
    assert followup.content == "The board"
    assert [(a.filename, a.data) for a in followup.attachments] == [("board.png", png_bytes())]
    assert followup.history[0].flags & 128  # it was a "thinking..." placeholder


async def test_followups_can_be_ephemeral_edited_and_deleted(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("alice", "board")
    legend = await outcome.followup(1)
    await local_discord.wait_for(lambda: legend.deleted or None)
    assert legend.kind is MessageKind.FOLLOWUP
    assert legend.ephemeral and legend.recipient_id == local_discord.user("alice").id
    assert [version.content for version in legend.history] == ["Legend"]
    assert legend.content == "Legend (edited)"
    assert [m.kind for m in outcome.followups] == [MessageKind.RESPONSE, MessageKind.FOLLOWUP]


async def test_ephemeral_thinking_then_history_fetch_and_delete(local_discord: LocalDiscord, toy: ToyBot) -> None:
    await local_discord.slash("alice", "board")
    scores = await local_discord.wait_for_message(lambda message: message.content == "Final scores")
    outcome = await local_discord.slash("boris", "tidy")
    assert outcome.response_type == 5 and outcome.ephemeral
    done = await outcome.followup()
    assert (done.content, done.ephemeral, done is outcome.message) == ("Deleted 1 messages", True, True)
    assert scores.deleted
    assert scores not in local_discord.channel_messages("trains")


async def test_channel_message_with_embed_and_file_keeps_listed_attachments_on_edit(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    await local_discord.slash("alice", "board")
    scores = await local_discord.wait_for_message(lambda m: m.kind is MessageKind.CHANNEL and m.edited)
    assert scores.content == "Final scores"
    assert scores.embeds[0]["title"] == "Scores"
    assert "Scores\nAfter turn 1\nalice: 12" in scores.text
    assert [a.filename for a in scores.attachments] == ["scores.png", "legend.png"]
    assert scores.attachments[0] == scores.history[0].attachments[0]
    assert scores.attachments[1].data == png_bytes(colour="green")
    async with aiohttp.ClientSession() as session:
        url = f"{local_discord.base_url}/attachments/{scores.attachments[0].id}/scores.png"
        async with session.get(url) as response:
            assert await response.read() == png_bytes(colour="blue")


async def test_threads_are_created_recorded_and_archived(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("carol", "thread", {"name": "game-1"})
    await local_discord.wait_for(lambda: any(t.archived for t in local_discord.threads) or None)
    public, private = local_discord.threads
    assert outcome.message is not None
    assert public.id == outcome.message.id
    assert (public.type, public.parent_id, public.archived) == (11, local_discord.channel("trains").id, True)
    assert public.edits == [{"archived": True}]
    assert [m.content for m in local_discord.channel_messages(public)] == ["Welcome to the thread"]
    assert (private.type, private.name) == (12, "game-1-private")
    assert local_discord.user("carol").id in private.member_ids
    assert toy.get_channel(private.id) is not None  # THREAD_CREATE reached the bot


async def test_transcript_shows_buttons_embeds_and_files_and_hides_ephemerals(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    await local_discord.slash("alice", "newgame", {"game": "dice"})
    await local_discord.slash("alice", "hand")
    await local_discord.slash("alice", "board")
    await local_discord.wait_for_message(lambda message: message.content == "Final scores")
    text = local_discord.transcript("trains")
    assert text.startswith("#trains\n")
    assert "Conductor (answering /newgame game:dice by alice):" in text
    assert "[Join] [Close] [Deal] [Roll] [Start (disabled)]" in text
    assert "file: board.png" in text
    assert "| **Scores**" in text and "| alice: 12" in text
    assert "Your hand" not in text
    private = local_discord.transcript("trains", include_ephemeral=True)
    assert "[only alice sees this]" in private
    assert "<Pick cards: Red | Blue | Locomotive>" in private


@pytest.mark.discord_errors_expected
async def test_a_message_discord_would_refuse_is_refused(local_discord: LocalDiscord, toy: ToyBot) -> None:
    with pytest.raises(RejectedResponse, match="content: Must be 2000 or fewer in length"):
        await local_discord.slash("alice", "shout")
    assert local_discord.rejected[-1].endswith("Invalid Form Body: content: Must be 2000 or fewer in length.")


async def test_the_bot_resumes_after_a_gateway_reconnect(local_discord: LocalDiscord, toy: ToyBot) -> None:
    session_id = toy.ws.session_id
    await local_discord.reconnect_gateway()
    assert toy.ws.session_id == session_id
    outcome = await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"})
    assert outcome.content == "You claimed Denver - Omaha"


async def test_a_bot_with_the_members_intent_gets_its_member_chunk(
    local_discord: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    bot = ToyBot(local_discord.guild_id, intents=intents)
    async with local_discord.connected(bot):
        guild = bot.get_guild(local_discord.guild_id)
        assert guild is not None and guild.chunked
        assert sorted(m.name for m in guild.members) == ["Conductor", "admin", "alice", "boris", "carol"]
    waited_out = [r for r in caplog.records if "timed out waiting for chunks" in r.getMessage()]
    assert waited_out == []  # the stand-in answered the request for members
    assert local_discord.timeouts == []


async def test_a_bot_start_one_interaction_and_a_close_each_end_on_their_event_not_a_timeout(
    local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]
) -> None:
    bot = make_bot()
    async with local_discord.connected(bot):
        outcome = await local_discord.slash("alice", "newgame", {"game": "dice"})
    assert outcome.interaction.answered and bot.is_closed()
    assert local_discord.timeouts == []  # ready, answered, and bot.start() returned once closed: no wait ran out


async def test_waiting_for_a_message_by_channel_and_order(local_discord: LocalDiscord, toy: ToyBot) -> None:
    first = await local_discord.slash("alice", "newgame", {"game": "dice"})
    assert first.message is not None
    second = await local_discord.slash("alice", "newgame", {"game": "ttr"})
    found = await local_discord.wait_for_message(lambda m: bool(m.components), channel="#trains", after=first.message)
    assert found is second.message
    assert local_discord.describe(found).splitlines()[1] == "  New Ticket to Ride game for 4 seats"
    with pytest.raises(StandInTimeout):
        await local_discord.wait_for_message(channel="general", timeout=0.05)
