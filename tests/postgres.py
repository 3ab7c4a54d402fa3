"""A throwaway PostgreSQL 15 for the tests: one server per session in a temporary folder, reached only through a
Unix socket, and a fresh database for each test that asks for one.

Where PostgreSQL is not installed the tests that need it skip, saying how to install it; with
CONDUCTOR_REQUIRE_POSTGRES=1 (CI) they fail instead. The server refuses to run as root, so under root it runs as
the `postgres` user on folders that user owns.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

BIN = Path("/usr/lib/postgresql/15/bin")
REQUIRE = "CONDUCTOR_REQUIRE_POSTGRES"
START_TIMEOUT = 60.0
_PR_SET_PDEATHSIG = 1
_names = itertools.count(1)


@dataclass(frozen=True)
class PostgresServer:
    """A running throwaway server: its Unix socket folder and superuser."""

    socket_dir: Path
    port: int = 5432
    user: str = "postgres"

    def url(self, database: str) -> str:
        """The URL of one of its databases, through the Unix socket."""
        return f"postgresql://{self.user}@/{database}?host={self.socket_dir}&port={self.port}"

    async def create_database(self) -> str:
        """Create an empty database (from template0) and return its name."""
        name = f"test_{os.getpid()}_{next(_names)}"
        await self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0 STRATEGY FILE_COPY')
        return name

    async def drop_database(self, name: str) -> None:
        """Drop a database, closing whatever is still connected to it."""
        await self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    async def _admin(self, sql: str) -> None:
        connection = await asyncpg.connect(self.url("postgres"))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()


def missing_postgres() -> None:
    """Skip the test (or fail it where CONDUCTOR_REQUIRE_POSTGRES=1) because PostgreSQL 15 is not installed."""
    message = (
        f"PostgreSQL 15 is not installed (no {BIN / 'postgres'}): `apt install postgresql-15` to run the PostgreSQL"
        " tests"
    )
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{message} ({REQUIRE}=1: they must run here)", pytrace=False)
    pytest.skip(message)


def installed() -> bool:
    """Whether PostgreSQL 15's server is installed where Debian puts it."""
    return (BIN / "postgres").exists()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """Start PostgreSQL 15 once for the session in a temporary folder; stop it and delete the folder at the end."""
    if not installed():
        missing_postgres()
    with throwaway_server() as server:
        yield server


@contextmanager
def throwaway_server() -> Iterator[PostgresServer]:
    """Run PostgreSQL 15 in a new temporary folder for the body (benches use it too); stop it and delete it after."""
    folder = Path(tempfile.mkdtemp(prefix="conductor-postgres-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        as_user = _server_user()
        if as_user:
            account = pwd.getpwnam(as_user["user"])
            os.chown(folder, account.pw_uid, account.pw_gid)
        data, log = folder / "data", folder / "server.log"
        subprocess.run(
            [BIN / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "--no-locale", "-E", "UTF8"],
            check=True,
            capture_output=True,
            **as_user,
        )
        with log.open("wb") as output:
            process = subprocess.Popen(
                [
                    BIN / "postgres",
                    *("-D", data, "-k", folder, "-p", "5432"),
                    *("-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off"),
                    *("-c", "full_page_writes=off", "-c", "max_connections=200"),
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
                **as_user,
            )
        server = PostgresServer(socket_dir=folder)
        _wait_until_ready(server, process, log)
        yield server
    finally:
        if process is not None:
            process.send_signal(signal.SIGINT)  # fast shutdown: disconnect clients, stop
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a fresh, empty database on the session's server, dropped after the test."""
    name = await postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        await postgres_server.drop_database(name)


def _server_user() -> dict[str, Any]:
    """Popen's arguments that run initdb and postgres as `postgres` when we are root (they refuse root)."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": pwd.getpwnam("postgres").pw_gid, "extra_groups": []}


def _die_with_parent() -> None:
    """Have the kernel stop the server (SIGQUIT, immediate shutdown) if the test run dies without tearing down."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT)


def _wait_until_ready(server: PostgresServer, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll pg_isready until the server accepts connections; fail with its log if it stops or takes too long."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"PostgreSQL stopped at start:\n{log.read_text(errors='replace')[-3000:]}")
        ready = subprocess.run([BIN / "pg_isready", "-q", "-h", server.socket_dir, "-p", str(server.port)], check=False)
        if ready.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"PostgreSQL not ready after {START_TIMEOUT} s:\n{log.read_text(errors='replace')[-3000:]}"
            )
        time.sleep(0.05)
