"""What the board pages' tests share: a bot on the local Discord with its web server on a free port, and reading its
pages, data and event streams over real HTTP."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import aiohttp
from multidict import CIMultiDict
from pydantic import SecretStr

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from bot.settings import Settings
from localdiscord import LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import PATIENCE, choose_threads

SECRET = "the test secret that signs board links"


class WebRunning(Protocol):
    """Starts a bot with its board pages on; enter again for a restart on the same database."""

    def __call__(self, **settings: Any) -> AbstractAsyncContextManager[Conductor]: ...


def web_settings(database: Path, **changes: Any) -> Settings:
    """The end-to-end tests' settings with the board pages on, on a free port of 127.0.0.1."""
    web = {"web_listen": "127.0.0.1:0", "web_secret": SecretStr(SECRET)}
    return sandbox_settings(database, bot_move_delay=0).model_copy(update=web | changes)


def web_runner(stand_in: LocalDiscord, database: Path) -> WebRunning:
    """Start the bot with its board pages on (and these settings changed), games played in their channel."""

    @asynccontextmanager
    async def start(**changes: Any) -> AsyncIterator[Conductor]:
        bot = create_bot(web_settings(database, **changes))
        async with stand_in.connected(bot):
            await choose_threads(bot, stand_in.guild_id, False)
            yield bot

    return start


def base(bot: Conductor) -> str:
    """The address of the bot's web server."""
    return f"http://127.0.0.1:{bot.web.port}"


def board_links(message: RecordedMessage) -> list[str]:
    """The addresses of a message's link buttons."""
    return [str(c["url"]) for c in message.buttons() if c.get("style") == 5]


async def get(url: str, **headers: str) -> tuple[int, CIMultiDict[str], bytes]:
    """GET an address: status, headers and body."""
    timeout = aiohttp.ClientTimeout(total=PATIENCE)
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url, headers=headers) as response:
        return response.status, response.headers.copy(), await response.read()


async def get_json(url: str, **headers: str) -> tuple[int, Any]:
    """GET an address answering JSON: status and the JSON."""
    status, _, body = await get(url, **headers)
    return status, json.loads(body)


async def next_event(response: aiohttp.ClientResponse) -> tuple[str, str]:
    """The next event of a Server-Sent Events stream (pings skipped): its name and data."""
    name, data = "message", list[str]()
    while True:
        line = (await response.content.readline()).decode().rstrip("\n")
        if not line:
            if data:
                return name, "\n".join(data)
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
