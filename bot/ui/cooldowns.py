"""Per-person rate limits on what is costly: pictures asked for at will, and commands in general.

Moves need none: they are bound by turns and refused cheaply when out of turn. Built on discord.py's own
cooldown buckets (a token bucket per person, expired ones dropped as it goes).
"""

from __future__ import annotations

from typing import Any

from discord.app_commands import Cooldown
from discord.ext.commands import CooldownMapping

PICTURE_COMMANDS = frozenset({"hand", "board", "score"})
PICTURE_VERBS = frozenset({"hand"})
RATES = {
    "picture": (5, 15.0),
    "command": (10, 10.0),
}
"""Kind -> (uses, per seconds) for one person: five pictures in 15 s, ten commands in 10 s."""


class Cooldowns:
    """One bucket per person and kind; `retry_after` takes a use and says how long to wait when none is left."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self._mappings: dict[str, CooldownMapping[Any]] = {
            kind: CooldownMapping(Cooldown(rate, per), lambda user_id: user_id) for kind, (rate, per) in RATES.items()
        }

    @staticmethod
    def kind_of_command(name: str) -> str:
        """The kind of limit a slash command falls under."""
        return "picture" if name in PICTURE_COMMANDS else "command"

    @staticmethod
    def kind_of_verb(verb: str) -> str | None:
        """The kind of limit a click falls under (None: not limited)."""
        return "picture" if verb in PICTURE_VERBS else None

    def retry_after(self, kind: str | None, user_id: int) -> float:
        """Take one use of `kind` for this person; 0 when allowed, else the seconds until one is free."""
        if not self.enabled or kind is None:
            return 0.0
        return self._mappings[kind].update_rate_limit(user_id) or 0.0
