"""What a player holds, drawn alike in the hand and the ticket choice: train cards by colour with big counts, and
tickets with their state (connected or not yet during play, completed or missed at the end)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.palette import BAD, GOOD, LIGHT_INK, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.text import Labels, fitted, picture_text
from rules.ttr.board import CARD_NAMES
from rules.ttr.view import TicketView

OPEN: RGB = (206, 110, 10)
"""A ticket still to connect: orange, between done (green) and missed (red), and marked `…` besides."""


def held_cards(hand: dict[str, int]) -> list[tuple[str, int]]:
    """The colours in hand with their counts, in the deck's order."""
    return [(name, hand.get(name, 0)) for name in CARD_NAMES if hand.get(name, 0) > 0]


def draw_cards(
    image: Image.Image, hand: dict[str, int], labels: Labels, box: tuple[int, int, int], card: tuple[int, int]
) -> int:
    """Draw one card per colour held with its count large beneath, across `box` (x0, top, x1); return the bottom."""
    x0, top, x1 = box
    draw = ImageDraw.Draw(image)
    held = held_cards(hand)
    if not held:
        draw.text((x0, top), picture_text(labels, "hand.no_cards"), font=font(card[1] // 4), fill=PAPER_MUTED)
        return top + card[1] // 3
    w, h = card
    step = min(w * 1.4, (x1 - x0 - w) / max(1, len(held) - 1)) if len(held) > 1 else 0
    face = font(round(h * 0.34), bold=True)
    for k, (name, count) in enumerate(held):
        x = x0 + k * step
        paste_card(image, x, top, name, w, h)
        draw.text((x + w / 2, top + h + 4), f"×{count}", font=face, fill=PAPER_TEXT, anchor="ma")
    return top + h + 4 + round(h * 0.34 * 1.15)


def draw_tickets(
    draw: ImageDraw.ImageDraw,
    tickets: list[TicketView],
    cities: dict[str, str],
    labels: Labels,
    box: tuple[int, int, int],
    *,
    over: bool,
    size: int,
    marks_only: bool = False,
) -> int:
    """Draw the tickets one per row, done first, with `size`-pixel names; return the bottom of the last row. Each
    row ends in its state, a mark and a word ("✓ connected"), or the mark alone where room is short (`marks_only`:
    the heading above counts them)."""
    x0, top, x1 = box
    if not tickets:
        draw.text((x0, top), picture_text(labels, "hand.no_tickets"), font=font(size), fill=PAPER_MUTED)
        return top + tickets_height(0, size)
    row = round(size * 1.75)
    done_word = "" if marks_only else " " + picture_text(labels, "hand.won" if over else "hand.connected")
    open_word = "" if marks_only else " " + picture_text(labels, "hand.lost" if over else "hand.open")
    state_face = font(round(size * 1.3) if marks_only else round(size * 0.8), bold=True)
    state_w = max(state_face.getlength("✓" + done_word), state_face.getlength("…" + open_word)) + 12
    chip_w = round(size * 2.1)
    room = x1 - x0 - chip_w - state_w - 16
    routes = {t.id: f"{cities[t.a]} – {cities[t.b]}" for t in tickets}
    # one size for every name, the largest at which all fit: the rows read alike
    shared = min(fitted(route, size, room, bold=True)[1].size for route in routes.values())
    for k, ticket in enumerate(sorted(tickets, key=lambda t: (not t.completed, -t.points, t.id))):
        y = top + k * row
        if k:
            draw.line((x0, y, x1, y), fill=PAPER_LINE, width=max(1, size // 14))
        mid = y + row / 2
        color = ticket_color(ticket.completed, over)
        draw.rounded_rectangle((x0, mid - size * 0.62, x0 + chip_w, mid + size * 0.62), radius=size // 4, fill=color)
        draw.text((x0 + chip_w / 2, mid), str(ticket.points), font=font(size, bold=True), fill=LIGHT_INK, anchor="mm")
        route, face = fitted(routes[ticket.id], shared, room, bold=True)
        draw.text((x0 + chip_w + 12, mid), route, font=face, fill=PAPER_TEXT, anchor="lm")
        mark = "✓" + done_word if ticket.completed else ("✗" if over else "…") + open_word
        draw.text((x1, mid), mark, font=state_face, fill=color, anchor="rm")
    return top + tickets_height(len(tickets), size)


def tickets_height(count: int, size: int) -> int:
    """The height `draw_tickets` takes for `count` tickets (a line saying there are none for 0)."""
    return count * round(size * 1.75) if count else round(size * 1.4)


def ticket_color(completed: bool, over: bool) -> RGB:
    """Green once connected, orange while still open, red when missed at the end."""
    return GOOD if completed else BAD if over else OPEN
