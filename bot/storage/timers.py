"""Turn timers, missed turns and each game's timer policy: what the timer service keeps across restarts."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import aiosqlite

from bot.storage.database import Database, writer_for
from bot.storage.games import GameStore

Stage = Literal["reminder", "timeout", "paused"]


@dataclass(frozen=True)
class TurnTimer:
    """A wait on one seat: the stage that fires next and when (seconds since the epoch, the bot's clock)."""

    game_id: int
    seat: int
    stage: Stage
    started_at: float
    due_at: float


class TimerStore:
    """The timer tables; writes go through the one writer of the connection (the game store's, unless given)."""

    def __init__(self, db: aiosqlite.Connection, games: GameStore, database: Database | None = None) -> None:
        self._db = db
        self._games = games
        self.database = writer_for(db, games.database if database is None else database)

    async def set_policy(self, game_id: int, policy: dict[str, Any]) -> None:
        """Fix the timer policy of a game (done once, when it opens)."""
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO game_policies (game_id, data) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET data = excluded.data",
                (game_id, json.dumps(policy, sort_keys=True)),
            )

    async def policy(self, game_id: int) -> dict[str, Any] | None:
        """Return the policy fixed for a game, or None for a game opened before policies existed."""
        async with self._db.execute("SELECT data FROM game_policies WHERE game_id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else dict(json.loads(row["data"]))

    async def timers(self, game_id: int) -> dict[int, TurnTimer]:
        """Return the running timers of a game by seat."""
        async with self._db.execute("SELECT * FROM turn_timers WHERE game_id = ?", (game_id,)) as cursor:
            return {row["seat"]: _timer(row) async for row in cursor}

    async def timer(self, game_id: int, seat: int) -> TurnTimer | None:
        """Return one seat's timer, or None."""
        async with self._db.execute(
            "SELECT * FROM turn_timers WHERE game_id = ? AND seat = ?", (game_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _timer(row)

    async def due(self, now: float) -> list[TurnTimer]:
        """Return every timer due at `now`, the earliest first."""
        async with self._db.execute(
            "SELECT * FROM turn_timers WHERE due_at <= ? ORDER BY due_at, game_id, seat", (now,)
        ) as cursor:
            return [_timer(row) async for row in cursor]

    async def next_due(self) -> float | None:
        """Return when the earliest timer fires, or None when none runs."""
        async with self._db.execute("SELECT MIN(due_at) FROM turn_timers") as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def change(self, game_id: int, *, drop: Iterable[int] = (), put: Iterable[TurnTimer] = ()) -> None:
        """Delete the timers of `drop` seats and write `put` ones, in one transaction."""
        async with self.database.transaction() as db:
            await db.executemany(
                "DELETE FROM turn_timers WHERE game_id = ? AND seat = ?", [(game_id, seat) for seat in drop]
            )
            await db.executemany(
                "INSERT INTO turn_timers (game_id, seat, stage, started_at, due_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET stage = excluded.stage,"
                " started_at = excluded.started_at, due_at = excluded.due_at",
                [(t.game_id, t.seat, t.stage, t.started_at, t.due_at) for t in put],
            )

    async def clear(self, game_id: int) -> None:
        """Forget every timer and missed turn of a game (it ended)."""
        async with self.database.transaction() as db:
            await db.execute("DELETE FROM turn_timers WHERE game_id = ?", (game_id,))
            await db.execute("DELETE FROM missed_turns WHERE game_id = ?", (game_id,))

    async def missed(self, game_id: int, seat: int) -> int:
        """Return how many turns in a row this seat has let time out."""
        async with self._db.execute(
            "SELECT missed FROM missed_turns WHERE game_id = ? AND seat = ?", (game_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return 0 if row is None else int(row["missed"])

    async def set_missed(self, game_id: int, seat: int, missed: int) -> None:
        """Record a seat's count of missed turns in a row (0 forgets it)."""
        async with self.database.transaction() as db:
            if missed == 0:
                await db.execute("DELETE FROM missed_turns WHERE game_id = ? AND seat = ?", (game_id, seat))
            else:
                await db.execute(
                    "INSERT INTO missed_turns (game_id, seat, missed) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET missed = excluded.missed",
                    (game_id, seat, missed),
                )


def _timer(row: aiosqlite.Row) -> TurnTimer:
    return TurnTimer(
        game_id=row["game_id"],
        seat=row["seat"],
        stage=row["stage"],
        started_at=float(row["started_at"]),
        due_at=float(row["due_at"]),
    )
