"""The one grammar of every component's custom id, so buttons keep working across restarts.

    <game>:<game id>:<version>:<verb>[:<argument>]

- game: the engine id (`dice`, `ticket-to-ride`, …) or `lobby` for a lobby's buttons;
- game id: the row id of the game in the database;
- version: the game's version when the component was drawn; a game action from an older version is refused;
- verb: what the component does (`act` applies the encoded action in the argument; `join`, `start`, `hand`, …);
- argument: free text without length limit of its own, but the whole id is at most 100 characters (Discord).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LENGTH = 100
PATTERN = r"(?P<game>[a-z][a-z-]*):(?P<game_id>[0-9]+):(?P<version>[0-9]+):(?P<verb>[a-z][a-z-]*)(?::(?P<arg>.*))?"
_COMPILED = re.compile(PATTERN)


@dataclass(frozen=True)
class ComponentId:
    """A parsed custom id."""

    game: str
    game_id: int
    version: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        text = f"{self.game}:{self.game_id}:{self.version}:{self.verb}" + (f":{self.arg}" if self.arg else "")
        if len(text) > MAX_LENGTH:
            raise ValueError(f"custom id longer than {MAX_LENGTH} characters: {text}")
        return text

    @classmethod
    def parse(cls, text: str) -> ComponentId | None:
        """Read a custom id of our grammar, or None for anything else."""
        match = _COMPILED.fullmatch(text)
        if match is None:
            return None
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        """Build from a regex match of PATTERN (discord.py's DynamicItem hands us one)."""
        return cls(
            game=match["game"],
            game_id=int(match["game_id"]),
            version=int(match["version"]),
            verb=match["verb"],
            arg=match["arg"] or "",
        )
