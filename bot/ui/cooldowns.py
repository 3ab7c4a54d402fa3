"""Per-person rate limits on what is costly: pictures asked for at will, and commands in general.

Moves need none: they are bound by turns and refused cheaply when out of turn. Built on discord.py's token bucket
(`Cooldown`), one per person and kind, kept in the order they were last used: a bucket unused for its whole period
is full again and is dropped, from the oldest, as it goes (discord.py's own mapping scans every bucket on every use).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from discord.app_commands import Cooldown

PICTURE_COMMANDS = frozenset({"hand", "board", "score"})
"""Commands answered privately with a picture: acknowledged (privately) as soon as they are let in."""
PUBLIC_PICTURE_COMMANDS = frozenset({"stats", "leaderboard"})
"""Commands answered publicly with a picture: counted with the pictures, acknowledged (publicly) by the command."""
PICTURE_VERBS = frozenset({"hand"})
REPLAY_COMMANDS = frozenset({"replay"})
RATES = {
    "picture": (5, 15.0),
    "command": (10, 10.0),
    "replay": (1, 60.0),
}
"""Kind -> (uses, per seconds) for one person: five pictures in 15 s, ten commands in 10 s, one replay a minute (an
animation of a long game is seconds of a worker's time)."""
SHARED_BUCKETS = {"public_picture": "picture"}
"""Kinds that take from another kind's uses: a public picture (/stats, /leaderboard) is one of the five pictures."""


class _Buckets:
    """One kind's buckets by person, the least recently used first."""

    def __init__(self, rate: int, per: float) -> None:
        self.rate = rate
        self.per = per
        self.used: OrderedDict[int, tuple[float, Cooldown]] = OrderedDict()
        """Person → when they last used this kind, and their bucket."""

    def take(self, user_id: int, now: float) -> float:
        """Take one use for this person; 0 when allowed, else the seconds until one is free."""
        while self.used:
            oldest, (last, _) = next(iter(self.used.items()))
            if now - last <= self.per:
                break
            del self.used[oldest]
        found = self.used.pop(user_id, None)
        bucket = found[1] if found is not None else Cooldown(self.rate, self.per)
        self.used[user_id] = (now, bucket)
        return bucket.update_rate_limit(now) or 0.0


class Cooldowns:
    """One bucket per person and kind; `retry_after` takes a use and says how long to wait when none is left."""

    def __init__(self, *, enabled: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        self.enabled = enabled
        self.clock = clock
        self._buckets = {kind: _Buckets(rate, per) for kind, (rate, per) in RATES.items()}

    @staticmethod
    def kind_of_command(name: str) -> str:
        """The kind of limit a slash command falls under."""
        if name in REPLAY_COMMANDS:
            return "replay"
        if name in PUBLIC_PICTURE_COMMANDS:
            return "public_picture"
        return "picture" if name in PICTURE_COMMANDS else "command"

    @staticmethod
    def kind_of_verb(verb: str) -> str | None:
        """The kind of limit a click falls under (None: not limited)."""
        return "picture" if verb in PICTURE_VERBS else None

    def retry_after(self, kind: str | None, user_id: int) -> float:
        """Take one use of `kind` for this person; 0 when allowed, else the seconds until one is free."""
        if not self.enabled or kind is None:
            return 0.0
        return self._buckets[SHARED_BUCKETS.get(kind, kind)].take(user_id, self.clock())

    def size(self) -> int:
        """How many people's buckets are kept (only those used within their period)."""
        return sum(len(buckets.used) for buckets in self._buckets.values())
