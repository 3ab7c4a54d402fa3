"""Ticket to Ride (USA and Europe) in Discord: the turn messages, private hands, menus and slash commands."""

from __future__ import annotations

from bot.exts.ttr import _ratings
from bot.game_entry import GameInfo
from render.ttr import PICTURES
from rules.ttr import TicketToRideEngine

GAME = GameInfo(
    engine=TicketToRideEngine(),
    namespace="ttr",
    pictures=PICTURES,
    ratings=_ratings.RATINGS,
    figures=_ratings.figures,
    words="bot.exts.ttr.words",
    driver="bot.exts.ttr.sandbox:play_move",
)
"""Ticket to Ride's entry in `bot.games`."""
