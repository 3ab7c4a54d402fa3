"""The stand-in's HTTP surface and lifecycle, checked with plain aiohttp requests and a bare discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from localdiscord import LocalDiscord, LocalDiscordError, NotConnected, StandInTimeout
from tests.sandbox.manual import RawApi
from tests.sandbox.toy_bot import ToyBot


async def test_json_answers_have_exactly_the_json_content_type(local_discord: LocalDiscord) -> None:
    headers = {"Authorization": f"Bot {local_discord.token}"}
    url = f"{local_discord.api_url}/users/@me"
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "application/json"
        me = await response.json()
    assert me["id"] == str(local_discord.application_id)
    assert {"username", "discriminator", "avatar"} <= set(me)


async def test_wrong_token_is_refused_and_discord_py_reports_login_failure(local_discord: LocalDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with local_discord.patch_discord_py(), pytest.raises(discord.LoginFailure):
        async with client:
            await client.login("not-the-token")
    assert any("401" in line for line in local_discord.rejected)


async def test_every_bot_route_refuses_a_wrong_token_before_looking_at_anything_else(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    """Discord checks the token first: 401 even for a channel, guild or message that does not exist."""
    _, dm = await raw.call("POST", "/users/@me/channels", {"recipient_id": str(local_discord.user("alice").id)})
    app, guild, trains = local_discord.application_id, local_discord.guild_id, local_discord.channel("trains").id
    routes = [
        ("GET", "/users/@me"),
        ("GET", f"/users/{app}"),
        ("POST", "/users/@me/channels"),
        ("GET", "/oauth2/applications/@me"),
        ("GET", "/gateway/bot"),
        *[(m, f"/applications/{app}{scope}/commands") for m in ("GET", "PUT") for scope in ("", f"/guilds/{guild}")],
        *[(m, f"/channels/{place}") for m in ("GET", "PATCH", "DELETE") for place in (trains, 1)],
        ("GET", f"/channels/{trains}/messages"),
        *[("POST", f"/channels/{place}/messages") for place in (trains, dm["id"], 1)],
        *[(m, f"/channels/{trains}/messages/1") for m in ("GET", "PATCH", "DELETE")],
        ("POST", f"/channels/{trains}/messages/1/threads"),
        ("POST", f"/channels/{trains}/threads"),
        *[(m, f"/channels/{trains}/thread-members/@me") for m in ("PUT", "DELETE")],
        ("POST", f"/channels/{trains}/typing"),
        *[("GET", f"/guilds/{place}{part}") for place in (guild, 1) for part in ("", "/channels", "/roles")],
        ("GET", f"/guilds/{guild}/members"),
        ("GET", f"/guilds/{guild}/members/{app}"),
    ]
    headers = {"Authorization": "Bot not-the-token"}
    async with aiohttp.ClientSession() as session:
        for method, path in routes:
            async with session.request(method, f"{local_discord.api_url}{path}", headers=headers, json={}) as response:
                assert (response.status, (await response.json())["code"]) == (401, 0), (method, path)
    assert len([line for line in local_discord.rejected if "-> 401" in line]) == len(routes)


async def test_unknown_route_answers_json_404_and_is_recorded(local_discord: LocalDiscord) -> None:
    headers = {"Authorization": f"Bot {local_discord.token}"}
    async with aiohttp.ClientSession() as session:
        url = f"{local_discord.api_url}/guilds/{local_discord.guild_id}/bans"
        async with session.get(url, headers=headers) as response:
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
            body = await response.json()
        async with session.put(f"{local_discord.api_url}/channels/1/messages", headers=headers) as response:
            assert response.status == 404
    assert "does not implement" in body["message"]
    assert local_discord.unhandled == [
        f"GET /api/v10/guilds/{local_discord.guild_id}/bans",
        "PUT /api/v10/channels/1/messages",
    ]
    local_discord.unhandled.clear()  # expected here; the fixture asserts it is empty afterwards


async def test_patch_points_discord_py_at_the_stand_in_and_restores_it(local_discord: LocalDiscord) -> None:
    before = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    with local_discord.patch_discord_py():
        assert local_discord.api_url == Route.BASE
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == local_discord.gateway_url
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_interacting_without_a_connected_bot_fails_at_once(local_discord: LocalDiscord) -> None:
    headers = {"Authorization": f"Bot {local_discord.token}"}
    url = f"{local_discord.api_url}/applications/{local_discord.application_id}/commands"
    commands = [{"name": "ping", "description": "Ping"}]
    async with aiohttp.ClientSession() as session, session.put(url, json=commands, headers=headers) as response:
        assert response.status == 200
        assert (await response.json())[0]["application_id"] == str(local_discord.application_id)
    with pytest.raises(NotConnected, match="no bot has connected"):
        await local_discord.slash("alice", "ping")


async def test_waits_time_out_with_a_clear_explanation(local_discord: LocalDiscord) -> None:
    with pytest.raises(StandInTimeout, match=r"Timed out after 0.05 s waiting for a matching message"):
        await local_discord.wait_for_message(lambda message: False, timeout=0.05)


async def test_a_callback_twice_is_refused_like_discord(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("alice", "claim", {"route": "Denver - Omaha"})
    interaction = outcome.interaction
    url = f"{local_discord.api_url}/interactions/{interaction.id}/{interaction.token}/callback"
    answer = {"type": 4, "data": {"content": "again"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=answer) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 40060


async def test_a_closed_bot_is_not_connected(local_discord: LocalDiscord, make_bot: Callable[[], ToyBot]) -> None:
    async with local_discord.connected(make_bot()):
        pass
    with pytest.raises(NotConnected):
        await local_discord.slash("alice", "hand")


class CrashingBot(ToyBot):
    """A bot whose setup fails."""

    async def setup_hook(self) -> None:
        """Fail before connecting."""
        raise RuntimeError("database missing")


class HangingBot(ToyBot):
    """A bot whose setup never ends."""

    async def setup_hook(self) -> None:
        """Wait forever."""
        await asyncio.Event().wait()


@pytest.mark.discord_errors_expected
async def test_an_early_crash_of_the_bot_is_raised_at_once(local_discord: LocalDiscord) -> None:
    with pytest.raises(LocalDiscordError, match="ended before the bot was ready") as raised:
        async with local_discord.connected(CrashingBot(local_discord.guild_id)):
            pytest.fail("the block must not run")
    assert isinstance(raised.value.__cause__, RuntimeError)
    assert local_discord.timeouts == []  # raised as bot.start() failed, not once the wait for ready ran out
    assert local_discord.logged_errors == ["bot.start() failed: RuntimeError('database missing')"]


async def test_a_bot_that_never_gets_ready_times_out_with_advice(local_discord: LocalDiscord) -> None:
    with pytest.raises(StandInTimeout, match=r"guild_ready_timeout=0\.1"):
        async with local_discord.connected(HangingBot(local_discord.guild_id), timeout=0.2):
            pytest.fail("the block must not run")
    assert local_discord.timeouts[0] == "Timed out after 0.2 s waiting for the bot to be ready."
