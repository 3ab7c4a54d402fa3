"""Games, seats, the action log and message ids: every read and write the game service makes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.shards import ShardSet
from bot.storage.database import Database, Reader, Row, RowsNotChanged, Statement, Transaction, now_iso

ACTIVE_STATUSES = ("lobby", "active")
SEEN_FROM = "COALESCE((SELECT t.parent_id FROM game_threads t WHERE t.game_id = g.id), g.channel_id)"
"""SQL for the channel a game `g` is seen from (who may view it may view the game): where it was played, or for a
game in a thread the bot opened, the thread's channel (a public thread shows to whoever views its channel)."""
CLOSED_STATUSES = ("abandoned", "cancelled")
"""The statuses `close_games` may set (a game that ends by its rules is 'finished' through record_action)."""


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
    hints: int = 0
    """How many hints (/hint) were given to whoever played this seat."""
    left_user_id: int | None = None
    """The person a bot player took this seat over from (they left, or timed out for good): rated as last."""

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


@dataclass(frozen=True)
class DatedGame:
    """A game as listed (/games, /history): its record, when it was opened and when it last changed (ISO text)."""

    record: GameRecord
    created_at: str
    updated_at: str


class GameStore:
    """The game tables on one `Database`; each write is one transaction, committed before return, and each write of
    a game's moves, seats or status carries this process's lease on its shards (`Database.fence`).

    Writes that are a known list of statements are one `Database.write()` (one hand-off to the database); the
    `*_statement` methods return such statements for a caller that writes them together with others.
    """

    def __init__(self, database: Database) -> None:
        self.database = database

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One transaction of the shared database (`self.database.transaction()`), so writes never interleave."""
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
        now, options_json = now_iso(), json.dumps(options)
        async with self.database.transaction() as transaction:
            while True:
                # The unique index games_one_open_per_channel refuses a second open game; DO NOTHING keeps the
                # transaction usable (PostgreSQL aborts one whose statement failed) to look up the game holding it.
                game_id = await transaction.fetchval(
                    "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, 0, ?, ?)"
                    " ON CONFLICT DO NOTHING RETURNING id",
                    (game, guild_id, channel_id, host_id, options_json, seed, now, now),
                )
                if game_id is not None:
                    break
                busy = await transaction.fetchval(
                    f"SELECT id FROM games WHERE channel_id = ? AND status IN ({_OPEN}) ORDER BY id DESC LIMIT 1",
                    (channel_id, *ACTIVE_STATUSES),
                )
                if busy is not None:  # else that game closed between the two statements (PostgreSQL): try again
                    raise ChannelBusy(int(busy), channel_id)
            if seats:
                seats_statement = self._seats_statement(game_id, seats)
                await transaction.executemany(seats_statement.sql, seats_statement.params)
        return GameRecord(
            id=int(game_id),
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            options=json.loads(options_json),
            seed=seed,
            version=0,
            state=None,
            seats=tuple(seats),
        )

    async def get(self, game_id: int) -> GameRecord | None:
        """Load one game with its seats, or None."""
        records = await self._select("SELECT * FROM games WHERE id = ?", (game_id,))
        return records[0] if records else None

    async def in_channel(self, channel_id: int, statuses: Sequence[str] = ACTIVE_STATUSES) -> list[GameRecord]:
        """Return the games of a channel with one of these statuses, newest first."""
        return await self._select(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({_marks(statuses)}) ORDER BY id DESC",
            (channel_id, *statuses),
        )

    async def with_status(self, statuses: Sequence[str] = ACTIVE_STATUSES) -> list[GameRecord]:
        """Return every game with one of these statuses, oldest first (used at start to resume games)."""
        return await self._select(f"SELECT * FROM games WHERE status IN ({_marks(statuses)}) ORDER BY id", statuses)

    async def update_lobby(self, record: GameRecord, seats: Sequence[SeatRecord]) -> GameRecord:
        """Replace a lobby's seats and bump its version."""
        await self._write_versioned(
            record,
            [
                self._bump(record, status="lobby"),
                Statement("DELETE FROM seats WHERE game_id = ?", (record.id,)),
                self._seats_statement(record.id, seats),
            ],
        )
        return replace(record, version=record.version + 1, seats=tuple(seats))

    async def start(
        self, record: GameRecord, seats: Sequence[SeatRecord], state: str, *, thread_id: int | None = None
    ) -> GameRecord:
        """Move a lobby into play with its final seating and opening snapshot; with `thread_id`, to be played in
        that thread of the lobby's channel (kept as the game's thread, so it is archived at the end)."""
        moved = []
        if thread_id is not None:
            moved = [
                Statement("UPDATE games SET channel_id = ? WHERE id = ?", (thread_id, record.id)),
                Statement(
                    "INSERT INTO game_threads (game_id, thread_id, parent_id) VALUES (?, ?, ?)",
                    (record.id, thread_id, record.channel_id),
                ),
            ]
        await self._write_versioned(
            record,
            [
                self._bump(record, status="active", state=state),
                Statement("DELETE FROM seats WHERE game_id = ?", (record.id,)),
                self._seats_statement(record.id, seats),
                *moved,
            ],
        )
        channel_id = record.channel_id if thread_id is None else thread_id
        return replace(
            record, status="active", channel_id=channel_id, version=record.version + 1, state=state, seats=tuple(seats)
        )

    async def record_action(
        self,
        record: GameRecord,
        seat: int,
        action: str,
        state: str,
        *,
        finished: bool,
        seq: int | None = None,
        also: Sequence[Statement] = (),
    ) -> GameRecord:
        """Append an accepted action and the new snapshot, and write `also` (a move's timers, message ids …), in one
        transaction and one hand-off; the version must not have moved (else StaleVersion, nothing written).

        `seq` is the action's number in the log when the caller knows it (1 for the first); else the database
        counts it.
        """
        status = "finished" if finished else record.status
        if seq is None:
            action_row = Statement(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES"
                " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?)",
                (record.id, record.id, seat, action, now_iso()),
            )
        else:
            action_row = Statement(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (record.id, seq, seat, action, now_iso()),
            )
        await self._write_versioned(record, [self._bump(record, status=status, state=state), action_row, *also])
        return replace(record, status=status, version=record.version + 1, state=state)

    async def replace_seat(self, record: GameRecord, seat: SeatRecord) -> GameRecord:
        """Put someone else (usually a bot player) in a seat of a running game."""
        await self._write_versioned(
            record,
            [
                self._bump(record, status=record.status),
                Statement(
                    "UPDATE seats SET user_id = ?, bot_kind = ?, name = ?, left_user_id = ?"
                    " WHERE game_id = ? AND seat = ?",
                    (seat.user_id, seat.bot_kind, seat.name, seat.left_user_id, record.id, seat.seat),
                ),
            ],
        )
        seats = tuple(seat if s.seat == seat.seat else s for s in record.seats)
        return replace(record, version=record.version + 1, seats=seats)

    async def count_hint(self, record: GameRecord, seat: int) -> GameRecord:
        """Count one more hint given to a seat (no move: the version stays)."""
        await self.database.write(
            [
                Statement("UPDATE seats SET hints = hints + 1 WHERE game_id = ? AND seat = ?", (record.id, seat)),
                *self.database.fence(),
            ]
        )
        seats = tuple(replace(s, hints=s.hints + 1) if s.seat == seat else s for s in record.seats)
        return replace(record, seats=seats)

    async def set_status(self, record: GameRecord, status: str) -> GameRecord:
        """Close or cancel a game."""
        await self._write_versioned(record, [self._bump(record, status=status)])
        return replace(record, status=status, version=record.version + 1)

    async def set_host(self, record: GameRecord, host_id: int) -> GameRecord:
        """Pass the host role to another person (the version must not have moved; it bumps)."""
        await self._write_versioned(
            record,
            [
                self._bump(record, status=record.status),
                Statement("UPDATE games SET host_id = ? WHERE id = ?", (host_id, record.id)),
            ],
        )
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
        async with self.database.transaction() as transaction:
            rows = await transaction.fetch(
                f"UPDATE games SET status = ?, version = version + 1, updated_at = ? WHERE id IN ({_marks(ids)})"
                f" AND status IN ({_OPEN}) RETURNING *",
                (status, now_iso(), *ids, *ACTIVE_STATUSES),
            )
            return await _with_seats(transaction, sorted(rows, key=lambda row: int(row["id"])))

    def shown_statement(self, game_id: int, version: int) -> Statement:
        """The statement recording that the game's channel now shows `version` (never lowering what was)."""
        return Statement(
            "UPDATE games SET shown_version = ? WHERE id = ? AND shown_version < ?", (version, game_id, version)
        )

    async def unshown(self) -> list[GameRecord]:
        """Return the running or finished games whose channel shows an older version than stored, oldest first."""
        return await self._select(
            "SELECT * FROM games WHERE shown_version < version AND status IN ('active', 'finished') ORDER BY id"
        )

    async def open_in_place(self, channel_id: int) -> list[GameRecord]:
        """Return the open games played in this channel (or thread), or in threads opened from it, oldest first."""
        return await self._select(
            f"SELECT * FROM games WHERE status IN ({_OPEN}) AND (channel_id = ?"
            " OR id IN (SELECT game_id FROM game_threads WHERE parent_id = ?)) ORDER BY id",
            (*ACTIVE_STATUSES, channel_id, channel_id),
        )

    async def open_in_guild(self, guild_id: int) -> list[GameRecord]:
        """Return the open games of a server, oldest first."""
        return await self._select(
            f"SELECT * FROM games WHERE guild_id = ? AND status IN ({_OPEN}) ORDER BY id", (guild_id, *ACTIVE_STATUSES)
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
        where = [f"g.status IN ({_marks(statuses)})"]
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
        return int(await self.database.fetchval(f"SELECT COUNT(*) FROM games g WHERE {' AND '.join(where)}", params))

    async def idle_lobbies(self, older_than: str) -> list[GameRecord]:
        """Return the lobbies last changed before `older_than` (ISO text, as `now_iso()` writes), idlest first."""
        return await self._select(
            "SELECT * FROM games WHERE status = 'lobby' AND updated_at < ? ORDER BY updated_at, id", (older_than,)
        )

    async def actions(self, game_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        """Return the live action log of a game as (seat, encoded action), in order, without the moves taken back by
        consent (only those numbered up to `upto`, if given): what every replay replays."""
        if upto is None:
            rows = await self.database.fetch(
                "SELECT seat, action FROM actions WHERE game_id = ? AND undone_at IS NULL ORDER BY seq", (game_id,)
            )
        else:
            rows = await self.database.fetch(
                "SELECT seat, action FROM actions WHERE game_id = ? AND seq <= ? AND undone_at IS NULL ORDER BY seq",
                (game_id, upto),
            )
        return [(row["seat"], row["action"]) for row in rows]

    async def last_action(self, game_id: int) -> tuple[int, int, str] | None:
        """The last live action of a game as (seq, seat, encoded action), or None before the first."""
        row = await self.database.fetchrow(
            "SELECT seq, seat, action FROM actions WHERE game_id = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return None if row is None else (row["seq"], row["seat"], row["action"])

    async def rewind(self, record: GameRecord, seq: int, state: str) -> GameRecord:
        """Take action `seq` back by consent: mark it undone (it stays in the log) and store the snapshot from before
        it, bumping the version, in one transaction (StaleVersion if the version moved)."""
        undone = Statement(
            "UPDATE actions SET undone_at = ? WHERE game_id = ? AND seq = ? AND undone_at IS NULL",
            (now_iso(), record.id, seq),
            expect=1,
        )
        await self._write_versioned(record, [self._bump(record, status=record.status, state=state), undone])
        return replace(record, version=record.version + 1, state=state)

    async def action_counts(self, game_id: int | None = None) -> dict[int, int]:
        """Game id → how many actions its log holds, those taken back included (of one game, or of every game that
        has any): the next action's number follows them."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = await self.database.fetch(f"SELECT game_id, MAX(seq) AS n FROM actions {where} GROUP BY game_id", params)
        return {row["game_id"]: row["n"] for row in rows}

    async def written_since_clean_stop(self, shards: ShardSet) -> set[int] | None:
        """The running games written since the last clean stop of every shard here (None: some shard never stopped
        cleanly, so any game may be half written)."""
        rows = await self.database.fetch(
            "SELECT shard, stopped_at FROM clean_shutdowns WHERE shard_count = ?", (shards.count,)
        )
        stopped = {row["shard"]: row["stopped_at"] for row in rows}
        if not shards.ids <= stopped.keys():
            return None
        since = min(stopped[shard] for shard in shards.ids)
        rows = await self.database.fetch("SELECT id FROM games WHERE status = 'active' AND updated_at >= ?", (since,))
        return {row["id"] for row in rows}

    async def stopped_cleanly(self, shards: ShardSet, at: str) -> None:
        """Remember that every game write of these shards before `at` is whole (a clean stop)."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO clean_shutdowns (shard_count, shard, stopped_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (shard_count, shard) DO UPDATE SET stopped_at = excluded.stopped_at",
                    [(shards.count, shard, at) for shard in sorted(shards.ids)],
                    many=True,
                ),
                *self.database.fence(),  # a process that lost its lease stopped anything but cleanly
            ]
        )

    def message_statement(self, game_id: int, kind: str, channel_id: int, message_id: int) -> Statement:
        """The statement remembering which message is a game's lobby or current turn message."""
        return Statement(
            "INSERT INTO game_messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, kind, channel_id, message_id),
        )

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """Return (channel id, message id) of a game's message of this kind, or None."""
        row = await self.database.fetchrow(
            "SELECT channel_id, message_id FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return None if row is None else (row["channel_id"], row["message_id"])

    async def games_with_message(self, kind: str, message_id: int) -> list[int]:
        """Return the ids of the games whose message of this kind has this id (a placeholder id marks work due)."""
        rows = await self.database.fetch(
            "SELECT game_id FROM game_messages WHERE kind = ? AND message_id = ? ORDER BY game_id", (kind, message_id)
        )
        return [int(row["game_id"]) for row in rows]

    async def remove_from_lobby(self, record: GameRecord, seats: Sequence[SeatRecord], user_id: int) -> GameRecord:
        """Replace a lobby's seats without `user_id` and remember that the host removed them (bumps the version)."""
        await self._write_versioned(
            record,
            [
                self._bump(record, status="lobby"),
                Statement("DELETE FROM seats WHERE game_id = ?", (record.id,)),
                self._seats_statement(record.id, seats),
                Statement(
                    "INSERT INTO lobby_removals (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (record.id, user_id),
                ),
            ],
        )
        return replace(record, version=record.version + 1, seats=tuple(seats))

    async def removed_from(self, game_id: int, user_id: int) -> bool:
        """Whether the host removed this person from this lobby (and has not invited them back)."""
        found = await self.database.fetchval(
            "SELECT 1 FROM lobby_removals WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return found is not None

    async def readmit(self, game_id: int, user_id: int) -> None:
        """Let a person the host removed join the lobby again (the host invited them back)."""
        await self.database.write(
            [Statement("DELETE FROM lobby_removals WHERE game_id = ? AND user_id = ?", (game_id, user_id))]
        )

    async def link_rematch(self, previous_id: int, game_id: int) -> int:
        """Record `game_id` as the rematch of `previous_id`; return the rematch that counts (an earlier one wins)."""
        async with self.database.transaction() as transaction:
            await transaction.execute(
                "INSERT INTO rematches (previous_id, game_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (previous_id, game_id),
            )
            found = await transaction.fetchval("SELECT game_id FROM rematches WHERE previous_id = ?", (previous_id,))
            return int(found)

    async def rematch_of(self, previous_id: int) -> int | None:
        """The game opened as the rematch of a game, or None."""
        found = await self.database.fetchval("SELECT game_id FROM rematches WHERE previous_id = ?", (previous_id,))
        return None if found is None else int(found)

    async def rematched_from(self, game_id: int) -> GameRecord | None:
        """The game a rematch lobby was opened from, or None when it is no rematch."""
        records = await self._select(
            "SELECT * FROM games WHERE id = (SELECT previous_id FROM rematches WHERE game_id = ?)", (game_id,)
        )
        return records[0] if records else None

    async def listed(
        self,
        guild_id: int,
        statuses: Sequence[str],
        *,
        user_id: int | None = None,
        places: Sequence[int] | None = None,
        limit: int,
        offset: int = 0,
        by_change: bool = False,
    ) -> tuple[list[DatedGame], int]:
        """A page of a server's games with these statuses (with a person in a seat, if given; seen from one of
        `places`, if given: see `SEEN_FROM`), newest first (or most recently changed first), with when each was
        opened and last changed; and how many there are in all."""
        if places is not None and not places:
            return [], 0
        where, params = _listing(guild_id, statuses, user_id)
        if places is not None:
            where += f" AND {SEEN_FROM} IN ({_marks(places)})"
            params += places
        total = int(await self.database.fetchval(f"SELECT COUNT(*) FROM games g WHERE {where}", params))
        rows = await self.database.fetch(
            f"SELECT g.* FROM games g WHERE {where} ORDER BY {'g.updated_at DESC, ' if by_change else ''}g.id DESC"
            " LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        records = await _with_seats(self.database, rows)
        return [DatedGame(r, row["created_at"], row["updated_at"]) for r, row in zip(records, rows, strict=True)], total

    async def places(self, guild_id: int, statuses: Sequence[str], *, user_id: int | None = None) -> list[int]:
        """The channels a server's games with these statuses (with a person in a seat, if given) are seen from (see
        `SEEN_FROM`), each once."""
        where, params = _listing(guild_id, statuses, user_id)
        rows = await self.database.fetch(f"SELECT DISTINCT {SEEN_FROM} AS place FROM games g WHERE {where}", params)
        return [int(row["place"]) for row in rows]

    async def seen_from(self, game_id: int) -> int | None:
        """The channel a game is seen from (see `SEEN_FROM`), or None for an unknown game."""
        place = await self.database.fetchval(f"SELECT {SEEN_FROM} FROM games g WHERE g.id = ?", (game_id,))
        return None if place is None else int(place)

    async def _write_versioned(self, record: GameRecord, statements: Sequence[Statement]) -> None:
        """Write statements whose first is `_bump(record)`: StaleVersion if the version moved, LeaseLost if this
        process lost its lease on its shards (`Database.fence`), nothing written."""
        try:
            await self.database.write([*statements, *self.database.fence()])
        except RowsNotChanged as error:
            if error.index != 0:
                raise
            raise StaleVersion(f"game {record.id} is no longer at version {record.version}") from None

    @staticmethod
    def _bump(record: GameRecord, *, status: str, state: str | None = None) -> Statement:
        """Advance the version if it is still the one the caller read (expect=1: else the write rolls back)."""
        new_state, params = (", state = ?", (state,)) if state is not None else ("", ())
        return Statement(
            f"UPDATE games SET version = version + 1, status = ?, updated_at = ?{new_state}"
            " WHERE id = ? AND version = ?",
            (status, now_iso(), *params, record.id, record.version),
            expect=1,
        )

    @staticmethod
    def _seats_statement(game_id: int, seats: Sequence[SeatRecord]) -> Statement:
        return Statement(
            "INSERT INTO seats (game_id, seat, user_id, bot_kind, name, left_user_id) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.bot_kind, s.name, s.left_user_id) for s in seats],
            many=True,
        )

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[GameRecord]:
        """Run a SELECT of whole game rows and return them as records with their seats."""
        return await _with_seats(self.database, await self.database.fetch(sql, params))

    async def thread_of(self, game_id: int) -> int | None:
        """Return the id of the thread a game is played in, or None when it is played in a channel."""
        thread_id = await self.database.fetchval("SELECT thread_id FROM game_threads WHERE game_id = ?", (game_id,))
        return None if thread_id is None else int(thread_id)

    async def open_games_of(self, user_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games (lobby or running) this person sits in, newest first."""
        return await self._open_ids(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?", user_id, game
        )

    async def open_games_in_threads_of(self, parent_id: int, game: str | None = None) -> list[int]:
        """Return the ids of the open games played in threads opened from this channel, newest first."""
        return await self._open_ids(
            "SELECT g.id FROM games g JOIN game_threads t ON t.game_id = g.id WHERE t.parent_id = ?", parent_id, game
        )

    async def _open_ids(self, select: str, key: int, game: str | None) -> list[int]:
        """Run `select` (one `?` for `key`) narrowed to open games, and to one kind of game if given."""
        params: list[Any] = [key, *ACTIVE_STATUSES]
        sql = f"{select} AND g.status IN ({_OPEN})"
        if game is not None:
            sql += " AND g.game = ?"
            params.append(game)
        rows = await self.database.fetch(f"{sql} ORDER BY g.id DESC", params)
        return [int(row["id"]) for row in rows]


_OPEN = ",".join("?" * len(ACTIVE_STATUSES))
"""The placeholders of ACTIVE_STATUSES in `status IN (…)`."""


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def _listing(guild_id: int, statuses: Sequence[str], user_id: int | None) -> tuple[str, list[Any]]:
    """The WHERE clause (on `games g`) and parameters of a server's games with these statuses, with a person in a
    seat if given."""
    where = f"g.guild_id = ? AND g.status IN ({_marks(statuses)})"
    params: list[Any] = [guild_id, *statuses]
    if user_id is not None:
        where += " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
        params.append(user_id)
    return where, params


async def _with_seats(reader: Reader, rows: Sequence[Row]) -> list[GameRecord]:
    """Turn game rows into records, with the seats of all of them read in one query."""
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    seats: dict[int, list[SeatRecord]] = {game_id: [] for game_id in ids}
    for s in await reader.fetch(f"SELECT * FROM seats WHERE game_id IN ({_marks(ids)}) ORDER BY seat", ids):
        seats[s["game_id"]].append(
            SeatRecord(
                seat=s["seat"],
                name=s["name"],
                user_id=s["user_id"],
                bot_kind=s["bot_kind"],
                hints=s["hints"],
                left_user_id=s["left_user_id"],
            )
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
