"""The games this bot offers: each engine with the namespace of its words in the translation tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.cardgame import CardGameEngine
from rules.dice import DiceEngine
from rules.engine import GameEngine
from rules.ttr import TicketToRideEngine


@dataclass(frozen=True)
class GameInfo:
    """An offered game: its engine and the i18n namespace of its keys (`<namespace>.option.…`)."""

    engine: GameEngine[Any, Any, Any]
    namespace: str

    @property
    def game_id(self) -> str:
        """The engine's id, used in custom ids and the database."""
        return self.engine.game_id


GAMES: dict[str, GameInfo] = {
    info.game_id: info
    for info in (
        GameInfo(DiceEngine(), "dice"),
        GameInfo(TicketToRideEngine(), "ttr"),
        GameInfo(CardGameEngine(), "cardgame"),
    )
}
