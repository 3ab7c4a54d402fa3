"""Direct messages on the stand-in: opened and sent by real discord.py, refused with 50007 when a person closed them,
never shown in a guild channel; and who a new channel message pings."""

from __future__ import annotations

import discord
import pytest

from localdiscord import LocalDiscord
from tests.sandbox.manual import RawApi
from tests.sandbox.toy_bot import ToyBot

CANNOT_DM = 50007


async def test_a_dm_is_recorded_in_the_persons_dm_channel_and_no_guild_channel(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    alice = local_discord.user("alice")
    channel = await toy.create_dm(discord.Object(id=alice.id))
    sent = await channel.send("Your turn: https://discord.com/channels/1/2/3")
    assert isinstance(sent.channel, discord.DMChannel) and sent.guild is None
    assert [m.text for m in local_discord.dms("alice")] == ["Your turn: https://discord.com/channels/1/2/3"]
    assert local_discord.dms("boris") == []
    assert "Your turn" not in local_discord.transcript("trains")
    assert all(m.id != sent.id for m in local_discord.channel_messages("trains"))
    again = await toy.create_dm(discord.Object(id=alice.id))
    assert again.id == channel.id


async def test_a_person_with_closed_dms_refuses_with_50007_until_they_open_them(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    local_discord.close_dms("boris")
    channel = await toy.create_dm(discord.Object(id=local_discord.user("boris").id))  # opening works on Discord too
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert refused.value.code == CANNOT_DM
    assert local_discord.dms("boris") == []
    local_discord.close_dms("boris", closed=False)
    await channel.send("hello again")
    assert [m.text for m in local_discord.dms("boris")] == ["hello again"]


async def test_the_bot_cannot_dm_itself(local_discord: LocalDiscord, raw: RawApi) -> None:
    status, body = await raw.call("POST", "/users/@me/channels", {"recipient_id": str(local_discord.application_id)})
    assert status == 200
    status, body = await raw.call("POST", f"/channels/{body['id']}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, CANNOT_DM)


async def test_a_new_message_pings_only_whom_allowed_mentions_lets(local_discord: LocalDiscord, raw: RawApi) -> None:
    alice, boris = local_discord.user("alice"), local_discord.user("boris")
    trains = local_discord.channel("trains")
    both = f"<@{alice.id}> and <@!{boris.id}>"
    for allowed, expected in [
        (None, [alice.id, boris.id]),
        ({"parse": ["users"]}, [alice.id, boris.id]),
        ({"parse": [], "users": [str(boris.id)]}, [boris.id]),
        ({"parse": []}, []),
    ]:
        body = {"content": both} if allowed is None else {"content": both, "allowed_mentions": allowed}
        status, sent = await raw.post(trains, body)
        assert status == 200
        assert local_discord.message(int(sent["id"])).pinged == expected
