"""Tests that play the bot by hand: a bare discord.py client that answers nothing, and raw REST calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any, TypeVar

import aiohttp
import discord

from localdiscord import LocalChannel, LocalDiscord, RecordedInteraction

T = TypeVar("T")
Json = dict[str, Any]
PING = {"name": "ping", "description": "Ping the bot", "type": 1}


class BareBot(discord.Client):
    """A client with no commands and no views: interactions reach it unanswered; it records some events."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.events: list[tuple[str, Any]] = []
        self._changed = asyncio.Event()

    def _record(self, name: str, argument: Any) -> None:
        self.events.append((name, argument))
        self._changed.set()

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """Note a deleted channel."""
        self._record("guild_channel_delete", channel)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        """Note a deleted thread the bot knew."""
        self._record("thread_delete", thread)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """Note any deleted thread."""
        self._record("raw_thread_delete", payload)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Note that the bot left a guild."""
        self._record("guild_remove", guild)

    async def heard(self, name: str, timeout: float = 5.0) -> Any:
        """Wait until the event ``name`` was handled, and return its argument."""
        async with asyncio.timeout(timeout):
            while True:
                found = next((argument for event, argument in self.events if event == name), None)
                if found is not None:
                    return found
                self._changed.clear()
                await self._changed.wait()


class RawApi:
    """The stand-in's REST API called directly, as a bot would: each call returns (status, JSON body or None)."""

    def __init__(self, stand_in: LocalDiscord, session: aiohttp.ClientSession) -> None:
        self._stand_in = stand_in
        self._session = session

    async def call(
        self, method: str, path: str, body: Json | list[Json] | None = None, *, files: dict[str, bytes] | None = None
    ) -> tuple[int, Any]:
        """Call ``/api/v10{path}`` with the bot's token; ``files`` (name to bytes) make it multipart."""
        headers = {"Authorization": f"Bot {self._stand_in.token}"}
        data: aiohttp.FormData | None = None
        if files:
            data = aiohttp.FormData(quote_fields=False)
            data.add_field("payload_json", json.dumps(body or {}))
            for index, (name, content) in enumerate(files.items()):
                data.add_field(f"files[{index}]", content, filename=name, content_type="application/octet-stream")
            body = None
        url = f"{self._stand_in.api_url}{path}"
        async with self._session.request(method, url, json=body, data=data, headers=headers) as response:
            text = await response.text()
            return response.status, json.loads(text) if text else None

    async def answer(self, interaction: RecordedInteraction, body: Json) -> tuple[int, Any]:
        """POST the interaction's callback."""
        return await self.call("POST", f"/interactions/{interaction.id}/{interaction.token}/callback", body)

    async def follow_up(self, interaction: RecordedInteraction, body: Json) -> tuple[int, Any]:
        """POST a follow-up through the interaction's webhook."""
        return await self.call("POST", f"/webhooks/{self._stand_in.application_id}/{interaction.token}?wait=1", body)

    async def edit_original(self, interaction: RecordedInteraction, body: Json) -> tuple[int, Any]:
        """PATCH the interaction's original response."""
        path = f"/webhooks/{self._stand_in.application_id}/{interaction.token}/messages/@original"
        return await self.call("PATCH", path, body)

    async def post(
        self, channel: LocalChannel, body: Json, *, files: dict[str, bytes] | None = None
    ) -> tuple[int, Any]:
        """POST a channel message."""
        return await self.call("POST", f"/channels/{channel.id}/messages", body, files=files)

    async def sync_ping(self) -> None:
        """Register the guild command /ping, so the tests can run it."""
        path = f"/applications/{self._stand_in.application_id}/guilds/{self._stand_in.guild_id}/commands"
        status, _ = await self.call("PUT", path, [PING])
        assert status == 200


async def dispatched(
    stand_in: LocalDiscord, interacting: Coroutine[Any, Any, T]
) -> tuple[asyncio.Task[T], RecordedInteraction]:
    """Start a driving call (slash, click...) and wait until its interaction reached the bot; return both."""
    known = len(stand_in.interactions)
    task = asyncio.create_task(interacting)

    def sent() -> RecordedInteraction | None:
        return stand_in.interactions[known] if len(stand_in.interactions) > known else None

    return task, await stand_in.wait_for(sent, what="an interaction to answer by hand")
