"""What the health and metrics tests share: a bot on the local Discord serving `/healthz` and `/metrics` on a port
of its own, and asking them over HTTP as an operator's monitor would."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from bot.app import Conductor, create_bot
from bot.sandbox.run import sandbox_settings
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import choose_threads

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
"""Each sample of a scrape: (name, its labels sorted) → value."""


@asynccontextmanager
async def ops_bot(
    stand_in: LocalDiscord, database: Path, *, postgres_url: str | None = None
) -> AsyncIterator[Conductor]:
    """A bot on the stand-in with `ops_listen` on a free port of 127.0.0.1 (games played in the channel), on the
    SQLite file or, if given, the PostgreSQL database."""
    settings = sandbox_settings(database, bot_move_delay=0).model_copy(update={"ops_listen": "127.0.0.1:0"})
    if postgres_url is not None:
        settings = settings.model_copy(update={"database_url": SecretStr(postgres_url)})
    bot = create_bot(settings)
    async with stand_in.connected(bot):
        await choose_threads(bot, stand_in.guild_id, False)
        yield bot


async def health(bot: Conductor) -> tuple[int, dict[str, Any]]:
    """`/healthz`: its status and its body."""
    async with aiohttp.ClientSession() as session, session.get(f"{_base(bot)}/healthz") as response:
        return response.status, json.loads(await response.text())


async def scrape(bot: Conductor) -> Samples:
    """`/metrics`, read with the Prometheus client's own parser."""
    async with aiohttp.ClientSession() as session, session.get(f"{_base(bot)}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _base(bot: Conductor) -> str:
    assert bot.web.ops_port, "the bot serves /healthz and /metrics"
    return f"http://127.0.0.1:{bot.web.ops_port}"
