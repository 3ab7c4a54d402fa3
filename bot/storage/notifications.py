"""Turn notifications: each person's /notify choices, the DM each waited-for person is due, and who watches a game;
invitations: who was invited into each lobby, and whose invitations each person refuses on a server."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.database import Database, Row, Statement, now_iso

DELAYS = (0, 5, 15, 60)
"""The minutes a person may choose to wait before their turn's DM (0: at once)."""
EVERYONE = 0
"""The `inviter_id` stored for a refusal of everyone's invitations on a server (no Discord id is 0)."""


@dataclass(frozen=True)
class NotifyPrefs:
    """One person's choices (the same on every server), and whether Discord refuses their DMs."""

    user_id: int
    dm: bool = False
    delay_minutes: int = 0
    ping: bool = True
    language: str = "en"
    dms_closed: bool = False
    """Discord refused a DM (50007): no more are tried until the person changes /notify."""
    closed_told: bool = False
    """The person was told privately that their DMs are closed."""

    @property
    def wants_dm(self) -> bool:
        """Whether a DM is to be tried at their turn."""
        return self.dm and not self.dms_closed


@dataclass(frozen=True)
class DmWait:
    """A person the game waits for: when their DM goes (None: sent, or none is due since they are acting on)."""

    game_id: int
    user_id: int
    due_at: float | None


@dataclass(frozen=True)
class Watcher:
    """A spectator to be told when a game ends, in their language."""

    game_id: int
    user_id: int
    language: str


@dataclass(frozen=True)
class Refusals:
    """Whose invitations to games one person refuses on one server."""

    everyone: bool = False
    inviters: frozenset[int] = frozenset()

    def refuses(self, inviter_id: int) -> bool:
        """Whether an invitation by this person is refused."""
        return self.everyone or inviter_id in self.inviters


@dataclass(frozen=True)
class Invitation:
    """A person invited into a lobby, by whom, and whether they declined."""

    game_id: int
    user_id: int
    inviter_id: int
    declined: bool = False


class NotificationStore:
    """The notification tables on one `Database`."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def all_prefs(self) -> dict[int, NotifyPrefs]:
        """Every person's stored choices by user id (read once at start: people who never chose are not here)."""
        rows = await self.database.fetch("SELECT * FROM notify_prefs")
        return {row["user_id"]: _prefs(row) for row in rows}

    async def put_prefs(self, prefs: NotifyPrefs) -> None:
        """Store a person's choices (replacing what was there)."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO notify_prefs (user_id, dm, delay_minutes, ping, language, dms_closed, closed_told)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm,"
                    " delay_minutes = excluded.delay_minutes, ping = excluded.ping, language = excluded.language,"
                    " dms_closed = excluded.dms_closed, closed_told = excluded.closed_told",
                    (
                        prefs.user_id,
                        int(prefs.dm),
                        prefs.delay_minutes,
                        int(prefs.ping),
                        prefs.language,
                        int(prefs.dms_closed),
                        int(prefs.closed_told),
                    ),
                )
            ]
        )

    async def all_waits(self) -> list[DmWait]:
        """Every wait of every game, by game and person (read once at start)."""
        rows = await self.database.fetch("SELECT * FROM notify_waits ORDER BY game_id, user_id")
        return [_wait(row) for row in rows]

    async def change_waits(self, game_id: int, *, drop: Iterable[int] = (), put: Iterable[DmWait] = ()) -> None:
        """Delete the waits of `drop` people and write the `put` ones, in one transaction (none for no change)."""
        dropped = [(game_id, user_id) for user_id in drop]
        written = [(w.game_id, w.user_id, w.due_at) for w in put]
        statements = []
        if dropped:
            statements.append(
                Statement("DELETE FROM notify_waits WHERE game_id = ? AND user_id = ?", dropped, many=True)
            )
        if written:
            statements.append(
                Statement(
                    "INSERT INTO notify_waits (game_id, user_id, due_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, user_id) DO UPDATE SET due_at = excluded.due_at",
                    written,
                    many=True,
                )
            )
        if statements:
            await self.database.write(statements)

    async def end_game(self, game_id: int) -> list[Watcher]:
        """Forget a closed game's waits and watchers; return the watchers it had."""
        rows = await self.database.fetch("SELECT * FROM game_watchers WHERE game_id = ? ORDER BY user_id", (game_id,))
        await self.database.write(
            [
                Statement("DELETE FROM notify_waits WHERE game_id = ?", (game_id,)),
                Statement("DELETE FROM game_watchers WHERE game_id = ?", (game_id,)),
            ]
        )
        return [Watcher(row["game_id"], row["user_id"], row["language"]) for row in rows]

    async def watching(self, game_id: int, user_id: int) -> bool:
        """Whether a person watches a game."""
        found = await self.database.fetchval(
            "SELECT 1 FROM game_watchers WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return found is not None

    async def watch(self, watcher: Watcher) -> None:
        """Have a person told when a game ends."""
        await self.database.write(
            [
                Statement(
                    "INSERT INTO game_watchers (game_id, user_id, language) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, user_id) DO UPDATE SET language = excluded.language",
                    (watcher.game_id, watcher.user_id, watcher.language),
                )
            ]
        )

    async def unwatch(self, game_id: int, user_id: int) -> None:
        """Stop watching a game."""
        await self.database.write(
            [Statement("DELETE FROM game_watchers WHERE game_id = ? AND user_id = ?", (game_id, user_id))]
        )

    async def refusals(self, guild_id: int, user_id: int) -> Refusals:
        """Whose invitations a person refuses on a server."""
        rows = await self.database.fetch(
            "SELECT inviter_id FROM invitation_refusals WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        inviters = {row["inviter_id"] for row in rows}
        return Refusals(everyone=EVERYONE in inviters, inviters=frozenset(inviters - {EVERYONE}))

    async def put_refusals(self, guild_id: int, user_id: int, refusals: Refusals) -> None:
        """Store whose invitations a person refuses on a server (replacing what was there)."""
        rows = [(guild_id, user_id, inviter) for inviter in sorted(refusals.inviters)]
        if refusals.everyone:
            rows.append((guild_id, user_id, EVERYONE))
        statements = [
            Statement("DELETE FROM invitation_refusals WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        ]
        if rows:
            statements.append(
                Statement(
                    "INSERT INTO invitation_refusals (guild_id, user_id, inviter_id) VALUES (?, ?, ?)", rows, many=True
                )
            )
        await self.database.write(statements)

    async def invitations(self, game_id: int) -> list[Invitation]:
        """Everyone invited into a lobby, by user id."""
        rows = await self.database.fetch(
            "SELECT * FROM lobby_invitations WHERE game_id = ? ORDER BY user_id", (game_id,)
        )
        return [_invitation(row) for row in rows]

    async def invite(self, invitation: Invitation, *, again: bool = False) -> bool:
        """Record an invitation; False when the person was invited into that lobby already (nothing changed),
        unless `again`: then the new inviter is kept and a decline forgotten."""
        conflict = "DO UPDATE SET inviter_id = excluded.inviter_id, declined_at = NULL" if again else "DO NOTHING"
        [count] = await self.database.write(
            [
                Statement(
                    "INSERT INTO lobby_invitations (game_id, user_id, inviter_id, invited_at) VALUES (?, ?, ?, ?)"
                    f" ON CONFLICT (game_id, user_id) {conflict}",
                    (invitation.game_id, invitation.user_id, invitation.inviter_id, now_iso()),
                )
            ]
        )
        return count == 1

    async def decline(self, game_id: int, user_id: int) -> Invitation | None:
        """Mark a person's invitation into a lobby declined; it, or None when they were not invited."""
        [count] = await self.database.write(
            [
                Statement(
                    "UPDATE lobby_invitations SET declined_at = ? WHERE game_id = ? AND user_id = ?",
                    (now_iso(), game_id, user_id),
                )
            ]
        )
        if count == 0:
            return None
        row = await self.database.fetchrow(
            "SELECT * FROM lobby_invitations WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return None if row is None else _invitation(row)


def _prefs(row: Row) -> NotifyPrefs:
    return NotifyPrefs(
        user_id=row["user_id"],
        dm=bool(row["dm"]),
        delay_minutes=int(row["delay_minutes"]),
        ping=bool(row["ping"]),
        language=row["language"],
        dms_closed=bool(row["dms_closed"]),
        closed_told=bool(row["closed_told"]),
    )


def _wait(row: Row) -> DmWait:
    due = row["due_at"]
    return DmWait(game_id=row["game_id"], user_id=row["user_id"], due_at=None if due is None else float(due))


def _invitation(row: Row) -> Invitation:
    return Invitation(row["game_id"], row["user_id"], row["inviter_id"], declined=row["declined_at"] is not None)
