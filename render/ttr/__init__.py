"""Ticket to Ride pictures (USA and Europe): the board, a hand, the ticket choice and the score sheet.

Pure functions from the engine's views (plus the caller's translations and player names) to PNG bytes.
"""

from render.ttr.board import board_image, render_board
from render.ttr.hand import hand_image, render_hand
from render.ttr.score_sheet import render_score_sheet, score_sheet_image
from render.ttr.tickets import render_ticket_choice, ticket_choice_image

__all__ = [
    "board_image",
    "hand_image",
    "render_board",
    "render_hand",
    "render_score_sheet",
    "render_ticket_choice",
    "score_sheet_image",
    "ticket_choice_image",
]
