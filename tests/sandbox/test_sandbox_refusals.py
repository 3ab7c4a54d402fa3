"""Messages Discord refuses however they are sent: empty after an edit, or over the content limit."""

from __future__ import annotations

from typing import Any

import pytest

from localdiscord import LocalDiscord, RecordedInteraction, RejectedResponse
from localdiscord.models import COMPONENTS_V2
from tests.sandbox.manual import BareBot, RawApi, dispatched
from tests.sandbox.test_sandbox_permissions import button
from tests.sandbox.toy_bot import png_bytes

TOO_LONG = "A" * 2001


async def code_of(call: Any) -> int:
    """The Discord error code of a raw call's answer (0 when it succeeded)."""
    status, body = await call
    return 0 if status < 300 else int(body["code"])


async def test_an_edit_that_would_empty_a_channel_message_is_refused(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")

    async def edit(message: dict[str, Any], body: dict[str, Any]) -> int:
        return await code_of(raw.call("PATCH", f"/channels/{trains.id}/messages/{message['id']}", body))

    _, text = await raw.post(trains, {"content": "text only"})
    assert await edit(text, {"content": ""}) == 50006
    assert await edit(text, {"content": None}) == 50006
    assert await edit(text, {"embeds": []}) == 0  # the content stays
    assert await edit(text, {"content": "", "embeds": [{"title": "Now an embed"}]}) == 0
    _, picture = await raw.post(trains, {}, files={"board.png": png_bytes()})
    assert await edit(picture, {"attachments": []}) == 50006
    assert await edit(picture, {"content": ""}) == 0  # the file stays
    assert await edit(picture, {"attachments": [], "content": "the picture is gone"}) == 0
    _, buttons = await raw.post(trains, {"components": [button("bare:go")]})
    assert await edit(buttons, {"components": []}) == 50006
    layout = {"flags": COMPONENTS_V2, "components": [{"type": 10, "content": "Components V2"}]}
    _, v2 = await raw.post(trains, layout)
    assert await edit(v2, {"components": []}) == 50006
    assert await edit(v2, {"components": [{"type": 10, "content": "Still V2"}]}) == 0
    assert local_discord.message(int(text["id"])).embeds == [{"title": "Now an embed"}]
    assert sum("50006 Cannot send an empty message" in line for line in local_discord.rejected) == 5


async def answered_ping(local_discord: LocalDiscord, raw: RawApi, answer: dict[str, Any]) -> RecordedInteraction:
    """Run /ping and answer it by hand; return the interaction."""
    pending, interaction = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    assert await code_of(raw.answer(interaction, answer)) == 0
    await pending
    return interaction


async def test_interaction_edits_that_would_empty_a_message_are_refused(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    pong = await answered_ping(local_discord, raw, {"type": 4, "data": {"content": "pong"}})
    assert await code_of(raw.edit_original(pong, {"content": ""})) == 50006
    assert "50006" in pong.rejections[-1]
    _, posted = await raw.post(local_discord.channel("trains"), {"content": "Go?", "components": [button("bare:go")]})
    clicking, click = await dispatched(local_discord, local_discord.click("alice", int(posted["id"]), "bare:go"))
    assert await code_of(raw.answer(click, {"type": 7, "data": {"content": "", "components": []}})) == 50006
    with pytest.raises(RejectedResponse, match="refused the bot's answer to click"):
        await clicking
    thinking, deferred = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    assert await code_of(raw.answer(deferred, {"type": 5})) == 0
    assert await code_of(raw.edit_original(deferred, {"content": ""})) == 50006
    with pytest.raises(RejectedResponse, match="filling in the 'thinking'"):
        await thinking


async def test_content_over_2000_characters_is_refused_however_it_is_sent(
    local_discord: LocalDiscord, bare: BareBot, raw: RawApi
) -> None:
    pending, shouted = await dispatched(local_discord, local_discord.slash("alice", "ping"))
    assert await code_of(raw.answer(shouted, {"type": 4, "data": {"content": TOO_LONG}})) == 50035
    with pytest.raises(RejectedResponse):
        await pending
    pong = await answered_ping(local_discord, raw, {"type": 4, "data": {"content": "pong"}})
    assert await code_of(raw.follow_up(pong, {"content": TOO_LONG})) == 50035
    assert await code_of(raw.edit_original(pong, {"content": TOO_LONG})) == 50035
    _, posted = await raw.post(local_discord.channel("trains"), {"content": "Go?", "components": [button("bare:go")]})
    clicking, click = await dispatched(local_discord, local_discord.click("alice", int(posted["id"]), "bare:go"))
    assert await code_of(raw.answer(click, {"type": 7, "data": {"content": TOO_LONG}})) == 50035
    with pytest.raises(RejectedResponse):
        await clicking
    trains = local_discord.channel("trains")
    assert await code_of(raw.call("PATCH", f"/channels/{trains.id}/messages/{posted['id']}", {"content": TOO_LONG}))
    assert local_discord.message(int(posted["id"])).content == "Go?"
