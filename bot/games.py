"""The games this bot offers: the one list, each game's entry exported by its package under `bot/exts/`.

Adding a game means writing its packages and adding its entry here (docs/adding-a-game.md); the bot loads its
extension, and everything that needs a fact of a game reads it from its entry.
"""

from __future__ import annotations

from bot.exts import cardgame, dice, ttr
from bot.game_entry import GameInfo
from bot.i18n import text

__all__ = ["GAMES", "GameInfo", "game_name"]

GAMES: dict[str, GameInfo] = {info.game_id: info for info in (dice.GAME, ttr.GAME, cardgame.GAME)}


def game_name(language: str, game: str) -> str:
    """A game's name in a language."""
    return text(language, f"bot.game.{GAMES[game].namespace}")
