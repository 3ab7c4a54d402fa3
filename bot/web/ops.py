"""What an operator asks of a running bot: `/healthz` (is it well: 200, or 503 with the reasons) and `/metrics` (its
counts and timings in Prometheus' text format, bot/metrics.py).

Neither waits on anything slow: the health check's one question to the store is bounded by `STORE_PATIENCE` (and a
store that hangs is asked once, not once per check), and the metrics read memory, but for the picture workers' cache
counts, heard within `WORKERS_PATIENCE`.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.metrics_core import Metric

from bot import drawing
from bot.metrics import Metrics
from bot.services import thinking
from bot.services.games import LiveTable
from bot.storage.database import Database, DatabaseUnusable
from bot.ui.parts import Bot
from bot.workers import QueuedPool, WorkerPool

STORE_PATIENCE = 1.0
"""Seconds the health check waits for the store's answer before it calls the store unreachable."""
WORKERS_PATIENCE = 0.5
"""Seconds a scrape waits for busy picture workers to tell their cache counts (a busy one counts as last heard)."""
OK = "ok"


class Operated(Bot, Protocol):
    """The running bot as its operator's routes see it: the ui's view of it, and its gateway, store and lease."""

    database: Database
    metrics: Metrics
    closing: bool
    lease_lost: asyncio.Event

    def get_shard(self, shard_id: int, /) -> discord.ShardInfo | None:
        """One of this process's gateway connections, or None while it has none."""


def add_ops_routes(app: web.Application, bot: Operated) -> None:
    """Add the health and metrics routes."""
    health = Health(bot)
    scraped = CollectorRegistry()
    scraped.register(bot.metrics.registry)
    state = BotState(bot)
    scraped.register(state)

    async def healthz(request: web.Request) -> web.Response:
        checks = await health.checks()
        failing = [name for name, said in checks.items() if said != OK]
        body = {"status": "failing" if failing else OK, "failing": failing, "checks": checks}
        return web.json_response(body, status=503 if failing else 200, dumps=lambda data: json.dumps(data) + "\n")

    async def metrics(request: web.Request) -> web.Response:
        state.render_caches = await drawing.hear_render_caches(WORKERS_PATIENCE)
        return web.Response(body=generate_latest(scraped), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)


class Health:
    """The checks of `/healthz`, each `OK` or one line saying what is wrong (no file, address or secret in it: the
    route may be public)."""

    def __init__(self, bot: Operated) -> None:
        self._bot = bot
        self._asking: asyncio.Task[str] | None = None
        """The store's check in flight: a store that hangs is asked once, and each health check waits for that."""

    async def checks(self) -> dict[str, str]:
        """Every check by name: gateway, store, lease, workers."""
        return {
            "gateway": self.gateway(),
            "store": await self.database(),
            "lease": self.lease(),
            "workers": self.workers(),
        }

    def gateway(self) -> str:
        """Whether every shard this process holds is connected to Discord's gateway."""
        shards = sorted(self._bot.settings.shards().ids)
        down = [shard for shard in shards if (info := self._bot.get_shard(shard)) is None or info.is_closed()]
        if not down:
            return OK
        return f"not connected to Discord: shard {', '.join(map(str, down))} of {len(shards)}"

    async def database(self) -> str:
        """Whether the store answers a cheap question within `STORE_PATIENCE` seconds."""
        if self._asking is None or self._asking.done():
            self._asking = asyncio.create_task(self._ask_store(), name="health: store")
        try:
            async with asyncio.timeout(STORE_PATIENCE):
                return await asyncio.shield(self._asking)
        except TimeoutError:
            return f"the store did not answer within {STORE_PATIENCE:g} s"

    async def _ask_store(self) -> str:
        try:
            await self._bot.database.check()
        except DatabaseUnusable as unusable:
            return f"the store cannot be used: {unusable.problem}"
        except Exception as error:
            return f"the store cannot be used: {type(error).__name__}"
        return OK

    def lease(self) -> str:
        """Whether this process still holds its shards (a PostgreSQL store's lease) and is not stopping."""
        if self._bot.lease_lost.is_set():
            return "the lease on this process's shards is lost: another process may drive their games; this one stops"
        if self._bot.closing:
            return "stopping"
        return OK

    def workers(self) -> str:
        """Whether every picture and thinking worker started still runs."""
        dead = [f"{pool.name} {index}" for pool in _pools() for index in pool.dead()]
        return OK if not dead else f"worker processes ended: {', '.join(dead)} (each is replaced at its next request)"


class BotState:
    """What `/metrics` reads of the bot's state at each scrape: open games, waiting thoughts, worker restarts, the
    lease, the gateway and the caches' hits and misses."""

    def __init__(self, bot: Operated) -> None:
        self._bot = bot
        self.render_caches: dict[str, tuple[int, int]] = {}
        """Each render cache's hits and misses, summed over the picture workers, as heard at this scrape."""

    def collect(self) -> Iterable[Metric]:
        """The metric families, read now."""
        games = GaugeMetricFamily(
            "conductor_open_games", "Open games in memory, by game and status.", labels=["game", "status"]
        )
        for (game, status), count in sorted(Counter((t.record.game, t.record.status) for t in self._live()).items()):
            games.add_metric([game, status], count)
        yield games
        yield GaugeMetricFamily(
            "conductor_thinking_waiting",
            "Thoughts (bot moves, hints) waiting for a thinking worker.",
            value=thinking.POOL.queued(),
        )
        restarts = CounterMetricFamily(
            "conductor_worker_restarts", "Worker processes that died and were replaced, by pool.", labels=["pool"]
        )
        for pool in _pools():
            restarts.add_metric([pool.name], pool.replaced)
        yield restarts
        yield GaugeMetricFamily(
            "conductor_lease_held",
            "1 while this process holds its shards and drives their games, 0 once its lease is lost or it stops.",
            value=0 if self._bot.lease_lost.is_set() or self._bot.closing else 1,
        )
        connected = GaugeMetricFamily(
            "conductor_gateway_connected", "1 while a shard is connected to Discord's gateway.", labels=["shard"]
        )
        for shard in sorted(self._bot.settings.shards().ids):
            info = self._bot.get_shard(shard)
            connected.add_metric([str(shard)], 0 if info is None or info.is_closed() else 1)
        yield connected
        hits = CounterMetricFamily(
            "conductor_cache_hits",
            "Lookups answered from a cache: `pictures` (drawn pictures, in the bot) and the render caches (in the"
            " picture workers).",
            labels=["cache"],
        )
        misses = CounterMetricFamily("conductor_cache_misses", "Lookups a cache could not answer.", labels=["cache"])
        caches = {"pictures": (drawing.PICTURES.hits, drawing.PICTURES.misses), **self.render_caches}
        for name, (hit, missed) in sorted(caches.items()):
            hits.add_metric([name], hit)
            misses.add_metric([name], missed)
        yield hits
        yield misses

    def _live(self) -> list[LiveTable]:
        return list(self._bot.service.live.values())


def _pools() -> list[WorkerPool | QueuedPool]:
    """The process's worker pools: pictures (public, private, slow) and thinking."""
    return [drawing.PUBLIC, drawing.PRIVATE, drawing.SLOW, thinking.POOL]
