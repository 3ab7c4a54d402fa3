"""Finished games' results per seat, each person's rating per server and game family, and the servers' resets.

A game's results are written once (keyed on the game id), in the same transaction as the ratings it moves, so a
game is never counted twice however often it is offered. The rule that turns a result into new ratings is the
caller's (`RateGame`, see bot/services/ratings.py and docs/ratings.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Database, Row, Transaction, now_iso
from bot.storage.games import SEEN_FROM


@dataclass(frozen=True)
class SeatResult:
    """How one seat ended a finished game: its place (1 for every winner), score, and the family's facts."""

    seat: int
    name: str
    place: int
    score: int
    won: bool
    user_id: int | None = None
    bot_kind: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    left_user_id: int | None = None
    """The person a bot player took this seat over from: rated as finishing below everyone who stayed."""

    @property
    def is_bot(self) -> bool:
        """Whether a bot player ended the game in this seat."""
        return self.bot_kind is not None


@dataclass(frozen=True)
class FinishedGame:
    """A finished game of a server as the ratings see it: its family, when it ended, and every seat's result."""

    game_id: int
    guild_id: int
    family: str
    finished_at: str
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True)
class Rating:
    """A person's skill estimate in one family (OpenSkill's mu and sigma), with the rated games and wins behind it."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    name: str = ""

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard sorts by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Standing:
    """A person's rating with their rank on the server's leaderboard (ties share a rank) and how many are rated."""

    user_id: int
    rating: Rating
    rank: int
    rated: int


RateGame = Callable[[Mapping[int, Rating], FinishedGame], Mapping[int, Rating]]
"""(the ratings of the game's people as they are, none for the not yet rated; the game) → the ratings it gives
them (empty for a game that does not count)."""


class RatingStore:
    """The result and rating tables on one `Database`; each write is one transaction, committed before return."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def unrecorded(
        self, games: Sequence[str], *, after: tuple[str, int] = ("", 0), limit: int = 100
    ) -> list[tuple[int, str]]:
        """(game id, finish time) of the finished server games of these engines whose results are not stored yet,
        in finish order, from past the (finish time, game id) `after`."""
        return [
            (row["id"], row["updated_at"])
            for row in await self.database.fetch(
                f"SELECT g.id, g.updated_at FROM games g WHERE g.status = 'finished' AND g.guild_id IS NOT NULL"
                f" AND g.game IN ({_marks(games)}) AND (g.updated_at > ? OR (g.updated_at = ? AND g.id > ?))"
                " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id)"
                " ORDER BY g.updated_at, g.id LIMIT ?",
                (*games, after[0], after[0], after[1], limit),
            )
        ]

    async def record(self, game: FinishedGame, rate: RateGame) -> bool:
        """Store a finished game's results and move its people's ratings by `rate`, in one transaction; False (and
        nothing written) when its results were stored already. A game that ended before the server's last reset
        is stored but rates nobody."""
        async with self.database.transaction() as transaction:
            written = await transaction.executemany(
                "INSERT INTO game_results (game_id, seat, guild_id, family, user_id, bot_kind, name, place, score, won,"
                " facts, finished_at, left_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [
                    (
                        game.game_id,
                        s.seat,
                        game.guild_id,
                        game.family,
                        s.user_id,
                        s.bot_kind,
                        s.name,
                        s.place,
                        s.score,
                        int(s.won),
                        json.dumps(s.facts, sort_keys=True),
                        game.finished_at,
                        s.left_user_id,
                    )
                    for s in game.seats
                ],
            )
            if written == 0:
                return False
            reset_at = await transaction.fetchval(
                "SELECT reset_at FROM rating_resets WHERE guild_id = ?", (game.guild_id,)
            )
            if reset_at is None or game.finished_at >= reset_at:
                await _rate(transaction, game, rate)
            return True

    async def reset(self, guild_id: int) -> int:
        """Forget a server's ratings: games finished from now on rate anew; return how many ratings were dropped."""
        async with self.database.transaction() as transaction:
            dropped = await transaction.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            await transaction.execute(
                "INSERT INTO rating_resets (guild_id, reset_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET reset_at = excluded.reset_at",
                (guild_id, now_iso()),
            )
        return dropped

    async def recompute(self, guild_id: int, rate: RateGame) -> int:
        """Rate a server's stored games since its last reset again from scratch, in finish order (what the live
        updates did, one by one); return how many games were replayed."""
        async with self.database.transaction() as transaction:
            reset_at = await transaction.fetchval("SELECT reset_at FROM rating_resets WHERE guild_id = ?", (guild_id,))
            await transaction.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            rows = await transaction.fetch(
                "SELECT * FROM game_results WHERE guild_id = ? AND finished_at >= ?"
                " ORDER BY finished_at, game_id, seat",
                (guild_id, reset_at or ""),
            )
            games: dict[int, list[Row]] = {}
            for row in rows:
                games.setdefault(row["game_id"], []).append(row)
            for seats in games.values():
                await _rate(transaction, _finished(seats), rate)
        return len(games)

    async def results_of(
        self, guild_id: int, family: str, user_id: int, *, places: Sequence[int] | None = None
    ) -> list[SeatResult]:
        """Every stored result of a person in one family on a server (of the games seen from `places`, if given:
        see `SEEN_FROM`), oldest first."""
        where, params = _seen(places)
        rows = await self.database.fetch(
            f"SELECT * FROM game_results WHERE guild_id = ? AND family = ? AND user_id = ?{where} ORDER BY finished_at",
            (guild_id, family, user_id, *params),
        )
        return [_seat(row) for row in rows]

    async def families_of(self, guild_id: int, user_id: int, *, places: Sequence[int] | None = None) -> dict[str, int]:
        """Family → how many finished games of it a person has on a server (of the games seen from `places`, if
        given), only those with any."""
        where, params = _seen(places)
        rows = await self.database.fetch(
            f"SELECT family, COUNT(*) AS n FROM game_results WHERE guild_id = ? AND user_id = ?{where} GROUP BY family",
            (guild_id, user_id, *params),
        )
        return {row["family"]: int(row["n"]) for row in rows}

    async def standing(self, guild_id: int, family: str, user_id: int) -> Standing | None:
        """A person's rating and rank in one family on a server, or None when not rated yet."""
        row = await self.database.fetchrow(
            "SELECT * FROM ratings WHERE guild_id = ? AND family = ? AND user_id = ?", (guild_id, family, user_id)
        )
        if row is None:
            return None
        counts = await self.database.fetchrow(
            "SELECT COUNT(*) AS rated, SUM(CASE WHEN ordinal > ? THEN 1 ELSE 0 END) AS above FROM ratings"
            " WHERE guild_id = ? AND family = ?",
            (row["ordinal"], guild_id, family),
        )
        assert counts is not None
        return Standing(user_id, _rating(row), int(counts["above"] or 0) + 1, int(counts["rated"]))

    async def top(self, guild_id: int, family: str, limit: int = 10) -> list[Standing]:
        """The best rated people of a family on a server, best first (ties share a rank; then by fewer games)."""
        rows = await self.database.fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND family = ? ORDER BY ordinal DESC, games, user_id LIMIT ?",
            (guild_id, family, limit),
        )
        rated = await self.database.fetchval(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND family = ?", (guild_id, family)
        )
        standings: list[Standing] = []
        for index, row in enumerate(rows):
            tied = standings and standings[-1].rating.ordinal == row["ordinal"]
            rank = standings[-1].rank if tied else index + 1
            standings.append(Standing(row["user_id"], _rating(row), rank, int(rated)))
        return standings


async def _rate(transaction: Transaction, game: FinishedGame, rate: RateGame) -> None:
    """Move the ratings of a game's people by `rate`, reading and writing them in the caller's transaction."""
    people = [s.user_id or s.left_user_id for s in game.seats if s.user_id is not None or s.left_user_id is not None]
    if not people:
        return
    rows = await transaction.fetch(
        f"SELECT * FROM ratings WHERE guild_id = ? AND family = ? AND user_id IN ({_marks(people)})",
        (game.guild_id, game.family, *people),
    )
    changed = rate({row["user_id"]: _rating(row) for row in rows}, game)
    if not changed:
        return
    now = now_iso()
    await transaction.executemany(
        "INSERT INTO ratings (guild_id, family, user_id, name, mu, sigma, ordinal, games, wins, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, family, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
        " games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
        [
            (game.guild_id, game.family, user, r.name, r.mu, r.sigma, r.ordinal, r.games, r.wins, now)
            for user, r in changed.items()
        ],
    )


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def _seen(places: Sequence[int] | None) -> tuple[str, list[int]]:
    """The condition (appended with AND) and parameters that keep the results of the games seen from `places` (all
    of them for None; none for no places)."""
    if places is None:
        return "", []
    if not places:
        return " AND 1 = 0", []
    return f" AND game_id IN (SELECT g.id FROM games g WHERE {SEEN_FROM} IN ({_marks(places)}))", list(places)


def _rating(row: Row) -> Rating:
    return Rating(mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"], name=row["name"])


def _seat(row: Row) -> SeatResult:
    return SeatResult(
        seat=row["seat"],
        name=row["name"],
        place=row["place"],
        score=row["score"],
        won=bool(row["won"]),
        user_id=row["user_id"],
        bot_kind=row["bot_kind"],
        facts=json.loads(row["facts"]),
        left_user_id=row["left_user_id"],
    )


def _finished(rows: Sequence[Row]) -> FinishedGame:
    """A stored game's results (its rows, one per seat) as the rating rule takes them."""
    first = rows[0]
    return FinishedGame(
        game_id=first["game_id"],
        guild_id=first["guild_id"],
        family=first["family"],
        finished_at=first["finished_at"],
        seats=tuple(_seat(row) for row in rows),
    )
