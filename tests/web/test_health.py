"""`/healthz` of a running bot on the local Discord: 200 while it is well; 503 naming what is wrong when its store is
gone or does not answer, when its lease is lost, or when a worker died; 200 again once that is mended."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot import drawing
from bot.storage.postgres import LEASE_APPLICATION
from bot.web.ops import STORE_PATIENCE
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import PATIENCE, checked, usual_people
from tests.bot.storage.test_leases import terminate_lease
from tests.postgres import PostgresServer
from tests.web.ops_client import health, ops_bot

WELL = {"gateway": "ok", "store": "ok", "lease": "ok", "workers": "ok"}


@asynccontextmanager
async def server_paused(server: PostgresServer, url: str) -> AsyncIterator[None]:
    """Stop the PostgreSQL server's main process and the pool connections of the database `url` names (SIGSTOP, as a
    machine that hangs): they neither answer nor take new connections; the lease's own connection runs on, so the
    lease is kept. Let them go on afterwards."""
    admin = await asyncpg.connect(url)
    try:
        rows = await admin.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'conductor'"
        )
        assert await admin.fetchval(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", LEASE_APPLICATION
        ), "the lease's connection is not paused"
    finally:
        await admin.close()
    main = int((server.socket_dir / "data" / "postmaster.pid").read_text().split()[0])
    paused = [main, *(int(row["pid"]) for row in rows)]
    assert len(paused) > 1, "the bot's pool has connections to pause"
    for pid in paused:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in paused:
            os.kill(pid, signal.SIGCONT)


async def test_healthz_is_503_naming_the_store_while_its_sqlite_file_is_gone_and_200_once_it_is_back(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    path = tmp_path / "games.sqlite3"
    async with checked(caplog, usual_people()) as stand_in, ops_bot(stand_in, path) as bot:
        assert await health(bot) == (200, {"status": "ok", "failing": [], "checks": WELL})

        away = path.rename(tmp_path / "moved-away.sqlite3")  # an operator's cleanup under a running bot
        status, body = await health(bot)
        assert (status, body["status"], body["failing"]) == (503, "failing", ["store"])
        assert "moved, deleted or replaced while the bot runs" in body["checks"]["store"]
        assert str(tmp_path) not in json.dumps(body), "the route may be public: no file names in it"

        away.rename(path)
        assert await health(bot) == (200, {"status": "ok", "failing": [], "checks": WELL})


async def test_healthz_answers_503_while_postgresql_hangs_and_200_once_it_answers_again(
    caplog: pytest.LogCaptureFixture, tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    async with (
        checked(caplog, usual_people()) as stand_in,
        ops_bot(stand_in, tmp_path / "unused.sqlite3", postgres_url=postgres_url) as bot,
    ):
        assert (await health(bot))[0] == 200
        async with server_paused(postgres_server, postgres_url):
            for _ in range(2):  # asked again meanwhile: the check still in flight is waited for, not asked anew
                status, body = await health(bot)
                assert (status, body["failing"]) == (503, ["store"])
                assert body["checks"]["store"] == f"the store did not answer within {STORE_PATIENCE:g} s"
        assert await health(bot) == (200, {"status": "ok", "failing": [], "checks": WELL})


async def test_healthz_is_503_naming_the_lease_once_this_process_lost_it(tmp_path: Path, postgres_url: str) -> None:
    async with (
        LocalDiscord(users=usual_people(), timeout=PATIENCE) as stand_in,
        ops_bot(stand_in, tmp_path / "unused.sqlite3", postgres_url=postgres_url) as bot,
    ):
        assert (await health(bot))[0] == 200
        await terminate_lease(postgres_url)  # an operator's pg_terminate_backend, a failover, a server restart
        async with asyncio.timeout(PATIENCE):
            await bot.lease_lost.wait()
        status, body = await health(bot)
        assert (status, body["failing"]) == (503, ["lease"])
        assert body["checks"]["lease"].startswith("the lease on this process's shards is lost")


async def test_healthz_is_503_naming_a_picture_worker_that_died_until_the_next_picture_replaces_it(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    async with checked(caplog, usual_people()) as stand_in, ops_bot(stand_in, tmp_path / "games.sqlite3") as bot:
        assert bot._starting_workers is not None
        await bot._starting_workers  # every worker started once the bot was ready
        pid = drawing.PUBLIC.pids()[0]
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # the kernel's out-of-memory killer, say, while it was idle
        async with asyncio.timeout(PATIENCE):
            while (said := await health(bot))[0] == 200:  # the pool notices the death on its own thread
                await asyncio.sleep(0.01)
        status, body = said
        assert (status, body["failing"]) == (503, ["workers"])
        assert body["checks"]["workers"].startswith("worker processes ended: public pictures 0")

        assert await asyncio.wrap_future(drawing.PUBLIC.submit(0, os.getpid)) != pid
        assert await health(bot) == (200, {"status": "ok", "failing": [], "checks": WELL})


@pytest.mark.slow  # waits out a gateway reconnection: the slow group, which CI runs
async def test_healthz_is_503_naming_the_gateway_while_a_shard_is_disconnected_and_200_once_it_is_back(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    async with checked(caplog, usual_people()) as stand_in, ops_bot(stand_in, tmp_path / "games.sqlite3") as bot:
        shard = bot.get_shard(0)
        assert shard is not None
        await shard.disconnect()
        status, body = await health(bot)
        assert (status, body["failing"]) == (503, ["gateway"])
        assert body["checks"]["gateway"] == "not connected to Discord: shard 0 of 1"

        await shard.connect()
        await stand_in.wait_connected()
        assert await health(bot) == (200, {"status": "ok", "failing": [], "checks": WELL})
