"""Opening the database the settings name: the one place that picks the driver, so the drivers and the interface
they share never import each other."""

from __future__ import annotations

from pathlib import Path

from bot.settings import Settings
from bot.storage.database import Database, DatabaseUnusable, is_postgres_url, without_password
from bot.storage.sqlite import SqliteDatabase


async def open_database(
    target: Settings | Path | str, *, busy_timeout_ms: int = 5000, up_to: int | None = None
) -> Database:
    """Open the database the settings name (CONDUCTOR_DATABASE_URL if set, else CONDUCTOR_DATABASE_PATH), or this
    URL or file; check it and migrate it (up to `up_to`, for tests of a migration).

    Raises DatabaseUnusable (one line: what is wrong and what to do) for a file or server that cannot be used.
    """
    if isinstance(target, Settings):
        url = target.database_url
        target = url.get_secret_value() if url is not None else target.database_path
        if isinstance(target, str) and not is_postgres_url(target):
            raise DatabaseUnusable(
                without_password(target),
                f"CONDUCTOR_DATABASE_URL is {without_password(target)}, not a postgresql:// URL: fix it, or leave it"
                " empty to use the SQLite file of CONDUCTOR_DATABASE_PATH",
            )
    if isinstance(target, str) and is_postgres_url(target):
        from bot.storage.postgres import PostgresDatabase  # late: asyncpg loads only for PostgreSQL

        return await PostgresDatabase.open(target, up_to=up_to)
    return await SqliteDatabase.open(target, busy_timeout_ms=busy_timeout_ms, up_to=up_to)
