"""Several guilds and sharded gateways: each guild's events and interactions reach only the sessions of its shard."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from localdiscord import ImpossibleInteraction, LocalDiscord, LocalDiscordError, StandInTimeout
from tests.sandbox.manual import PING, RawApi
from tests.sandbox.toy_shards import ShardedToy

SANDBOX = "Conductor Sandbox"


def two_shards(stand_in: LocalDiscord) -> tuple[int, int, int]:
    """Add a guild "Other" on the other shard of two than the default guild's: (default id, other id, its shard)."""
    shard = stand_in.guild().shard_id(2)
    return stand_in.guild_id, stand_in.add_guild("Other", shard=(1 - shard, 2)), shard


def clients(shard: int) -> tuple[ShardedToy, ShardedToy]:
    """Two bot processes of two shards: "first" holds ``shard``, "second" the other."""
    first = ShardedToy("first", shard_ids=[shard], shard_count=2)
    return first, ShardedToy("second", shard_ids=[1 - shard], shard_count=2)


async def identify(stand_in: LocalDiscord, **fields: Any) -> aiohttp.WSMessage:
    """Open a raw gateway socket, IDENTIFY with ``fields`` and return the first answer (READY or a close)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(stand_in.gateway_url) as socket:
        assert (await socket.receive_json())["op"] == 10
        await socket.send_json({"op": 2, "d": {"token": stand_in.token, "intents": 0, "properties": {}, **fields}})
        return await socket.receive()


async def test_each_client_sees_and_answers_only_the_guilds_of_its_shard(local_discord: LocalDiscord) -> None:
    here, other, shard = two_shards(local_discord)
    first, second = clients(shard)
    async with local_discord.connected(first), local_discord.connected(second):
        assert [guild.id for guild in first.guilds] == [here]
        assert [guild.id for guild in second.guilds] == [other]
        assert local_discord.connected_shards == [(0, 2), (1, 2)]
        in_here = await local_discord.slash("alice", "where")
        in_other = await local_discord.slash("alice", "where", channel=local_discord.channel("trains", guild_id=other))
        assert in_here.content == f"first on shard {shard} in {SANDBOX}"
        assert in_other.content == f"second on shard {1 - shard} in Other"
        assert in_other.message is not None
        clicked = await local_discord.click("boris", in_other.message, "toy:where")
        assert clicked.content == f"clicked: second on shard {1 - shard} in Other"
    assert first.heard == [("where", here)]
    assert second.heard == [("where", other), ("click", other)]


async def test_guild_events_go_to_the_shard_of_their_guild(local_discord: LocalDiscord) -> None:
    here, other, shard = two_shards(local_discord)
    first, second = clients(shard)
    async with local_discord.connected(first), local_discord.connected(second):
        added = local_discord.add_channel("tables", guild_id=other)
        joined = local_discord.add_guild("Third", shard=(shard, 2))
        await local_discord.delete_channel(local_discord.channel("general"))
        await local_discord.caught_up()
        assert second.get_channel(added.id) is not None and first.get_channel(added.id) is None
        assert first.get_guild(joined) is not None and second.get_guild(joined) is None
        assert first.get_channel(local_discord.channel("trains").id) is not None
        assert [c.name for c in first.get_all_channels() if c.guild.id == here] == ["trains"]
        await local_discord.remove_bot_from_guild(other)
        assert second.get_guild(other) is None
        first_socket, second_session = first.shards[shard]._parent.ws, second.shards[1 - shard]._parent.ws.session_id
        await local_discord.reconnect_gateway(guild_id=here)
        assert first.shards[shard]._parent.ws is not first_socket, "the shard of the default guild resumed"
        assert second.shards[1 - shard]._parent.ws.session_id == second_session


async def test_waiting_for_the_bot_means_every_guild_has_its_shard(local_discord: LocalDiscord) -> None:
    here, _, shard = two_shards(local_discord)
    first, second = clients(shard)
    async with local_discord.connected(first):
        await local_discord.wait_connected(guild_id=here)
        with pytest.raises(StandInTimeout, match="waiting for a bot to connect"):
            await local_discord.wait_connected(timeout=0.05)
        async with local_discord.connected(second):
            await local_discord.wait_connected()


async def test_a_killed_client_leaves_its_shard_until_a_new_client_identifies_for_it(
    local_discord: LocalDiscord,
) -> None:
    here, other, shard = two_shards(local_discord)
    first, second = clients(shard)
    elsewhere = local_discord.channel("trains", guild_id=other)
    async with local_discord.connected(second), local_discord.connected(first):
        before = await local_discord.slash("alice", "where")
        first.kill()
        await local_discord.wait_for(
            lambda: local_discord.connected_shards == [(1 - shard, 2)] or None, what="the killed shard to drop"
        )
        assert (await local_discord.slash("alice", "where", channel=elsewhere)).content.startswith("second")
        with pytest.raises(StandInTimeout, match="reconnect to the gateway for the shard of guild"):
            await local_discord.slash("alice", "where", timeout=0.1)
        async with local_discord.connected(ShardedToy("restarted", shard_ids=[shard], shard_count=2)) as restarted:
            assert local_discord.connected_shards == [(0, 2), (1, 2)]
            assert (await local_discord.slash("alice", "where")).content == f"restarted on shard {shard} in {SANDBOX}"
            assert before.message is not None
            clicked = await local_discord.click("carol", before.message, "toy:where")
            assert clicked.content.startswith("clicked: restarted")
    assert first.heard == [("where", here)]
    assert isinstance(restarted, ShardedToy) and len(restarted.heard) == 2


@pytest.mark.discord_errors_expected
async def test_a_shard_the_count_does_not_have_is_refused_with_4010(local_discord: LocalDiscord) -> None:
    with pytest.raises(LocalDiscordError, match="ended before the bot was ready") as raised:
        async with local_discord.connected(ShardedToy("wrong", shard_ids=[2], shard_count=2)):
            pytest.fail("the block must not run")
    assert isinstance(raised.value.__cause__, discord.ConnectionClosed)
    assert raised.value.__cause__.code == 4010


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], ["0", "1"], [True, 2], "0,1"])
async def test_malformed_shards_are_refused_with_4010(local_discord: LocalDiscord, shard: object) -> None:
    refused = await identify(local_discord, shard=shard)
    assert (refused.type, refused.data) == (aiohttp.WSMsgType.CLOSE, 4010)


async def test_a_second_identify_on_one_socket_is_refused_with_4005(local_discord: LocalDiscord) -> None:
    identify = {"op": 2, "d": {"token": local_discord.token, "intents": 0, "properties": {}}}
    async with aiohttp.ClientSession() as session, session.ws_connect(local_discord.gateway_url) as socket:
        assert (await socket.receive_json())["op"] == 10
        await socket.send_json(identify)
        assert [(await socket.receive_json())["t"] for _ in range(2)] == ["READY", "GUILD_CREATE"]
        await socket.send_json(identify)
        refused = await socket.receive()
    assert (refused.type, refused.data) == (aiohttp.WSMsgType.CLOSE, 4005)


async def test_more_guilds_on_a_shard_than_allowed_is_refused_with_4011(local_discord: LocalDiscord) -> None:
    local_discord.max_guilds_per_shard = 1
    shard = local_discord.guild().shard_id(2)
    local_discord.add_guild("Neighbour", shard=(shard, 2))
    assert (await identify(local_discord, shard=[1 - shard, 2])).type is aiohttp.WSMsgType.TEXT
    refused = await identify(local_discord, shard=[shard, 2])
    assert (refused.type, refused.data) == (aiohttp.WSMsgType.CLOSE, 4011)
    assert (await identify(local_discord)).data == 4011, "unsharded, one session would hold both guilds"


async def test_an_auto_sharded_bot_runs_the_recommended_shards(local_discord: LocalDiscord, raw: RawApi) -> None:
    local_discord.shards = 2
    status, limits = await raw.call("GET", "/gateway/bot")
    assert status == 200
    assert limits == {
        "url": local_discord.gateway_url,
        "shards": 2,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 86_400_000, "max_concurrency": 16},
    }
    async with local_discord.connected(ShardedToy("auto")) as bot:
        assert isinstance(bot, ShardedToy) and bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert local_discord.connected_shards == [(0, 2), (1, 2)]
        assert (await local_discord.slash("alice", "where")).content.startswith("auto on shard")
    assert (await raw.call("GET", "/gateway/bot"))[1]["session_start_limit"]["remaining"] == 998


@pytest.mark.discord_errors_expected
async def test_two_sessions_on_one_shard_both_get_its_interactions(local_discord: LocalDiscord) -> None:
    one, two = ShardedToy("one", shard_ids=[0], shard_count=1), ShardedToy("two", shard_ids=[0], shard_count=1)
    async with local_discord.connected(one), local_discord.connected(two):
        assert local_discord.connected_shards == [(0, 1), (0, 1)]
        await local_discord.slash("alice", "where")
        await local_discord.wait_for(lambda: (one.heard and two.heard) or None, what="both sessions to hear it")
        await local_discord.wait_for(lambda: any(" 40060 " in line for line in local_discord.rejected) or None)


async def test_guild_ids_pick_their_shard(local_discord: LocalDiscord) -> None:
    for count in (1, 2, 3, 16):
        for shard in range(count):
            guild_id = local_discord.add_guild(f"{shard} of {count}", shard=(shard, count))
            assert (guild_id >> 22) % count == shard == local_discord.guild(guild_id).shard_id(count)
    with pytest.raises(ValueError, match="does not exist"):
        local_discord.add_guild("nowhere", shard=(2, 2))
    assert len(set(local_discord.guild_ids)) == len(local_discord.guild_ids) == 23


async def test_people_in_several_guilds_and_the_routes_of_each_guild(local_discord: LocalDiscord, raw: RawApi) -> None:
    other = local_discord.add_guild("Other", "ru", channels=("tables",), members=["alice", "carol"])
    alice, boris = local_discord.user("alice"), local_discord.user("boris")
    status, guild = await raw.call("GET", f"/guilds/{other}?with_counts=true")
    assert status == 200
    assert (guild["name"], guild["preferred_locale"], guild["approximate_member_count"]) == ("Other", "ru", 3)
    assert [c["name"] for c in (await raw.call("GET", f"/guilds/{other}/channels"))[1]] == ["tables"]
    roles = (await raw.call("GET", f"/guilds/{other}/roles"))[1]
    assert roles[0]["id"] == str(other) and roles[-1]["managed"]
    assert roles[-1]["id"] != (await raw.call("GET", f"/guilds/{local_discord.guild_id}/roles"))[1][-1]["id"]
    assert (await raw.call("GET", f"/guilds/{other}/members/{alice.id}"))[0] == 200
    assert (await raw.call("GET", f"/guilds/{other}/members/{boris.id}"))[1]["code"] == 10007
    assert len((await raw.call("GET", f"/guilds/{other}/members?limit=10"))[1]) == 3
    await raw.call("PUT", f"/applications/{local_discord.application_id}/commands", [PING])
    tables = local_discord.channel("tables")
    with pytest.raises(ImpossibleInteraction, match="boris is not a member of guild 'Other'"):
        await local_discord.slash("boris", "ping", channel=tables)
    async with local_discord.connected(ShardedToy("solo")):
        answer = await local_discord.slash("alice", "where", channel=tables)
    payload = answer.interaction.payload
    assert (payload["guild_id"], payload["guild_locale"]) == (str(other), "ru")
    assert answer.content == "solo on shard 0 in Other"
    await local_discord.remove_bot_from_guild(other)
    assert (await raw.call("GET", f"/guilds/{other}"))[1]["code"] == 50001
    assert (await raw.call("GET", f"/guilds/{local_discord.guild_id}"))[0] == 200
