"""A lobby opened through /newgame's path on someone's behalf (a rematch, an invitation): its first seats, and the
lobby once stored, so the caller can invite people to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.storage.games import GameRecord, SeatRecord


@dataclass
class Seating:
    """The seats a lobby opens with (empty: the host alone), and the lobby as stored (None: it was refused)."""

    seats: Sequence[SeatRecord] = ()
    record: GameRecord | None = None


OpenLobby = Callable[[discord.Interaction[Any], str, dict[str, Any], dict[str, Any], Seating], Awaitable[None]]
"""/newgame's path (the lobby cog's `newgame`): open a lobby of a game with these options and timer overrides, seated
as given, for a rematch or an invitation."""
