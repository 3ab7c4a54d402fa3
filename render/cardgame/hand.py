"""A player's private hand, laid out for a phone: one column, large text. The tickets offered to choose from come
first (one per line: points, cities, the cards a stack must supply, the big cities named), then the train cards
held by colour with their counts, then the tickets held, the completed ones marked.

Drawn from the seat's own view. The Train Stack is shown only where the view holds it (the beginners' variant,
or once the game is over): the stack is hidden from its owner too. A ticket counts as completed once it has scored
at the 4-player first scoring, or, where the owner sees the stack, once the stack already covers it (R-CG-13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.cardgame.pieces import BONUS_EDGE, PAPER_ACCENT, TICKET_OPEN, Box, counts_width, paste_counts
from render.cardgame.words import city_word, route_word, word
from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.encode import encode
from render.ttr.palette import GOOD, LIGHT_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.panel import badge
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.cards import COLORS, KIND_NAMES, kind_of
from rules.cardgame.scoring import score_stack
from rules.cardgame.view import CardGameView, TicketView

WIDTH = 720
PAD = 24
CARD_W, CARD_H = 52, 74
OFFER_H = 104
HELD_H = 60
GAP = 10
SECTION_GAP = 26
HEADING = 22
EARLIER: RGB = (52, 120, 170)
"""Tickets completed at the first scoring (the same blue as the score sheet's)."""


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
    scored_top: int | None = None
    scored: dict[int, Box] = field(default_factory=dict)
    """Tickets completed at the 4-player first scoring (already scored, set aside)."""


def held_order(view: CardGameView) -> list[TicketView]:
    """The tickets held, most points first (ties by id), as the picture lists them."""
    return sorted(view.tickets or [], key=lambda t: (-t.points, t.id))


def scored_first(view: CardGameView) -> list[TicketView]:
    """This seat's tickets completed at the 4-player first scoring (set aside, already scored)."""
    mine = next((s for s in view.first_scoring or [] if s.seat == view.seat), None)
    return [t.ticket for t in mine.tickets if t.completed] if mine is not None else []


def covered_by_stack(view: CardGameView) -> set[int]:
    """Tickets held that the stack, where its owner may see it, already completes (the scoring's own assignment)."""
    if view.stack is None or not view.tickets or view.seat is None:
        return set()
    stack = [0] * len(KIND_NAMES)
    for name, count in view.stack.items():
        kind = kind_of(name)
        if kind is not None:
            stack[kind] = count
    record = score_stack(view.seat, stack, [t.id for t in view.tickets])
    return {s.ticket for s in record.completed}


def hand_layout(view: CardGameView) -> HandLayout:
    """Place the header, the offered tickets, the cards, the stack (when shown) and the tickets held."""
    layout = HandLayout(size=(WIDTH, 0))
    y = 84
    if view.offered:
        layout.offered_top = y
        y += 40
        for ticket in view.offered:
            layout.offered[ticket.id] = (PAD, y, WIDTH - PAD, y + OFFER_H)
            y += OFFER_H + GAP
        y += SECTION_GAP - GAP
    layout.cards_top = y
    held = [kind for kind in KIND_NAMES if (view.hand or {}).get(kind, 0) > 0]
    step = min(CARD_W + 22, (WIDTH - 2 * PAD) / max(1, len(held)))
    for k, kind in enumerate(held):
        x = PAD + k * step
        layout.cards[kind] = (x, y + 36, x + CARD_W, y + 36 + CARD_H)
    y += 36 + CARD_H + 34 + SECTION_GAP
    if view.stack is not None:
        layout.stack_top = y
        y += 36 + 40 + SECTION_GAP
    if view.tickets or not view.offered:  # at the opening there is nothing held yet to show
        layout.tickets_top = y
        y += 40 + (36 if view.tickets else 40)
        for ticket in held_order(view):
            layout.tickets[ticket.id] = (PAD, y, WIDTH - PAD, y + HELD_H)
            y += HELD_H + GAP
        y += SECTION_GAP - GAP
    scored = scored_first(view)
    if scored:
        layout.scored_top = y
        y += 40
        for ticket in scored:
            layout.scored[ticket.id] = (PAD, y, WIDTH - PAD, y + HELD_H)
            y += HELD_H + GAP
        y += SECTION_GAP - GAP
    layout.size = (WIDTH, y + PAD - SECTION_GAP + GAP)
    return layout


def hand_image(view: CardGameView, labels: Labels, names: Names) -> Image.Image:
    """Draw a seat's hand from that seat's view."""
    if view.seat is None or view.hand is None:
        raise ValueError("a hand is drawn from a seat's own view")
    layout = hand_layout(view)
    image = Image.new("RGB", layout.size, PAPER)
    draw = ImageDraw.Draw(image)
    seat = view.seat
    b = badge(seat, 46)
    image.paste(b, (PAD, 18), b)
    status, status_ink = _status(view, labels, names)
    status_face = font(22, bold=True)
    status_w = min(status_face.getlength(status), 240)
    line, face = fitted(status, 22, status_w, bold=True, minimum=16)
    draw.text((WIDTH - PAD, 41), line, font=face, fill=status_ink, anchor="rm")
    title, face = fitted(
        word(labels, "hand.title", player=player_name(names, seat)),
        30,
        WIDTH - 2 * PAD - 80 - status_w,
        bold=True,
        minimum=18,
    )
    draw.text((PAD + 60, 41), title, font=face, fill=PAPER_TEXT, anchor="lm")
    if layout.offered_top is not None and view.offered:
        least = 1 if view.phase == "opening" else 0
        key = "hand.offered_opening" if least else "hand.offered"
        line, face = fitted(word(labels, key, count=len(view.offered)), 24, WIDTH - 2 * PAD, bold=True, minimum=16)
        draw.text((PAD, layout.offered_top), line, font=face, fill=PAPER_ACCENT)
        for number, ticket in enumerate(view.offered, start=1):
            _offered(image, draw, layout.offered[ticket.id], ticket, number, labels)
    _cards(image, draw, view, layout, labels)
    if layout.stack_top is not None and view.stack is not None:
        _stack(image, draw, view.stack, layout.stack_top, labels)
    if layout.tickets_top is not None:
        _held(image, draw, view, layout, labels)
    if layout.scored_top is not None:
        _heading(draw, layout.scored_top, word(labels, "hand.scored_first", count=len(layout.scored)))
        for ticket in scored_first(view):
            _ticket_line(image, draw, layout.scored[ticket.id], ticket, labels, EARLIER)
    return image


def render_hand(view: CardGameView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def _heading(draw: ImageDraw.ImageDraw, y: float, text: str) -> None:
    """A section's heading."""
    line, face = fitted(text, HEADING, WIDTH - 2 * PAD, bold=True, minimum=16)
    draw.text((PAD, y), line, font=face, fill=PAPER_MUTED)


def _cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: HandLayout, labels: Labels
) -> None:
    """The train cards held, one card per colour with its count under it."""
    hand = view.hand or {}
    _heading(draw, layout.cards_top, word(labels, "hand.cards_count", count=sum(hand.values())))
    if not layout.cards:
        draw.text((PAD, layout.cards_top + 60), word(labels, "hand.no_cards"), font=font(22), fill=PAPER_MUTED)
    count_face = font(26, bold=True)
    for kind, box in layout.cards.items():
        paste_card(image, box[0], box[1], kind, CARD_W, CARD_H)
        draw.text(((box[0] + box[2]) / 2, box[3] + 4), f"×{hand[kind]}", font=count_face, fill=PAPER_TEXT, anchor="ma")


def _stack(image: Image.Image, draw: ImageDraw.ImageDraw, stack: dict[str, int], top: int, labels: Labels) -> None:
    """The owner's Train Stack (beginners' variant): its cards by colour."""
    size = sum(stack.values())
    _heading(draw, top, word(labels, "hand.stack_count", count=size))
    if size:
        paste_counts(image, PAD, top + 36, stack, width=28, height=38, size=22)
    else:
        draw.text((PAD, top + 40), word(labels, "hand.stack_empty"), font=font(20), fill=PAPER_MUTED)


def _offered(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, ticket: TicketView, number: int, labels: Labels
) -> None:
    """An offered ticket on a line of its own: its number, points, cities; the cards it needs and its big cities."""
    x0, y0, x1, _y1 = box
    draw.rounded_rectangle(box, radius=12, fill=(255, 255, 255), outline=PAPER_ACCENT, width=3)
    draw.text((x0 + 28, y0 + 30), str(number), font=font(30, bold=True), fill=PAPER_MUTED, anchor="mm")
    left = x0 + 54
    _points(draw, (left, y0 + 10, left + 62, y0 + 52), ticket.points, TICKET_OPEN)
    text_x = left + 76
    route, face = fitted(route_word(labels, ticket.a, ticket.b), 30, x1 - text_x - 14, bold=True, minimum=18)
    draw.text((text_x, y0 + 31), route, font=face, fill=PAPER_TEXT, anchor="lm")
    _needs_and_cities(image, draw, ticket, text_x, y0 + 62, x1 - 14, labels)


def _needs_and_cities(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    ticket: TicketView,
    x: float,
    top: float,
    right: float,
    labels: Labels,
) -> None:
    """The cards a ticket needs from the stack, then a star and the big cities it names."""
    after = paste_counts(image, x, top, ticket.cards, width=22, height=31, size=22, gap=10)
    if ticket.big_cities and right - after > 80:
        draw_star_icon(draw, (after + 10, top + 15), 22, BONUS_EDGE)
        names = ", ".join(city_word(labels, c) for c in ticket.big_cities)
        text, face = fitted(names, 20, right - after - 26, bold=True, minimum=15)
        draw.text((after + 24, top + 15), text, font=face, fill=PAPER_TEXT, anchor="lm")


def _points(draw: ImageDraw.ImageDraw, box: Box, points: int, fill: RGB, mark: str = "") -> None:
    """A ticket's points on a coloured badge (a mark such as ✓ before them)."""
    draw.rounded_rectangle(box, radius=8, fill=fill)
    x0, y0, x1, y1 = box
    size = round((y1 - y0) * 0.62)
    draw.text(
        ((x0 + x1) / 2, (y0 + y1) / 2), f"{mark}{points}", font=font(size, bold=True), fill=LIGHT_INK, anchor="mm"
    )


def _held(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: HandLayout, labels: Labels
) -> None:
    """The tickets held, one per line; those the stack already covers (where its owner sees it) marked."""
    top = layout.tickets_top
    assert top is not None
    held = view.tickets or []
    covered = covered_by_stack(view)
    _heading(draw, top, word(labels, "hand.tickets_count", count=len(held)))
    if held:
        _needs(image, draw, held, labels, top + 38)
    else:
        draw.text((PAD, top + 44), word(labels, "hand.no_tickets"), font=font(20), fill=PAPER_MUTED)
    for ticket in held_order(view):
        done = ticket.id in covered
        tag = word(labels, "hand.covered") if done else ""
        _ticket_line(image, draw, layout.tickets[ticket.id], ticket, labels, GOOD if done else None, tag)


def _ticket_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: Box,
    ticket: TicketView,
    labels: Labels,
    done: RGB | None = None,
    tag: str = "",
) -> None:
    """A ticket on one line: points, cities, and the cards it needs, or, when completed (`done` is its colour),
    a tick and `tag` in that colour."""
    x0, y0, x1, y1 = box
    fill = done or TICKET_OPEN
    edge, width = (done, 3) if done else (PAPER_LINE, 2)
    draw.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=edge, width=width)
    _points(draw, (x0 + 10, y0 + 10, x0 + 74, y1 - 10), ticket.points, fill, "✓" if done else "")
    tag_face = font(18, bold=True)
    needs_w = counts_width(ticket.cards, width=20, size=20, gap=8)
    right_w = tag_face.getlength(tag) + 12 if tag else 0 if done else needs_w
    route, face = fitted(route_word(labels, ticket.a, ticket.b), 24, x1 - x0 - 104 - right_w, bold=True, minimum=16)
    draw.text((x0 + 88, (y0 + y1) / 2), route, font=face, fill=PAPER_TEXT, anchor="lm")
    if tag:
        draw.text((x1 - 12, (y0 + y1) / 2), tag, font=tag_face, fill=fill, anchor="rm")
    elif not done:
        top = y0 + (y1 - y0 - 28) / 2
        paste_counts(image, x1 - 12 - needs_w + 8, top, ticket.cards, width=20, height=28, size=20, gap=8)


def _needs(image: Image.Image, draw: ImageDraw.ImageDraw, held: list[TicketView], labels: Labels, y: float) -> None:
    """Under the tickets' heading: the cards all the tickets held need, per colour."""
    need = {c: sum(t.cards.get(c, 0) for t in held) for c in COLORS}
    need = {c: n for c, n in need.items() if n}
    label = word(labels, "hand.need")
    face = font(18)
    draw.text((PAD, y + 14), label, font=face, fill=PAPER_MUTED, anchor="lm")
    paste_counts(image, PAD + face.getlength(label) + 10, y, need, width=20, height=28, size=20, gap=8)


def _status(view: CardGameView, labels: Labels, names: Names) -> tuple[str, tuple[int, int, int]]:
    """Top right: whether it is this player's turn (or choice), and whose it is otherwise."""
    if view.phase == "over":
        return word(labels, "status.over"), PAPER_MUTED
    if view.seat in view.to_act:
        return word(labels, "hand.your_move"), PAPER_ACCENT
    if view.phase == "opening":
        return word(labels, "hand.others_choosing"), PAPER_MUTED
    return word(labels, "hand.waiting", player=player_name(names, view.current)), PAPER_MUTED
