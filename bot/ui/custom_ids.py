"""The one grammar of every component's custom id, so buttons keep working across restarts.

    <game>:<game id>:<version>:<verb>[:<argument>]

- game: the engine id (`dice`, `ticket-to-ride`, …) or `lobby` for a lobby's buttons;
- game id: the row id of the game in the database;
- version: the game's version when the component was drawn; a game action from an older version is refused;
- verb: what the component does (`act` applies the encoded action in the argument; `join`, `start`, `hand`, …;
  `lobby:<finished game id>:<its version>:rematch` opens a rematch of a finished game);
- argument: free text without length limit of its own, but the whole id is at most 100 characters (Discord).

A move becomes text in the bot only here (`action_text`, its `encode()`), and a click is read back once, as it
arrives (`read_act`, with the engine's `parse_action`, and each game's reader of its own verbs, with the argument
readers here: `parts`, `face_up_colour`, `picked_tickets`), so no other code spells or splits a move's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, ActionT, GameEngine, IllegalAction

ACT = "act"
"""The verb of a component that plays the action its argument (or, for a select, its picked value) names."""
LOBBY = "lobby"
"""The `game` part of every lobby component (and of Rematch: the lobby's controller opens the new lobby)."""
REMATCH = "rematch"
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


def action_text(action: Action) -> str:
    """A move as a component or the game service carries it: its `encode()` text."""
    return action.encode()


def parts(arg: str) -> list[str]:
    """An argument's colon-separated parts, for verbs whose argument is not a move (`take` with `slot:colour`, …)."""
    return arg.split(":")


def face_up_colour(arg: str) -> str:
    """The colour a face-up card's button names (its argument `slot:colour`), or "" for a garbled one."""
    named = parts(arg)
    return named[1] if len(named) == 2 else ""


def picked_tickets(values: list[str]) -> tuple[int, ...] | None:
    """The ticket ids picked in a ticket choice's menu, ascending; None if one is not a ticket id."""
    if not all(value.isdigit() for value in values):
        return None
    return tuple(sorted(int(value) for value in values))


def read_act(engine: GameEngine[Any, ActionT, Any], cid: ComponentId, values: list[str]) -> ActionT | None:
    """The move an `act` component names (a select's in its picked value), or None for a garbled one."""
    try:
        return engine.parse_action(cid.arg or (values[0] if values else ""))
    except IllegalAction:
        return None


def rematch_id(game_id: int, version: int) -> ComponentId:
    """The custom id of the Rematch button of a finished game's final message (the lobby's controller answers it)."""
    return ComponentId(LOBBY, game_id, version, REMATCH)


def act_id(game: str, game_id: int, version: int, action: Action) -> ComponentId:
    """The custom id of a button that plays `action` in a game at this version."""
    return ComponentId(game, game_id, version, ACT, action_text(action))
