"""A move is one write: its action, snapshot, version, the turn timers and what the channel was seen to show, in one
transaction, with nothing read from the database (issue 14, item 3); on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.guild_config import TimerPolicy
from bot.storage.database import Database
from bot.storage.opening import open_database
from tests.bot.services.test_timers import ANN, BEN, make_table, start_game, to_act, user_to_act

POLICY = TimerPolicy(reminder_minutes=10, timeout_minutes=60)


@pytest.fixture(params=("sqlite", "postgresql"))
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A fresh SQLite file, or a fresh PostgreSQL database's URL."""
    return tmp_path / "games.sqlite3" if request.param == "sqlite" else str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def database(target: Path | str) -> AsyncIterator[Database]:
    """A migrated database on each backend, closed after the test."""
    opened = await open_database(target)
    try:
        yield opened
    finally:
        await opened.close()


def _kind(statement: str) -> str:
    """What a traced statement does, in a word or two (`begin`, `insert actions`, `update games` …)."""
    words = statement.strip().rstrip(";").split()
    verb = words[0].lower()
    if verb in ("insert", "delete"):
        return f"{verb} {words[2]}"
    if verb == "update":
        return f"{verb} {words[1]}"
    return verb


async def test_a_move_is_one_transaction_with_its_timers_and_what_the_channel_shows(database: Database) -> None:
    table = make_table(database)
    record = await start_game(table, POLICY, people=(ANN, BEN))
    table.service.shown.mark_shown(record.id, record.version)  # the opening was shown: written with the next move
    mover = user_to_act(record, to_act(table, record.id))
    engine = table.service.games.engine(record.game)
    seat = record.seat_of(mover)
    assert seat is not None
    action = engine.bot_action(table.service.games.state(record.id), seat, random.Random(1))

    traced: list[str] = []
    stop = database.trace(traced.append)
    try:
        outcome = await table.service.moves.act(record.id, mover, action)
    finally:
        stop()

    kinds = [_kind(statement) for statement in traced]
    assert kinds.count("begin") == 1 and kinds.count("commit") == 1, traced
    assert not any(kind in ("select", "with") for kind in kinds), f"a move reads nothing: {traced}"
    inner = kinds[kinds.index("begin") + 1 : kinds.index("commit")]
    assert inner[:2] == ["update games", "insert actions"], inner  # the version-guarded snapshot, then the log
    assert "insert turn_timers" in inner, "the next player's timer is stored with the move"
    assert inner.count("update games") == 2, "what the channel showed is stored with the move"
    stored = await table.service.games.store.get(record.id)
    assert stored is not None and stored.version == outcome.record.version
    assert stored.shown_version == record.version
    assert set(await table.timers.store.timers(record.id)) == to_act(table, record.id)
    await table.service.close()


async def test_what_the_channel_shows_is_stored_soon_without_a_move_and_at_close(database: Database) -> None:
    table = make_table(database)
    first = await start_game(table, POLICY, people=(ANN, BEN), channel=2)
    second = await start_game(table, POLICY, people=(ANN, BEN), channel=3)
    table.service.shown.mark_shown(first.id, first.version)
    table.service.shown.remember_message(first.id, "turn", first.channel_id, 777)
    assert await table.service.shown.message(first.id, "turn") == (first.channel_id, 777), "known before it is written"
    assert await table.service.shown.flush(), "the background flush does this within FLUSH_DELAY"
    stored = await table.service.games.store.get(first.id)
    assert stored is not None and stored.shown_version == first.version
    assert await table.service.games.store.get_message(first.id, "turn") == (first.channel_id, 777)

    table.service.shown.mark_shown(second.id, second.version)
    await table.service.close()
    stored = await table.service.games.store.get(second.id)
    assert stored is not None and stored.shown_version == second.version


async def test_a_crash_before_what_is_shown_was_stored_makes_the_channel_show_the_game_again(
    database: Database,
) -> None:
    before = make_table(database)
    before.service.shown.flush_delay = 3600.0  # the process dies before its write behind
    record = await start_game(before, POLICY, people=(ANN, BEN))
    before.service.shown.mark_shown(record.id, record.version)
    after = make_table(database)
    await after.service.games.resume_all()
    assert [r.id for r in await after.service.games.store.unshown()] == [record.id], "shown once more, never missed"
    await before.service.close()
