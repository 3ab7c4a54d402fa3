"""The coin race in Discord: its entry in the list of games (its cog, the extension, is `_cog.py`)."""

from __future__ import annotations

from bot.game_entry import GameInfo
from tests.fifth_game.bot import _ratings
from tests.fifth_game.pictures import PICTURES
from tests.fifth_game.rules import CoinEngine

GAME = GameInfo(
    engine=CoinEngine(),
    namespace="coin",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="tests.fifth_game.words",
    package="tests.fifth_game.bot._cog",
)
"""The coin race's entry (its moves are made by clicking the turn message's button)."""
