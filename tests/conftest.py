"""Fixtures for every test: a throwaway PostgreSQL server and a fresh database on it (see tests/postgres.py), and the
static art kept where sandbox bots keep it, so each piece is drawn once for all test processes and runs; the `slow`
group (minutes of seeded searches, whole bot processes), run with `--slow` as CI does."""

from collections.abc import Iterator

import pytest

from bot.sandbox.run import sandbox_art
from bot.workers import usable_cores
from render import artstore
from tests.postgres import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--slow`: run the tests marked slow too (CI does)."""
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (CI runs them)")


def pytest_configure(config: pytest.Config) -> None:
    """Register the slow marker."""
    config.addinivalue_line("markers", "slow: seeded searches or whole bot processes, run with --slow (CI does)")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a test process per core and one more, as the end-to-end tests spend much of their time waiting on
    the bot (measured on 2 cores: 4 min 42 s with three processes, 6 min 19 s with two)."""
    return usable_cores() + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the slow group first (with `--maxschedchunk` small, the test processes take tests one pair at a time, so the
    longest start first and none is left running alone at the end), or skip it unless `--slow` asks for it."""
    if config.getoption("--slow"):
        items.sort(key=lambda item: "slow" not in item.keywords)
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def art_store() -> Iterator[None]:
    """Pictures drawn in the test process find the static art in the sandbox's art store (tests/render/test_artstore.py
    checks that art from a store is the art drawn fresh)."""
    artstore.use(sandbox_art())
    yield
    artstore.use(None)
