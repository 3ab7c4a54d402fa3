"""Buttons, select menus and modals: clicks carry the message, persistent items survive restarts, tokens die."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from localdiscord import ImpossibleInteraction, LocalDiscord, RecordedMessage, StandInTimeout
from tests.sandbox.toy_bot import ToyBot


async def post_game(local_discord: LocalDiscord, game: str = "dice") -> RecordedMessage:
    """Run /newgame and return the public game message."""
    outcome = await local_discord.slash("alice", "newgame", {"game": game})
    assert outcome.message is not None
    return outcome.message


async def test_click_carries_the_message_and_gets_an_ephemeral_answer(local_discord: LocalDiscord, toy: ToyBot) -> None:
    game = await post_game(local_discord)
    outcome = await local_discord.click("boris", game, "toy:join:dice")
    assert outcome.response_type == 4
    assert outcome.content == "boris joined dice"
    assert outcome.ephemeral
    message = outcome.message
    assert message is not None
    assert message.flags & 64
    assert message.recipient_id == local_discord.user("boris").id
    sent = outcome.interaction.payload["message"]
    assert sent["id"] == str(game.id)
    assert sent["components"] == game.components
    assert local_discord.ephemerals("boris") == [message]
    assert local_discord.ephemerals("alice") == []
    assert local_discord.channel_messages("trains") == [game]
    assert toy.joined == [("dice", "boris")]


async def test_dynamic_item_handles_an_old_message_after_a_restart(
    local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]
) -> None:
    first = make_bot()
    async with local_discord.connected(first):
        game = await post_game(local_discord, "ttr")
    second = make_bot()
    async with local_discord.connected(second):
        outcome = await local_discord.click("carol", game, "toy:join:ttr")
    assert outcome.content == "carol joined ttr"
    assert (first.joined, second.joined) == ([], [("ttr", "carol")])
    assert len(local_discord.interactions) == 2


async def test_two_simultaneous_clicks_are_both_delivered_and_recorded(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    game = await post_game(local_discord)
    alice, boris = await asyncio.gather(
        local_discord.click("alice", game, "toy:join:dice"),
        local_discord.click("boris", game, "toy:join:dice"),
    )
    assert (alice.content, boris.content) == ("alice joined dice", "boris joined dice")
    assert sorted(toy.joined) == [("dice", "alice"), ("dice", "boris")]
    assert alice.interaction.id != boris.interaction.id


async def test_update_response_drops_the_components_and_keeps_history(local_discord: LocalDiscord, toy: ToyBot) -> None:
    game = await post_game(local_discord)
    outcome = await local_discord.click("alice", game, "toy:close:dice")
    assert outcome.response_type == 7
    assert outcome.message is game
    assert game.content == "The dice game is closed."
    assert game.components == []
    assert [len(version.components) for version in game.history] == [1]
    assert [(action.kind, action.message.id) for action in local_discord.log] == [
        ("create", game.id),
        ("edit", game.id),
    ]


async def test_clicks_a_real_client_could_not_make_raise_unless_forced(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    game = await post_game(local_discord)
    with pytest.raises(ImpossibleInteraction, match="disabled"):
        await local_discord.click("alice", game, "toy:start:dice")
    with pytest.raises(ImpossibleInteraction, match="no component 'toy:join:chess'"):
        await local_discord.click("alice", game, "toy:join:chess")
    # Forced, they reach the bot; discord.py ignores a custom id that is not on the message, and the
    # disabled Start button has no handler: neither is answered.
    for custom_id in ("toy:join:chess", "toy:start:dice"):
        with pytest.raises(StandInTimeout, match="no View or DynamicItem matched"):
            await local_discord.click("alice", game, custom_id, force=True, timeout=0.2)
    assert len(local_discord.interactions) == 3


async def test_select_menu_on_an_ephemeral_message_updates_it(local_discord: LocalDiscord, toy: ToyBot) -> None:
    hand = await local_discord.slash("alice", "hand")
    message = hand.message
    assert message is not None and message.ephemeral
    with pytest.raises(ImpossibleInteraction, match="ephemeral for someone else"):
        await local_discord.select("boris", message, "toy:hand:pick", ["red"])
    with pytest.raises(ImpossibleInteraction, match="takes 1 to 2 values"):
        await local_discord.select("alice", message, "toy:hand:pick", ["red", "blue", "locomotive"])
    picked = await local_discord.select("alice", message, "toy:hand:pick", ["red", "Locomotive"])
    assert picked.interaction.payload["data"]["values"] == ["red", "locomotive"]
    assert picked.response_type == 7
    assert message.content == "You picked red, locomotive"
    assert message.edited and message.ephemeral


async def test_modal_is_shown_and_submitted(local_discord: LocalDiscord, toy: ToyBot) -> None:
    shown = await local_discord.slash("carol", "feedback")
    assert shown.response_type == 9
    assert shown.modal is not None and shown.modal["title"] == "Feedback"
    with pytest.raises(ImpossibleInteraction, match="required"):
        await local_discord.submit_modal("carol", "toy:feedback", {})
    with pytest.raises(ImpossibleInteraction, match="no modal"):
        await local_discord.submit_modal("alice", "toy:feedback", {"toy:feedback:text": "hi"})
    answer = await local_discord.submit_modal("carol", "toy:feedback", {"toy:feedback:text": "Great game"})
    assert answer.content == "Thanks: Great game"
    assert answer.ephemeral


async def test_a_dead_token_makes_edits_fail_and_the_bot_copes(local_discord: LocalDiscord, toy: ToyBot) -> None:
    game = await post_game(local_discord)
    hand = await local_discord.slash("alice", "hand")
    fresh = await local_discord.click("alice", game, "toy:deal:dice")
    assert fresh.content == "Hand updated"
    assert hand.content == "Your hand: green, yellow"
    local_discord.expire_interaction(hand)
    expired = await local_discord.click("alice", game, "toy:deal:dice")
    assert expired.content == "Your old hand expired: green, yellow"
    assert any("404 10015 Unknown Webhook" in line for line in local_discord.rejected)


async def test_tokens_die_after_fifteen_minutes_on_the_injected_clock(make_bot: Callable[[], ToyBot]) -> None:
    now = [1000.0]
    async with LocalDiscord(clock=lambda: now[0]) as stand_in:
        bot = ToyBot(stand_in.guild_id)
        async with stand_in.connected(bot):
            game = (await stand_in.slash("alice", "newgame", {"game": "dice"})).message
            assert game is not None
            await stand_in.slash("alice", "hand")
            now[0] += 15 * 60 + 1
            expired = await stand_in.click("alice", game, "toy:deal:dice")
        assert expired.content == "Your old hand expired: green, yellow"


async def test_deferred_update_then_edit_of_the_clicked_message(local_discord: LocalDiscord, toy: ToyBot) -> None:
    game = await post_game(local_discord)
    outcome = await local_discord.click("boris", game, "toy:roll:dice")
    assert outcome.response_type == 6
    assert outcome.message is game
    edited = await outcome.edited()
    assert edited.content == "boris rolled 4 in dice"
    assert edited.components == game.history[0].components  # an edit without components keeps them


async def test_ephemeral_reply_with_a_file_can_be_dismissed(local_discord: LocalDiscord, toy: ToyBot) -> None:
    hand = await local_discord.slash("alice", "hand")
    message = hand.message
    assert message is not None
    assert [a.filename for a in message.attachments] == ["hand.png"]
    assert local_discord.ephemerals("alice") == [message]
    dismissed = await local_discord.click("alice", message, "toy:hand:dismiss")
    assert dismissed.response_type == 6
    await local_discord.wait_for(lambda: message.deleted or None)
    assert local_discord.ephemerals("alice") == []
    assert local_discord.log[-1].kind == "delete"


async def test_a_view_stored_by_the_answer_handles_an_immediate_select(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    for _ in range(20):
        hand = await local_discord.slash("alice", "hand")
        assert hand.message is not None
        picked = await local_discord.select("alice", hand.message, "toy:hand:pick", ["blue"])
        assert picked.content == "You picked blue"


async def test_no_view_timeout_task_outlives_the_bot(
    local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]
) -> None:
    async with local_discord.connected(make_bot()):
        await local_discord.slash("alice", "hand")  # an ephemeral view: discord.py gives it a 15-minute timeout
    left = [t for t in asyncio.all_tasks() if getattr(t.get_coro(), "__qualname__", "").startswith("BaseView.")]
    assert left == []
