"""Ticket to Ride: The Card Game pictures: the table, a player's hand, and the scorings (summary and detail).

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from collections.abc import Sequence

from PIL import Image

from render.cardgame.hand import hand_image, render_hand
from render.cardgame.scoring import detail_image, render_scoring, render_scoring_detail, scoring_image
from render.cardgame.table import render_table, table_image
from render.cardgame.words import Labels
from render.games import GamePictures
from render.ttr.palette import PLAYER_COLORS
from rules.cardgame import CardGameEngine
from rules.cardgame.view import CardGameView


def warm(labels: Labels) -> None:
    """Draw the table and a hand once in a language, so the first game after a start is not the slow one."""
    engine = CardGameEngine()
    state = engine.new_game(engine.load_options({}), 2, seed=0)
    render_table(engine.view(state, None), labels, ["A", "B"])
    render_hand(engine.view(state, 0), labels, ["A", "B"])


def replay_frame(view: CardGameView, labels: Labels, names: Sequence[str]) -> Image.Image:
    """A replay's frame: the table as the game's channel shows it."""
    return table_image(view, labels, list(names))


PICTURES = GamePictures(frame=replay_frame, colours=PLAYER_COLORS, warm=warm)
"""The card game's pictures as the replay, the score chart and the picture workers use them (its seats wear
Ticket to Ride's colours)."""

__all__ = [
    "PICTURES",
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
