"""Ticket to Ride pictures (USA and Europe): the board, a hand, the ticket choice, and the final summary and score
sheet.

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from collections.abc import Sequence
from typing import cast

from PIL import Image

from render.games import GamePictures
from render.ttr.board import board_image
from render.ttr.hand import hand_image, render_hand
from render.ttr.palette import PLAYER_COLORS
from render.ttr.posted import render_board
from render.ttr.score_sheet import render_score_sheet, render_score_summary, score_sheet_image, summary_image
from render.ttr.text import Labels
from render.ttr.tickets import render_ticket_choice, ticket_choice_image
from rules.ttr import TicketToRideEngine
from rules.ttr.view import PublicView, SeatView


def warm(labels: Labels) -> None:
    """Draw every map's art once in a language (the first board of a map costs about a second)."""
    engine = TicketToRideEngine()
    for map_id in ("usa", "europe"):
        state = engine.new_game(engine.load_options({"map": map_id}), 2, seed=0)
        names = ["A", "B"]
        render_board(engine.view(state, None), labels, names)
        seat = cast(SeatView, engine.view(state, 0))
        render_hand(seat, labels, names)
        render_ticket_choice(seat, labels)


def replay_frame(view: PublicView, labels: Labels, names: Sequence[str]) -> Image.Image:
    """A replay's frame: the board as the game's channel shows it."""
    return board_image(view, labels, list(names))


PICTURES = GamePictures(frame=replay_frame, colours=PLAYER_COLORS, warm=warm)
"""Ticket to Ride's pictures as the replay, the score chart and the picture workers use them."""

__all__ = [
    "PICTURES",
    "board_image",
    "hand_image",
    "render_board",
    "render_hand",
    "render_score_sheet",
    "render_score_summary",
    "render_ticket_choice",
    "score_sheet_image",
    "summary_image",
    "ticket_choice_image",
    "warm",
]
