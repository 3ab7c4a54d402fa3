"""Ticket to Ride: The Card Game pictures: the table, a player's hand, and the scorings (summary and detail).

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from render.cardgame.hand import hand_image, render_hand
from render.cardgame.scoring import detail_image, render_scoring, render_scoring_detail, scoring_image
from render.cardgame.table import render_table, table_image
from render.cardgame.words import Labels
from rules.cardgame import CardGameEngine


def warm(labels: Labels) -> None:
    """Draw the table and a hand once in a language, so the first game after a start is not the slow one."""
    engine = CardGameEngine()
    state = engine.new_game(engine.load_options({}), 2, seed=0)
    render_table(engine.view(state, None), labels, ["A", "B"])
    render_hand(engine.view(state, 0), labels, ["A", "B"])


__all__ = [
    "detail_image",
    "hand_image",
    "render_hand",
    "render_scoring",
    "render_scoring_detail",
    "render_table",
    "scoring_image",
    "table_image",
    "warm",
]
