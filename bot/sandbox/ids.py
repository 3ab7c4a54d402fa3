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


_shared = SnowflakeFactory()


def next_snowflake() -> int:
    """Return a new process-wide unique snowflake (ids must not collide across stand-ins in one process)."""
    return _shared.next()
