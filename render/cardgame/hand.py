"""A player's private hand: train cards by colour with counts, the tickets offered to choose from, the tickets
held (each with the cards its stack must supply and the big cities it names), and what they need in all.

Drawn from the seat's own view. The Train Stack is shown only where the view holds it (the beginners' variant,
or once the game is over): the stack is hidden from its owner too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.cardgame.pieces import (
    PAPER_ACCENT,
    TICKET_TILE_HEIGHT,
    Box,
    counts_width,
    paste_counts,
    ticket_tile,
)
from render.cardgame.words import word
from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.encode import encode
from render.ttr.palette import PAPER, PAPER_MUTED, PAPER_TEXT
from render.ttr.panel import badge
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.cards import COLORS, KIND_NAMES
from rules.cardgame.view import CardGameView, TicketView

WIDTH = 1160
PAD = 24
CARD_W, CARD_H = 66, 96
TILE_GAP = 12
SECTION_GAP = 22


@dataclass
class HandLayout:
    """Where each thing of the hand picture goes (tests read it to find the cards)."""

    size: tuple[int, int]
    cards: dict[str, Box] = field(default_factory=dict)
    cards_top: int = 0
    stack_top: int | None = None
    offered_top: int | None = None
    offered: dict[int, Box] = field(default_factory=dict)
    tickets_top: int | None = None
    tickets: dict[int, Box] = field(default_factory=dict)


def _tile_boxes(tickets: list[TicketView], top: int) -> dict[int, Box]:
    """Ticket tiles two to a row."""
    width = (WIDTH - 2 * PAD - TILE_GAP) / 2
    boxes: dict[int, Box] = {}
    for k, ticket in enumerate(tickets):
        x = PAD + (k % 2) * (width + TILE_GAP)
        y = top + (k // 2) * (TICKET_TILE_HEIGHT + TILE_GAP)
        boxes[ticket.id] = (x, y, x + width, y + TICKET_TILE_HEIGHT)
    return boxes


def _tiles_height(count: int) -> int:
    rows = (count + 1) // 2
    return rows * (TICKET_TILE_HEIGHT + TILE_GAP) - TILE_GAP if rows else 40


def held_order(view: CardGameView) -> list[TicketView]:
    """The tickets held, most points first (ties by id), as the picture lists them."""
    return sorted(view.tickets or [], key=lambda t: (-t.points, t.id))


def hand_layout(view: CardGameView) -> HandLayout:
    """Place the header, the cards, the stack (when shown), the offered tickets and the tickets held."""
    y = 86
    held = [(kind, (view.hand or {}).get(kind, 0)) for kind in KIND_NAMES if (view.hand or {}).get(kind, 0) > 0]
    layout = HandLayout(size=(WIDTH, 0), cards_top=y)
    step = min(CARD_W + 56, (WIDTH - 2 * PAD) / max(1, len(held)))
    for k, (kind, _) in enumerate(held):
        x = PAD + k * step
        layout.cards[kind] = (x, y + 30, x + CARD_W, y + 30 + CARD_H)
    y += 30 + CARD_H + SECTION_GAP
    if view.stack is not None:
        layout.stack_top = y
        y += 30 + 40 + SECTION_GAP
    if view.offered:
        layout.offered_top = y
        layout.offered = _tile_boxes(view.offered, y + 32)
        y += 32 + _tiles_height(len(view.offered)) + SECTION_GAP
    if view.tickets or not view.offered:  # at the opening there is nothing held yet to show
        layout.tickets_top = y
        layout.tickets = _tile_boxes(held_order(view), y + 32)
        y += 32 + _tiles_height(len(view.tickets or [])) + SECTION_GAP
    layout.size = (WIDTH, y + PAD - SECTION_GAP)
    return layout


def hand_image(view: CardGameView, labels: Labels, names: Names) -> Image.Image:
    """Draw a seat's hand from that seat's view."""
    if view.seat is None or view.hand is None:
        raise ValueError("a hand is drawn from a seat's own view")
    layout = hand_layout(view)
    image = Image.new("RGB", layout.size, PAPER)
    draw = ImageDraw.Draw(image)
    seat = view.seat
    b = badge(seat, 44)
    image.paste(b, (PAD, 20), b)
    title, face = fitted(word(labels, "hand.title", player=player_name(names, seat)), 28, 640, bold=True)
    draw.text((PAD + 58, 26), title, font=face, fill=PAPER_TEXT)
    status, status_ink = _status(view, labels, names)
    text, small = fitted(status, 18, WIDTH - 2 * PAD - 700)
    draw.text((WIDTH - PAD, 34), text, font=small, fill=status_ink, anchor="ra")
    heading = font(18, bold=True)
    total = sum(view.hand.values())
    draw.text((PAD, layout.cards_top), f"{word(labels, 'hand.cards')} · {total}", font=heading, fill=PAPER_MUTED)
    if not layout.cards:
        draw.text((PAD, layout.cards_top + 60), word(labels, "hand.no_cards"), font=font(20), fill=PAPER_MUTED)
    count_face = font(26, bold=True)
    for kind, box in layout.cards.items():
        paste_card(image, box[0], box[1], kind, CARD_W, CARD_H)
        draw.text((box[2] + 8, box[3]), f"×{view.hand[kind]}", font=count_face, fill=PAPER_TEXT, anchor="ld")
    if layout.stack_top is not None and view.stack is not None:
        size = sum(view.stack.values())
        draw.text((PAD, layout.stack_top), f"{word(labels, 'hand.stack')} · {size}", font=heading, fill=PAPER_MUTED)
        if size:
            paste_counts(image, PAD, layout.stack_top + 32, view.stack, width=26, height=36)
        else:
            draw.text((PAD, layout.stack_top + 36), word(labels, "hand.stack_empty"), font=font(18), fill=PAPER_MUTED)
    if layout.offered_top is not None and view.offered:
        least = 1 if view.phase == "opening" else 0
        key = "hand.offered_opening" if least else "hand.offered"
        draw.text(
            (PAD, layout.offered_top), word(labels, key, count=len(view.offered)), font=heading, fill=PAPER_ACCENT
        )
        for number, ticket in enumerate(view.offered, start=1):
            ticket_tile(
                image, layout.offered[ticket.id], ticket, labels, edge=PAPER_ACCENT, edge_width=3, number=number
            )
    held = held_order(view)
    if layout.tickets_top is not None:
        top = layout.tickets_top
        draw.text((PAD, top), f"{word(labels, 'hand.tickets')} · {len(held)}", font=heading, fill=PAPER_MUTED)
        if held:
            _needs(image, draw, held, labels, top)
        else:
            draw.text((PAD, top + 36), word(labels, "hand.no_tickets"), font=font(18), fill=PAPER_MUTED)
    for ticket in held:
        ticket_tile(image, layout.tickets[ticket.id], ticket, labels)
    return image


def render_hand(view: CardGameView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def _needs(image: Image.Image, draw: ImageDraw.ImageDraw, held: list[TicketView], labels: Labels, top: int) -> None:
    """Right of the tickets' heading: the cards all the tickets held need, per colour."""
    need = {c: sum(t.cards.get(c, 0) for t in held) for c in COLORS}
    need = {c: n for c, n in need.items() if n}
    chips = counts_width(need, width=20, size=16, gap=8)
    x = WIDTH - PAD - chips
    label = word(labels, "hand.need")
    draw.text((x - 8, top + 2), label, font=font(16), fill=PAPER_MUTED, anchor="ra")
    paste_counts(image, x, top - 4, need, width=20, height=28, size=16, gap=8)


def _status(view: CardGameView, labels: Labels, names: Names) -> tuple[str, tuple[int, int, int]]:
    """Top right: whether it is this player's turn (or choice), and whose it is otherwise."""
    if view.phase == "over":
        return word(labels, "status.over"), PAPER_MUTED
    if view.seat in view.to_act:
        return word(labels, "hand.your_move"), PAPER_ACCENT
    if view.phase == "opening":
        return word(labels, "hand.others_choosing"), PAPER_MUTED
    return word(labels, "hand.waiting", player=player_name(names, view.current)), PAPER_MUTED
