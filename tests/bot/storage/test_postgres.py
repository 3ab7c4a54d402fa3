"""The PostgreSQL backend's own behaviour on a real server: migrating once when processes start together, refusing a
newer or foreign database, and one line an operator can act on (never the password) when the server cannot be used."""

from __future__ import annotations

import asyncio
import logging

import asyncpg  # type: ignore[import-untyped]
import pytest
from pydantic import SecretStr

from bot import __main__ as entry
from bot.settings import Settings
from bot.storage.database import DatabaseUnusable, Statement, latest_version, without_password
from bot.storage.opening import open_database
from bot.storage.postgres import PostgresDatabase, numbered
from tests.postgres import PostgresServer

PASSWORD = "s3cret-pa55"


def refusal(error: pytest.ExceptionInfo[DatabaseUnusable], *words: str) -> str:
    """Check the message is one line, names CONDUCTOR_DATABASE_URL, holds these words and no password; return it."""
    message = str(error.value)
    assert "\n" not in message and "\r" not in message
    assert "CONDUCTOR_DATABASE_URL" in message
    assert PASSWORD not in message and PASSWORD not in error.value.path
    for word in words:
        assert word in message, message
    return message


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    sql = "SELECT '?', \"a?\" FROM t -- what?\nWHERE a = ? AND b IN (?, ?) /* ? */ AND c = 'it''s ?'"
    assert numbered(sql) == (
        "SELECT '?', \"a?\" FROM t -- what?\nWHERE a = $1 AND b IN ($2, $3) /* ? */ AND c = 'it''s ?'"
    )
    assert numbered(sql) is numbered(sql)  # translated once per text


def test_a_url_is_shown_without_its_password() -> None:
    assert without_password(f"postgresql://bot:{PASSWORD}@db:5432/games") == "postgresql://bot:***@db:5432/games"
    assert without_password(f"postgres:///games?host=/run&password={PASSWORD}") == (
        "postgres:///games?host=/run&password=***"
    )
    assert without_password("postgresql://bot@db/games") == "postgresql://bot@db/games"


async def test_the_settings_url_chooses_postgresql(postgres_url: str) -> None:
    database = await open_database(Settings(database_url=SecretStr(postgres_url), database_path="unused.sqlite3"))
    try:
        assert isinstance(database, PostgresDatabase) and database.dialect == "postgresql"
        assert await database.schema_version() == latest_version("postgresql")
    finally:
        await database.close()


async def test_a_settings_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(Settings(database_url=SecretStr(f"mysql://bot:{PASSWORD}@db/games")))
    refusal(error, "not a postgresql:// URL")


async def test_two_processes_starting_at_once_migrate_once(postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage.postgres")
    first, second = await asyncio.gather(open_database(postgres_url), open_database(postgres_url))
    try:
        applied = [r.getMessage() for r in caplog.records if r.getMessage().startswith("applied migration")]
        assert len(applied) == latest_version("postgresql")
        rows = await first.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [row["version"] for row in rows] == list(range(1, latest_version("postgresql") + 1))
        assert await second.migrate() == []  # and again later: nothing
    finally:
        await first.close()
        await second.close()


async def test_a_database_of_a_newer_conductor_is_refused_untouched(postgres_url: str) -> None:
    database = await open_database(postgres_url)
    newer = latest_version("postgresql") + 7
    await database.write(
        [Statement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'later')", (newer,))]
    )
    await database.close()
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(postgres_url)
    refusal(error, f"schema version {newer}", f"version {latest_version('postgresql')}", "upgrade Conductor")
    connection = await asyncpg.connect(postgres_url)
    try:
        rows = await connection.fetch("SELECT version FROM schema_migrations ORDER BY version")
    finally:
        await connection.close()
    assert [row["version"] for row in rows] == [*range(1, latest_version("postgresql") + 1), newer]


async def test_a_database_of_another_program_is_refused(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("CREATE TABLE recipes (name TEXT)")
    finally:
        await connection.close()
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(postgres_url)
    refusal(error, "another program")


async def test_a_database_that_does_not_exist_is_refused(postgres_server: PostgresServer) -> None:
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(postgres_server.url("no_such_database"))
    refusal(error, "does not exist")


async def test_an_unreachable_server_is_refused_without_its_password() -> None:
    url = f"postgresql://conductor:{PASSWORD}@/games?host=/nonexistent-conductor-socket&port=5432"
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(url)
    message = refusal(error, "cannot reach the PostgreSQL server", "conductor:***@")
    assert error.value.path in message


async def test_a_malformed_url_is_refused_without_its_password() -> None:
    with pytest.raises(DatabaseUnusable) as error:
        await open_database(f"postgresql://conductor:{PASSWORD}@localhost:port/games")
    refusal(error)


def test_the_command_line_says_the_server_cannot_be_reached_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CONDUCTOR_DISCORD_TOKEN", "token")
    monkeypatch.setenv(
        "CONDUCTOR_DATABASE_URL", f"postgresql://conductor:{PASSWORD}@/games?host=/nonexistent-conductor-socket"
    )
    assert entry.main([]) == 2  # before any attempt to reach Discord
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the PostgreSQL server" in err
    assert PASSWORD not in err and "Traceback" not in err
