"""The dice game «Поезд» in Discord: /roll, the turn message with its buttons, and the pictures."""

from __future__ import annotations

from bot.exts.dice import _ratings
from bot.game_entry import GameInfo
from render.dice import PICTURES
from rules.dice import DiceEngine

GAME = GameInfo(
    engine=DiceEngine(),
    namespace="dice",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="bot.exts.dice.words",
)
"""The dice game's entry in `bot.games` (its moves are made by clicking the turn message's buttons)."""
