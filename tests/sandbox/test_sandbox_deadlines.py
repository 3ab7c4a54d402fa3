"""The 3-second acknowledgement deadline, "thinking" answers that must be filled in, and private answers."""

from __future__ import annotations

import asyncio
import time

import pytest

from localdiscord import LocalDiscord, MissedDeadline, RejectedResponse, StandInTimeout
from localdiscord.local_discord import ACK_MARGIN_SECONDS
from tests.sandbox.manual import BareBot, RawApi, dispatched
from tests.sandbox.toy_bot import ToyBot


async def test_a_timely_answer_records_how_long_it_took(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"})
    assert local_discord.ack_deadline == 3.0  # a later answer is refused: slash() would raise MissedDeadline
    interaction = outcome.interaction
    assert interaction.answered and interaction.ack_seconds is not None and interaction.ack_seconds > 0
    assert interaction.dispatched_at + interaction.ack_seconds <= time.monotonic()  # measured from the dispatch
    choices = await local_discord.autocomplete("alice", "claim", {"route": "den"}, focused="route")
    assert choices and local_discord.interactions[-1].ack_seconds is not None


@pytest.mark.discord_errors_expected
async def test_no_answer_within_the_deadline_fails_fast_and_a_late_one_is_refused(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    local_discord.ack_deadline = 0.2
    with pytest.raises(MissedDeadline, match=r"did not acknowledge /slow by alice within Discord's 0\.2-second"):
        await local_discord.slash("alice", "slow")
    waited = f"{0.2 + ACK_MARGIN_SECONDS:g}"  # the deadline and a margin, not the 5-second timeout
    assert local_discord.timeouts == [f"Timed out after {waited} s waiting for the bot to answer /slow by alice."]
    interaction = local_discord.interactions[-1]
    assert not interaction.rejections  # it failed while the bot was still working, not on its answer
    toy.go.set()  # the bot answers now, too late
    await local_discord.wait_for(lambda: interaction.rejections or None)
    assert interaction.ack_seconds is not None
    late = f"404 10062 Unknown interaction (acknowledged after {interaction.ack_seconds:.2f} s, past Discord's 0.2-"
    assert late in interaction.rejections[0]
    assert not interaction.answered
    await local_discord.wait_for(lambda: any("10062" in error for error in local_discord.logged_errors) or None)


@pytest.mark.discord_errors_expected
async def test_a_late_answer_within_the_margin_is_named_as_late(local_discord: LocalDiscord, toy: ToyBot) -> None:
    local_discord.ack_deadline = 0.0  # no bot can answer in no time
    with pytest.raises(MissedDeadline, match=r"acknowledged /hand by alice after \d\.\d\d s"):
        await local_discord.slash("alice", "hand")
    with pytest.raises(MissedDeadline):
        await local_discord.autocomplete("alice", "claim", {"route": "den"}, focused="route")
    local_discord.ack_deadline = None
    assert (await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"})).ephemeral


async def test_a_short_timeout_still_times_out_plainly(local_discord: LocalDiscord, toy: ToyBot) -> None:
    with pytest.raises(StandInTimeout) as raised:
        await local_discord.slash("alice", "slow", timeout=0.1)
    assert not isinstance(raised.value, MissedDeadline)
    toy.go.set()
    await local_discord.wait_for(lambda: local_discord.interactions[-1].answered or None)


async def test_a_thinking_answer_returns_once_filled_in(local_discord: LocalDiscord, toy: ToyBot) -> None:
    pending = asyncio.create_task(local_discord.slash("alice", "think"))
    interaction = await local_discord.wait_for(
        lambda: next((i for i in local_discord.interactions if i.response_type == 5), None)
    )
    assert not pending.done()
    toy.go.set()
    outcome = await pending
    assert outcome.interaction is interaction
    assert outcome.message is not None and not outcome.message.loading
    assert outcome.content == "Thought it through"


async def test_a_thinking_answer_never_filled_in_fails_clearly(local_discord: LocalDiscord, toy: ToyBot) -> None:
    with pytest.raises(StandInTimeout, match=r"with 'thinking' \(a deferred message\) but did not fill it in"):
        await local_discord.slash("alice", "think", timeout=0.3)
    toy.go.set()
    await local_discord.wait_for(lambda: local_discord.interactions[-1].followup_ids or None)


async def test_a_refused_filling_of_a_thinking_answer_fails_at_once(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    pending, interaction = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    assert (await raw.answer(interaction, {"type": 5}))[0] == 204
    status, body = await raw.follow_up(interaction, {"content": ""})
    assert (status, body["code"]) == (400, 50006)
    with pytest.raises(RejectedResponse, match="filling in the 'thinking'"):
        await pending


async def test_a_follow_up_before_the_acknowledgement_is_refused_at_once(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    pending, interaction = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    status, body = await raw.follow_up(interaction, {"content": "too soon"})
    assert (status, body["code"]) == (404, 10015)
    with pytest.raises(RejectedResponse, match="refused the bot's answer to /ping"):
        await pending


async def test_private_answers_of_every_kind(local_discord: LocalDiscord, toy: ToyBot) -> None:
    hand = await local_discord.slash("alice", "hand")
    assert await hand.private_answer() is hand.message  # an ephemeral message (4)
    tidy = await local_discord.slash("alice", "tidy")
    private = await tidy.private_answer()  # an ephemeral "thinking", filled in (5)
    assert private is tidy.message and private.content == "Deleted 0 messages"
    assert hand.message is not None
    picked = await local_discord.select("alice", hand.message, "toy:hand:pick", ["red"])
    assert await picked.private_answer() is hand.message  # the private message the click updated (7)
    board = await local_discord.slash("alice", "board")
    legend = await board.private_answer()  # a public "thinking", then an ephemeral follow-up
    assert legend.ephemeral and legend.content.startswith("Legend")
    game = (await local_discord.slash("alice", "newgame", {"game": "dice"})).message
    assert game is not None
    closed = await local_discord.click("alice", game, "toy:close:dice")
    with pytest.raises(StandInTimeout, match="a private answer"):
        await closed.private_answer(timeout=0.05)  # a public update and nothing private


async def test_the_private_answer_to_a_deferred_update_is_a_follow_up(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "bare:go"}
    status, posted = await raw.post(
        local_discord.channel("trains"), {"components": [{"type": 1, "components": [button]}]}
    )
    assert status == 200
    pending, interaction = await dispatched(local_discord, local_discord.click("boris", int(posted["id"]), "bare:go"))
    await raw.answer(interaction, {"type": 6})
    outcome = await pending
    assert outcome.response_type == 6
    waiting = asyncio.create_task(outcome.private_answer())
    status, sent = await raw.follow_up(interaction, {"content": "Only you", "flags": 64})
    assert status == 200
    private = await waiting
    assert (private.id, private.content, private.recipient_id) == (
        int(sent["id"]),
        "Only you",
        local_discord.user("boris").id,
    )
