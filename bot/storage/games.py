"""Games, seats, the action log and message ids: every read and write the game service makes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any

import aiosqlite

from bot.storage.database import Database, now_iso, writer_for

ACTIVE_STATUSES = ("lobby", "active")
CLOSED_STATUSES = ("abandoned", "cancelled")
"""The statuses `close_games` may set (a game that ends by its rules is 'finished' through record_action)."""

_ONE_OPEN_PER_CHANNEL = "games.channel_id"
"""How SQLite names the column of the unique index games_one_open_per_channel when it refuses an insert."""


class StaleVersion(Exception):
    """A write expected a version the game no longer has: someone else changed it first."""


class ChannelBusy(Exception):
    """A channel already has an open game (lobby or running); `game_id` is that game."""

    def __init__(self, game_id: int, channel_id: int | None = None) -> None:
        super().__init__(f"channel {channel_id} already has the open game {game_id}")
        self.game_id = game_id
        self.channel_id = channel_id


@dataclass(frozen=True)
class SeatRecord:
    """Who sits in a seat: a Discord user, or a bot player of some kind."""

    seat: int
    name: str
    user_id: int | None = None
    bot_kind: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a bot player plays this seat."""
        return self.bot_kind is not None

    @property
    def display_name(self) -> str:
        """The name as text shows it: bot players are marked with a robot."""
        return f"🤖 {self.name}" if self.is_bot else self.name


@dataclass(frozen=True)
class GameRecord:
    """One game as stored: where it is played, its status, options, seed, version and latest snapshot."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int
    version: int
    state: str | None
    seats: tuple[SeatRecord, ...] = field(default_factory=tuple)
    shown_version: int = 0
    """The newest version the game's channel shows (set after each successful public post or edit)."""

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat this user plays, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot player sits in this seat."""
        return any(s.seat == seat and s.is_bot for s in self.seats)


class GameStore:
    """The game tables on one aiosqlite connection; each write is one transaction, committed before return.

    Writes go through `database` (the connection's one writer, `Database.of(db)` unless another is given).
    """

    def __init__(self, db: aiosqlite.Connection, database: Database | None = None) -> None:
        self._db = db
        self.database = writer_for(db, database)

    def _transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        return self.database.transaction()

    def transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """One transaction of the shared writer (`self.database.transaction()`), so writes never interleave."""
        return self.database.transaction()

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[SeatRecord],
    ) -> GameRecord:
        """Create a game in the lobby with its first seats; raise ChannelBusy when the channel has an open game."""
        now = now_iso()
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, 0, ?, ?)",
                    (game, guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
            except sqlite3.IntegrityError as error:
                if _ONE_OPEN_PER_CHANNEL not in str(error):
                    raise
                busy = await self._open_id_in_channel(db, channel_id)
                if busy is None:  # cannot happen inside the transaction that met the index; keep the real error
                    raise
                raise ChannelBusy(busy, channel_id) from error
            game_id = cursor.lastrowid
            assert game_id is not None
            await self._write_seats(db, game_id, seats)
        record = await self.get(game_id)
        assert record is not None
        return record

    async def get(self, game_id: int) -> GameRecord | None:
        """Load one game with its seats, or None."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return (await self._with_seats([row]))[0]

    async def in_channel(self, channel_id: int, statuses: Sequence[str] = ACTIVE_STATUSES) -> list[GameRecord]:
        """Return the games of a channel with one of these statuses, newest first."""
        marks = ",".join("?" * len(statuses))
        async with self._db.execute(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) ORDER BY id DESC",
            (channel_id, *statuses),
        ) as cursor:
            rows = list(await cursor.fetchall())
        return await self._with_seats(rows)

    async def with_status(self, statuses: Sequence[str] = ACTIVE_STATUSES) -> list[GameRecord]:
        """Return every game with one of these statuses, oldest first (used at start to resume games)."""
        marks = ",".join("?" * len(statuses))
        async with self._db.execute(
            f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
        ) as cursor:
            rows = list(await cursor.fetchall())
        return await self._with_seats(rows)

    async def update_lobby(self, record: GameRecord, seats: Sequence[SeatRecord]) -> GameRecord:
        """Replace a lobby's seats and bump its version."""
        async with self._transaction() as db:
            await self._bump(db, record, status="lobby")
            await db.execute("DELETE FROM seats WHERE game_id = ?", (record.id,))
            await self._write_seats(db, record.id, seats)
        return replace(record, version=record.version + 1, seats=tuple(seats))

    async def start(self, record: GameRecord, seats: Sequence[SeatRecord], state: str) -> GameRecord:
        """Move a lobby into play with its final seating and opening snapshot."""
        async with self._transaction() as db:
            await self._bump(db, record, status="active", state=state)
            await db.execute("DELETE FROM seats WHERE game_id = ?", (record.id,))
            await self._write_seats(db, record.id, seats)
        return replace(record, status="active", version=record.version + 1, state=state, seats=tuple(seats))

    async def record_action(
        self, record: GameRecord, seat: int, action: str, state: str, *, finished: bool
    ) -> GameRecord:
        """Append an accepted action and the new snapshot in one transaction (the version must not have moved)."""
        status = "finished" if finished else record.status
        async with self._transaction() as db:
            await self._bump(db, record, status=status, state=state)
            seq = await self._next_seq(db, record.id)
            await db.execute(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (record.id, seq, seat, action, now_iso()),
            )
        return replace(record, status=status, version=record.version + 1, state=state)

    async def replace_seat(self, record: GameRecord, seat: SeatRecord) -> GameRecord:
        """Put someone else (usually a bot player) in a seat of a running game."""
        async with self._transaction() as db:
            await self._bump(db, record, status=record.status)
            await db.execute(
                "UPDATE seats SET user_id = ?, bot_kind = ?, name = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.bot_kind, seat.name, record.id, seat.seat),
            )
        seats = tuple(seat if s.seat == seat.seat else s for s in record.seats)
        return replace(record, version=record.version + 1, seats=seats)

    async def set_status(self, record: GameRecord, status: str) -> GameRecord:
        """Close or cancel a game."""
        async with self._transaction() as db:
            await self._bump(db, record, status=status)
        return replace(record, status=status, version=record.version + 1)

    async def set_host(self, record: GameRecord, host_id: int) -> GameRecord:
        """Pass the host role to another person (the version must not have moved; it bumps)."""
        async with self._transaction() as db:
            await self._bump(db, record, status=record.status)
            await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (host_id, record.id))
        return replace(record, host_id=host_id, version=record.version + 1)

    async def close_games(self, game_ids: Sequence[int], status: str) -> list[GameRecord]:
        """Close several open games ('abandoned' or 'cancelled') in one transaction, bumping each version.

        Games no longer open (or unknown) are skipped. Return the records closed, in id order.
        """
        if status not in CLOSED_STATUSES:
            raise ValueError(f"close_games sets one of {CLOSED_STATUSES}, not {status!r}")
        ids = sorted(set(game_ids))
        if not ids:
            return []
        marks, open_marks = ",".join("?" * len(ids)), ",".join("?" * len(ACTIVE_STATUSES))
        async with self._transaction() as db:
            async with db.execute(
                f"SELECT id FROM games WHERE id IN ({marks}) AND status IN ({open_marks})", (*ids, *ACTIVE_STATUSES)
            ) as cursor:
                closing = [row["id"] async for row in cursor]
            if not closing:
                return []
            closing_marks = ",".join("?" * len(closing))
            await db.execute(
                f"UPDATE games SET status = ?, version = version + 1, updated_at = ? WHERE id IN ({closing_marks})",
                (status, now_iso(), *closing),
            )
            records = await self._select(f"SELECT * FROM games WHERE id IN ({closing_marks}) ORDER BY id", closing)
        return records

    async def mark_shown(self, game_id: int, version: int) -> None:
        """Record that the game's channel now shows `version` (never lowers what was recorded)."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET shown_version = MAX(shown_version, ?) WHERE id = ?", (version, game_id))

    async def unshown(self) -> list[GameRecord]:
        """Return the running or finished games whose channel shows an older version than stored, oldest first."""
        return await self._select(
            "SELECT * FROM games WHERE shown_version < version AND status IN ('active', 'finished') ORDER BY id"
        )

    async def open_in_place(self, channel_id: int) -> list[GameRecord]:
        """Return the open games played in this channel (or thread), or in threads opened from it, oldest first."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        return await self._select(
            f"SELECT * FROM games WHERE status IN ({marks}) AND (channel_id = ?"
            " OR id IN (SELECT game_id FROM game_threads WHERE parent_id = ?)) ORDER BY id",
            (*ACTIVE_STATUSES, channel_id, channel_id),
        )

    async def open_in_guild(self, guild_id: int) -> list[GameRecord]:
        """Return the open games of a server, oldest first."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        return await self._select(
            f"SELECT * FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id", (guild_id, *ACTIVE_STATUSES)
        )

    async def count_open(
        self,
        *,
        guild_id: int | None = None,
        host_id: int | None = None,
        user_id: int | None = None,
        status: str | None = None,
    ) -> int:
        """Count the open games (lobby or active; only `status` if given) in a server, hosted by a person, and/or
        with a person in a seat; the filters given combine with AND."""
        statuses: Sequence[str] = ACTIVE_STATUSES
        if status is not None:
            if status not in ACTIVE_STATUSES:
                raise ValueError(f"count_open counts open games: status is one of {ACTIVE_STATUSES}, not {status!r}")
            statuses = (status,)
        where = [f"g.status IN ({','.join('?' * len(statuses))})"]
        params: list[Any] = list(statuses)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if host_id is not None:
            where.append("g.host_id = ?")
            params.append(host_id)
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            params.append(user_id)
        async with self._db.execute(f"SELECT COUNT(*) FROM games g WHERE {' AND '.join(where)}", params) as cursor:
            row = await cursor.fetchone()
        return 0 if row is None else int(row[0])

    async def idle_lobbies(self, older_than: str) -> list[GameRecord]:
        """Return the lobbies last changed before `older_than` (ISO text, as `now_iso()` writes), idlest first."""
        return await self._select(
            "SELECT * FROM games WHERE status = 'lobby' AND updated_at < ? ORDER BY updated_at, id", (older_than,)
        )

    async def actions(self, game_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        """Return the action log of a game as (seat, encoded action), in order (the first `upto` only, if given)."""
        async with self._db.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? AND seq <= ? ORDER BY seq",
            (game_id, upto if upto is not None else 2**62),
        ) as cursor:
            return [(row["seat"], row["action"]) async for row in cursor]

    async def action_counts(self, game_id: int | None = None) -> dict[int, int]:
        """Game id → how many actions its log holds (of one game, or of every game that has any)."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        async with self._db.execute(
            f"SELECT game_id, MAX(seq) AS n FROM actions {where} GROUP BY game_id", params
        ) as cursor:
            return {row["game_id"]: row["n"] async for row in cursor}

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember which message is a game's lobby or current turn message."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """Return (channel id, message id) of a game's message of this kind, or None."""
        async with self._db.execute(
            "SELECT channel_id, message_id FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (row["channel_id"], row["message_id"])

    async def _bump(
        self, db: aiosqlite.Connection, record: GameRecord, *, status: str, state: str | None = None
    ) -> None:
        """Advance the version if it is still the one the caller read, else raise StaleVersion."""
        cursor = await db.execute(
            "UPDATE games SET version = version + 1, status = ?, state = COALESCE(?, state), updated_at = ?"
            " WHERE id = ? AND version = ?",
            (status, state, now_iso(), record.id, record.version),
        )
        if cursor.rowcount != 1:
            raise StaleVersion(f"game {record.id} is no longer at version {record.version}")

    @staticmethod
    async def _next_seq(db: aiosqlite.Connection, game_id: int) -> int:
        async with db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)) as c:
            row = await c.fetchone()
        assert row is not None
        return int(row[0])

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRecord]) -> None:
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, bot_kind, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.bot_kind, s.name) for s in seats],
        )

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[GameRecord]:
        """Run a SELECT of whole game rows and return them as records with their seats."""
        async with self._db.execute(sql, tuple(params)) as cursor:
            rows = list(await cursor.fetchall())
        return await self._with_seats(rows)

    @staticmethod
    async def _open_id_in_channel(db: aiosqlite.Connection, channel_id: int) -> int | None:
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        async with db.execute(
            f"SELECT id FROM games WHERE channel_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
            (channel_id, *ACTIVE_STATUSES),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row["id"])

    async def _with_seats(self, rows: Sequence[aiosqlite.Row]) -> list[GameRecord]:
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        marks = ",".join("?" * len(ids))
        seats: dict[int, list[SeatRecord]] = {game_id: [] for game_id in ids}
        async with self._db.execute(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY seat", ids) as cursor:
            async for s in cursor:
                seats[s["game_id"]].append(
                    SeatRecord(seat=s["seat"], name=s["name"], user_id=s["user_id"], bot_kind=s["bot_kind"])
                )
        return [
            GameRecord(
                id=row["id"],
                game=row["game"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                host_id=row["host_id"],
                status=row["status"],
                options=json.loads(row["options"]),
                seed=row["seed"],
                version=row["version"],
                state=row["state"],
                seats=tuple(seats[row["id"]]),
                shown_version=row["shown_version"],
            )
            for row in rows
        ]
