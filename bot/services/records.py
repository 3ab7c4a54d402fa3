"""The stored games as the ui and the commands may ask for them: lookups, counts and pages of a server's games, the
places a game is seen from, and a lobby's bookkeeping (removals, rematch links) that is not a move.

The game service holds the open games in memory; what is stored is read through this interface, which the games'
store (bot/storage/games.py) fulfils: the modules above the services see these queries only, never the store's others
or its SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.storage.games import DatedGame, GameRecord


class GameRecords(Protocol):
    """What is stored of every game (open or over, this process's or another's), as the ui and commands may ask."""

    async def get(self, game_id: int) -> GameRecord | None:
        """A game as stored, or None."""

    async def actions(self, game_id: int) -> list[tuple[int, str]]:
        """A game's live log as (seat, encoded action): what a replay replays."""

    async def in_channel(self, channel_id: int) -> list[GameRecord]:
        """The open games of a channel, newest first."""

    async def open_in_place(self, channel_id: int) -> list[GameRecord]:
        """The open games played in a channel or thread, or in threads opened from it, oldest first."""

    async def open_in_guild(self, guild_id: int) -> list[GameRecord]:
        """The open games of a server, oldest first."""

    async def unshown(self) -> list[GameRecord]:
        """The running or finished games whose channel shows an older version than stored, oldest first."""

    async def count_open(
        self,
        *,
        guild_id: int | None = None,
        host_id: int | None = None,
        user_id: int | None = None,
        status: str | None = None,
    ) -> int:
        """Count the open games in a server, hosted by a person, and/or with a person in a seat (filters combine)."""

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
        """A page of a server's games with these statuses, newest first, and how many there are in all."""

    async def places(self, guild_id: int, statuses: Sequence[str], *, user_id: int | None = None) -> list[int]:
        """The channels a server's games with these statuses (with a person seated, if given) are seen from."""

    async def seen_from(self, game_id: int) -> int | None:
        """The channel a game is seen from, or None for an unknown game."""

    async def thread_of(self, game_id: int) -> int | None:
        """The thread a game is played in, or None when it is played in a channel."""

    async def open_games_of(self, user_id: int, game: str | None = None) -> list[int]:
        """The ids of the open games a person sits in, newest first."""

    async def open_games_in_threads_of(self, parent_id: int, game: str | None = None) -> list[int]:
        """The ids of the open games played in threads opened from a channel, newest first."""

    async def removed_from(self, game_id: int, user_id: int) -> bool:
        """Whether the host removed this person from this lobby (and has not invited them back)."""

    async def readmit(self, game_id: int, user_id: int) -> None:
        """Let a person the host removed join the lobby again (the host invited them back)."""

    async def rematched_from(self, game_id: int) -> GameRecord | None:
        """The game a rematch lobby was opened from, or None when it is no rematch."""

    async def rematch_of(self, previous_id: int) -> int | None:
        """The game opened as the rematch of a game, or None."""

    async def link_rematch(self, previous_id: int, game_id: int) -> int:
        """Record a rematch of a game; the rematch that counts (an earlier one wins)."""
