"""Fixtures for every test: a throwaway PostgreSQL server and a fresh database on it (see tests/postgres.py), and the
static art kept where sandbox bots keep it, so each piece is drawn once for all test processes and runs."""

from collections.abc import Iterator

import pytest

from bot.sandbox.run import sandbox_art
from render import artstore
from tests.postgres import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]


@pytest.fixture(scope="session", autouse=True)
def art_store() -> Iterator[None]:
    """Pictures drawn in the test process find the static art in the sandbox's art store (tests/render/test_artstore.py
    checks that art from a store is the art drawn fresh)."""
    artstore.use(sandbox_art())
    yield
    artstore.use(None)
