"""Snowflake ids like Discord's: increasing, and carrying their creation time as discord.py expects."""

import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hand out unique, strictly increasing snowflakes whose top bits are the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake; two calls in the same millisecond still differ."""
        now_ms = int(time.time() * 1000)
        self._last = max((now_ms - DISCORD_EPOCH_MS) << 22, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """Return a new snowflake that Discord routes to this shard: ``(id >> 22) % shard_count == shard_id``.

        The routing bits are the timestamp, so it may be up to ``shard_count - 1`` ms ahead of the clock.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} does not exist among {shard_count} shards")
        drawn = self.next()
        timestamp = drawn >> 22
        ahead = (shard_id - timestamp) % shard_count
        if ahead:
            self._last = (timestamp + ahead) << 22
        return self._last


_shared = SnowflakeFactory()


def next_snowflake() -> int:
    """Return a new process-wide unique snowflake (ids must not collide across stand-ins in one process)."""
    return _shared.next()


def next_snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """Return a new process-wide unique snowflake routed to shard ``shard_id`` of ``shard_count``."""
    return _shared.next_on_shard(shard_id, shard_count)
