"""Ticket to Ride: The Card Game pictures: the table, a player's hand, and the scorings (summary and detail).

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from render.cardgame.hand import hand_image, render_hand
from render.cardgame.scoring import detail_image, render_scoring, render_scoring_detail, scoring_image
from render.cardgame.table import render_table, table_image

__all__ = [
    "detail_image",
    "hand_image",
    "render_hand",
    "render_scoring",
    "render_scoring_detail",
    "render_table",
    "scoring_image",
    "table_image",
]
