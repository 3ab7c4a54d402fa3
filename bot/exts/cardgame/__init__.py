"""Ticket to Ride: The Card Game in Discord: the turn messages, private hands and play menus, slash commands."""

from __future__ import annotations

from bot.exts.cardgame import _ratings
from bot.game_entry import GameInfo
from render.cardgame import PICTURES
from rules.cardgame import CardGameEngine

GAME = GameInfo(
    engine=CardGameEngine(),
    namespace="cardgame",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="bot.exts.cardgame.words",
    driver="bot.exts.cardgame.sandbox:play_move",
)
"""The card game's entry in `bot.games`."""
