"""Which servers this process drives: its shards of the bot's gateway connection.

Discord puts a server on shard `(guild_id >> 22) % shard_count` (direct messages on shard 0). Several processes
may share one PostgreSQL store, each holding some of the shards: a process drives the games, turn timers, lobbies
and bot players of its own shards' servers only, so no game is driven by two processes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShardSet:
    """The shards one process holds, of how many in all."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} do not fit a shard count of {self.count}")

    @property
    def everything(self) -> bool:
        """Whether this process holds every shard (the usual single process)."""
        return len(self.ids) == self.count

    def of(self, guild_id: int | None) -> int:
        """The shard a server is on (direct messages: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process drives the games of a server."""
        return self.everything or self.of(guild_id) in self.ids


EVERY_SHARD = ShardSet()
"""A single process holding the one shard: it drives every game."""
