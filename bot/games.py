"""The games this bot offers: each engine with the namespace of its words and its package under `bot/exts/`.

Adding a game means adding it here and writing its package; the bot loads `bot.exts.<namespace>` for each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import text
from rules.cardgame import CardGameEngine
from rules.dice import DiceEngine
from rules.engine import GameEngine
from rules.ttr import TicketToRideEngine


@dataclass(frozen=True)
class GameInfo:
    """An offered game: its engine, and the namespace of its words (`<namespace>.option.…`) and of its package."""

    engine: GameEngine[Any, Any, Any]
    namespace: str

    @property
    def game_id(self) -> str:
        """The engine's id, used in custom ids and the database."""
        return self.engine.game_id

    @property
    def extension(self) -> str:
        """The discord.py extension of its cogs: `bot.exts.<namespace>`."""
        return f"bot.exts.{self.namespace}"


GAMES: dict[str, GameInfo] = {
    info.game_id: info
    for info in (
        GameInfo(DiceEngine(), "dice"),
        GameInfo(TicketToRideEngine(), "ttr"),
        GameInfo(CardGameEngine(), "cardgame"),
    )
}


def game_name(language: str, game: str) -> str:
    """A game's name in a language."""
    return text(language, f"bot.game.{GAMES[game].namespace}")
