"""Ticket to Ride pictures (USA and Europe): the board, a hand, the ticket choice and the score sheet.

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from typing import cast

from render.ttr.board import board_image
from render.ttr.hand import hand_image, render_hand
from render.ttr.posted import render_board
from render.ttr.score_sheet import render_score_sheet, score_sheet_image
from render.ttr.text import Labels
from render.ttr.tickets import render_ticket_choice, ticket_choice_image
from rules.ttr import TicketToRideEngine
from rules.ttr.view import SeatView


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


__all__ = [
    "board_image",
    "hand_image",
    "render_board",
    "render_hand",
    "render_score_sheet",
    "render_ticket_choice",
    "score_sheet_image",
    "ticket_choice_image",
    "warm",
]
