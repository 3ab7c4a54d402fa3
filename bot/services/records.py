"""The stored games as the ui and the commands may ask for them: lookups, counts and pages of a server's games, the
places a game is seen from, and a lobby's bookkeeping (removals, rematch links) that is not a move.

The game service holds the open games in memory; this reads (and keeps those few facts of) what is stored, so no
module above the services speaks to the storage layer itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.games import DatedGame, GameRecord, GameStore
from bot.storage.places import PlaceStore


class GameRecords:
    """What is stored of every game (open or over, this process's or another's), read through the games' store."""

    def __init__(self, games: GameStore, places: PlaceStore) -> None:
        self._games = games
        self._places = places

    async def get(self, game_id: int) -> GameRecord | None:
        """A game as stored, or None."""
        return await self._games.get(game_id)

    async def actions(self, game_id: int) -> list[tuple[int, str]]:
        """A game's live log as (seat, encoded action): what a replay replays."""
        return await self._games.actions(game_id)

    async def in_channel(self, channel_id: int) -> list[GameRecord]:
        """The open games of a channel, newest first."""
        return await self._games.in_channel(channel_id)

    async def open_in_place(self, channel_id: int) -> list[GameRecord]:
        """The open games played in a channel or thread, or in threads opened from it, oldest first."""
        return await self._games.open_in_place(channel_id)

    async def open_in_guild(self, guild_id: int) -> list[GameRecord]:
        """The open games of a server, oldest first."""
        return await self._games.open_in_guild(guild_id)

    async def unshown(self) -> list[GameRecord]:
        """The running or finished games whose channel shows an older version than stored, oldest first."""
        return await self._games.unshown()

    async def count_open(
        self,
        *,
        guild_id: int | None = None,
        host_id: int | None = None,
        user_id: int | None = None,
        status: str | None = None,
    ) -> int:
        """Count the open games in a server, hosted by a person, and/or with a person in a seat (filters combine)."""
        return await self._games.count_open(guild_id=guild_id, host_id=host_id, user_id=user_id, status=status)

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
        return await self._games.listed(
            guild_id, statuses, user_id=user_id, places=places, limit=limit, offset=offset, by_change=by_change
        )

    async def places(self, guild_id: int, statuses: Sequence[str], *, user_id: int | None = None) -> list[int]:
        """The channels a server's games with these statuses (with a person seated, if given) are seen from."""
        return await self._games.places(guild_id, statuses, user_id=user_id)

    async def seen_from(self, game_id: int) -> int | None:
        """The channel a game is seen from, or None for an unknown game."""
        return await self._games.seen_from(game_id)

    async def thread_of(self, game_id: int) -> int | None:
        """The thread a game is played in, or None when it is played in a channel."""
        return await self._places.thread_of(game_id)

    async def open_games_of(self, user_id: int, game: str | None = None) -> list[int]:
        """The ids of the open games a person sits in, newest first."""
        return await self._places.open_games_of(user_id, game)

    async def open_games_in_threads_of(self, parent_id: int, game: str | None = None) -> list[int]:
        """The ids of the open games played in threads opened from a channel, newest first."""
        return await self._places.open_games_in_threads_of(parent_id, game)

    async def removed_from(self, game_id: int, user_id: int) -> bool:
        """Whether the host removed this person from this lobby (and has not invited them back)."""
        return await self._games.removed_from(game_id, user_id)

    async def readmit(self, game_id: int, user_id: int) -> None:
        """Let a person the host removed join the lobby again (the host invited them back)."""
        await self._games.readmit(game_id, user_id)

    async def rematched_from(self, game_id: int) -> GameRecord | None:
        """The game a rematch lobby was opened from, or None when it is no rematch."""
        return await self._games.rematched_from(game_id)

    async def rematch_of(self, previous_id: int) -> int | None:
        """The game opened as the rematch of a game, or None."""
        return await self._games.rematch_of(previous_id)

    async def link_rematch(self, previous_id: int, game_id: int) -> int:
        """Record a rematch of a game; the rematch that counts (an earlier one wins)."""
        return await self._games.link_rematch(previous_id, game_id)
