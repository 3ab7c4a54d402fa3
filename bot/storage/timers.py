"""Turn timers, missed turns and each game's timer policy: what the timer service keeps across restarts."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from bot.storage.database import Database, Row, Statement

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
    """The timer tables on one `Database`; the `*_statements` methods return writes for a caller's transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def set_policy(self, game_id: int, policy: dict[str, Any]) -> None:
        """Fix the timer policy of a game (done once, when it opens)."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO game_policies (game_id, data) VALUES (?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET data = excluded.data",
                    (game_id, json.dumps(policy, sort_keys=True)),
                )
            ]
        )

    async def policy(self, game_id: int) -> dict[str, Any] | None:
        """Return the policy fixed for a game, or None for a game opened before policies existed."""
        data = await self.database.fetchval("SELECT data FROM game_policies WHERE game_id = ?", (game_id,))
        return None if data is None else dict(json.loads(data))

    async def timers(self, game_id: int) -> dict[int, TurnTimer]:
        """Return the running timers of a game by seat."""
        rows = await self.database.fetch("SELECT * FROM turn_timers WHERE game_id = ?", (game_id,))
        return {row["seat"]: _timer(row) for row in rows}

    async def all_timers(self) -> list[TurnTimer]:
        """Return every running timer of every game, by game and seat (read once at start)."""
        rows = await self.database.fetch("SELECT * FROM turn_timers ORDER BY game_id, seat")
        return [_timer(row) for row in rows]

    def change_statements(
        self, game_id: int, drop: Iterable[int] = (), put: Iterable[TurnTimer] = ()
    ) -> list[Statement]:
        """The statements deleting the timers of `drop` seats and writing the `put` ones (none for no change)."""
        dropped = [(game_id, seat) for seat in drop]
        written = [(t.game_id, t.seat, t.stage, float(t.started_at), float(t.due_at)) for t in put]
        statements = []
        if dropped:
            statements.append(Statement("DELETE FROM turn_timers WHERE game_id = ? AND seat = ?", dropped, many=True))
        if written:
            statements.append(
                Statement(
                    "INSERT INTO turn_timers (game_id, seat, stage, started_at, due_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET stage = excluded.stage,"
                    " started_at = excluded.started_at, due_at = excluded.due_at",
                    written,
                    many=True,
                )
            )
        return statements

    async def change(self, game_id: int, *, drop: Iterable[int] = (), put: Iterable[TurnTimer] = ()) -> None:
        """Delete the timers of `drop` seats and write `put` ones, in one transaction (none when nothing changes)."""
        await self.database.write(self.change_statements(game_id, drop, put))

    def clear_statements(self, game_id: int) -> list[Statement]:
        """The statements forgetting every timer and missed turn of a game (it ended)."""
        return [
            Statement("DELETE FROM turn_timers WHERE game_id = ?", (game_id,)),
            Statement("DELETE FROM missed_turns WHERE game_id = ?", (game_id,)),
        ]

    async def clear(self, game_id: int) -> None:
        """Forget every timer and missed turn of a game (it ended)."""
        await self.database.write(self.clear_statements(game_id))

    async def missed(self, game_id: int, seat: int) -> int:
        """Return how many turns in a row this seat has let time out."""
        missed = await self.database.fetchval(
            "SELECT missed FROM missed_turns WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return 0 if missed is None else int(missed)

    async def all_missed(self) -> dict[tuple[int, int], int]:
        """Return (game id, seat) → turns in a row let time out, for every seat that has any (read once at start)."""
        rows = await self.database.fetch("SELECT game_id, seat, missed FROM missed_turns")
        return {(row["game_id"], row["seat"]): int(row["missed"]) for row in rows}

    def missed_statements(self, game_id: int, seat: int, missed: int) -> list[Statement]:
        """The statements recording a seat's count of missed turns in a row (0 forgets it)."""
        if missed == 0:
            return [Statement("DELETE FROM missed_turns WHERE game_id = ? AND seat = ?", (game_id, seat))]
        return [
            Statement(
                "INSERT INTO missed_turns (game_id, seat, missed) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET missed = excluded.missed",
                (game_id, seat, missed),
            )
        ]

    async def set_missed(self, game_id: int, seat: int, missed: int) -> None:
        """Record a seat's count of missed turns in a row (0 forgets it)."""
        await self.database.write(self.missed_statements(game_id, seat, missed))


def _timer(row: Row) -> TurnTimer:
    return TurnTimer(
        game_id=row["game_id"],
        seat=row["seat"],
        stage=row["stage"],
        started_at=float(row["started_at"]),
        due_at=float(row["due_at"]),
    )
