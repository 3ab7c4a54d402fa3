"""Votes on a running game (undo by consent, pause, resume, end), their ballots, and the games paused by vote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.storage.database import Database, Row, Statement, now_iso

VoteKind = Literal["undo", "pause", "resume", "end"]
Outcome = Literal["carried", "refused", "lapsed"]


@dataclass(frozen=True)
class VoteRecord:
    """A vote as stored: what was asked, by whom, on which move (an undo) and version, and where it is shown."""

    id: int
    game_id: int
    kind: VoteKind
    user_id: int
    seq: int | None
    version: int


class VoteStore:
    """The vote tables on one `Database`; the `*_statement(s)` methods return writes for a caller's transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def open(
        self, game_id: int, kind: VoteKind, user_id: int, version: int, seq: int | None = None
    ) -> VoteRecord:
        """Store a new vote with the yes of whoever asked."""
        now = now_iso()
        async with self.database.transaction() as transaction:
            vote_id = await transaction.fetchval(
                "INSERT INTO game_votes (game_id, kind, user_id, seq, version, opened_at) VALUES (?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (game_id, kind, user_id, seq, version, now),
            )
            await transaction.execute(
                "INSERT INTO game_ballots (vote_id, user_id, yes, cast_at) VALUES (?, ?, 1, ?)", (vote_id, user_id, now)
            )
        return VoteRecord(int(vote_id), game_id, kind, user_id, seq, version)

    async def shown_at(self, vote_id: int, channel_id: int, message_id: int) -> None:
        """Remember the public message that shows a vote and its buttons."""
        sql = "UPDATE game_votes SET channel_id = ?, message_id = ? WHERE id = ?"
        await self.database.write([Statement(sql, (channel_id, message_id, vote_id))])

    async def cast(self, vote_id: int, user_id: int, yes: bool) -> None:
        """Store a person's ballot (a second click changes it)."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO game_ballots (vote_id, user_id, yes, cast_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (vote_id, user_id) DO UPDATE SET yes = excluded.yes, cast_at = excluded.cast_at",
                    (vote_id, user_id, int(yes), now_iso()),
                )
            ]
        )

    def close_statement(self, vote_id: int, outcome: Outcome) -> Statement:
        """The statement closing an open vote with its outcome (nothing for one closed already)."""
        return Statement(
            "UPDATE game_votes SET closed_at = ?, outcome = ? WHERE id = ? AND closed_at IS NULL",
            (now_iso(), outcome, vote_id),
        )

    async def close(self, vote_id: int, outcome: Outcome) -> None:
        """Close an open vote with its outcome."""
        await self.database.write([self.close_statement(vote_id, outcome)])

    async def lapse_open(self) -> None:
        """Close every vote still open as lapsed (at start: none outlives a restart; its buttons answer so)."""
        sql = "UPDATE game_votes SET closed_at = ?, outcome = 'lapsed' WHERE closed_at IS NULL"
        await self.database.write([Statement(sql, (now_iso(),))])

    async def last_failed(self, game_id: int, user_id: int, kind: VoteKind) -> str | None:
        """When this person's latest refused or lapsed vote of a kind in a game closed (ISO), or None."""
        return await self.database.fetchval(
            "SELECT MAX(closed_at) FROM game_votes WHERE game_id = ? AND user_id = ? AND kind = ?"
            " AND outcome IN ('refused', 'lapsed')",
            (game_id, user_id, kind),
        )

    async def votes(self, game_id: int) -> list[tuple[VoteRecord, Outcome | None, dict[int, bool]]]:
        """Every vote of a game, oldest first, with its outcome (None while open) and ballots by person."""
        rows = await self.database.fetch("SELECT * FROM game_votes WHERE game_id = ? ORDER BY id", (game_id,))
        ballots = await self.database.fetch(
            "SELECT b.vote_id, b.user_id, b.yes FROM game_ballots b JOIN game_votes v ON v.id = b.vote_id"
            " WHERE v.game_id = ?",
            (game_id,),
        )
        by_vote: dict[int, dict[int, bool]] = {}
        for ballot in ballots:
            by_vote.setdefault(ballot["vote_id"], {})[ballot["user_id"]] = bool(ballot["yes"])
        return [(_vote(row), row["outcome"], by_vote.get(row["id"], {})) for row in rows]

    def pause_statements(self, game_id: int, paused: bool) -> list[Statement]:
        """The statements marking a game paused by vote, or resumed."""
        if paused:
            return [
                Statement(
                    "INSERT INTO game_pauses (game_id, paused_at) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING",
                    (game_id, now_iso()),
                )
            ]
        return [Statement("DELETE FROM game_pauses WHERE game_id = ?", (game_id,))]

    async def paused(self) -> set[int]:
        """The running games paused by vote."""
        rows = await self.database.fetch(
            "SELECT p.game_id FROM game_pauses p JOIN games g ON g.id = p.game_id WHERE g.status = 'active'"
        )
        return {row["game_id"] for row in rows}


def _vote(row: Row) -> VoteRecord:
    return VoteRecord(row["id"], row["game_id"], row["kind"], row["user_id"], row["seq"], row["version"])
