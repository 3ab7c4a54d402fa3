"""A player's private hand, laid out for the chat in two columns, never taller than wide unless it holds too many
tickets to fit (then it scrolls). On the left, the train cards held by colour with their counts (a colour the
player's own Rail Yard holds is marked: it may not be played, R-CG-8) and the player's own Rail Yard: each group with
how many cards a robbery of it needs (R-CG-9). On the right, the tickets offered to choose from (one per line:
points, cities, the cards a stack must supply, the big cities named), the stack where shown, then the tickets held,
the completed ones marked.

Drawn from the seat's own view. The Train Stack is shown only where the view holds it (the beginners' variant,
or once the game is over): the stack is hidden from its owner too. A ticket counts as completed once it has scored
at the 4-player first scoring, or, where the owner sees the stack, once the stack already covers it (R-CG-13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from render.cardgame.pieces import (
    BONUS_EDGE,
    PAPER_ACCENT,
    TICKET_OPEN,
    Box,
    counts_width,
    fan_width,
    paste_counts,
    paste_group,
)
from render.cardgame.words import city_word, route_word, word
from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.encode import encode
from render.ttr.palette import BAD, GOOD, LIGHT_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.panel import badge
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.cards import COLORS, KIND_NAMES, kind_of
from rules.cardgame.scoring import score_stack
from rules.cardgame.view import CardGameView, TicketView, YardGroupView

WIDTH = 960
PAD = 24
GUTTER = 24
LEFT_W = 288
"""The left column: the cards held and the Rail Yard."""
RIGHT_X = PAD + LEFT_W + GUTTER
RIGHT_W = WIDTH - PAD - RIGHT_X
"""The right column: the tickets, wide enough for the longest route at full size."""
TOP = 84
"""Below the header (badge, title, whose move)."""
CARD_W, CARD_H = 52, 74
CARDS_PER_ROW = 3
CARD_STEP = LEFT_W / CARDS_PER_ROW
CARD_ROW = CARD_H + 34 + 12
OFFER_H = 104
HELD_H = 60
HELD_MIN = 52
"""Ticket lines shrink to this, when there are many, before the picture grows taller than wide."""
LISTED_H = 30
"""A ticket held, listed as a line of text beside a ticket choice."""
YARD_CARD = (40, 57)
YARD_ROW = YARD_CARD[1] + 14
GAP = 10
SECTION_GAP = 26
HEADING = 22
SMALL = 21
"""The smallest text: about 10 px when the picture shows 450 px wide."""
LINE = 28
NOTE_LINES = 2
"""Lines kept under the Rail Yard for what it means (wrapped to the column)."""
EARLIER: RGB = (52, 120, 170)
"""Tickets completed at the first scoring (the same blue as the score sheet's)."""


@dataclass
class HandLayout:
    """Where each thing of the hand picture goes (tests read it to find the cards)."""

    size: tuple[int, int]
    cards: dict[str, Box] = field(default_factory=dict)
    cards_top: int = 0
    yard_top: int = 0
    yard: dict[str, Box] = field(default_factory=dict)
    """The player's own Rail Yard groups by colour (each with what robbing it needs beside it)."""
    stack_top: int | None = None
    offered_top: int | None = None
    offered: dict[int, Box] = field(default_factory=dict)
    tickets_top: int | None = None
    tickets: dict[int, Box] = field(default_factory=dict)
    scored_top: int | None = None
    scored: dict[int, Box] = field(default_factory=dict)
    """Tickets completed at the 4-player first scoring (already scored, set aside)."""
    line_h: int = HELD_H
    """How tall each ticket line held is (lower when many must fit)."""
    listed: bool = False
    """Whether the tickets held are listed as text, a line each (beside a ticket choice)."""
    columns: int = 1


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


def own_yard(view: CardGameView) -> list[YardGroupView]:
    """The seat's own Rail Yard groups, in the order the table shows them."""
    return [] if view.seat is None else list(view.players[view.seat].yard)


def hand_layout(view: CardGameView) -> HandLayout:
    """Place the header, the cards and the Rail Yard on the left, the tickets on the right; ticket lines shrink so
    the picture is no taller than wide, as far as they can."""
    layout = HandLayout(size=(WIDTH, 0))
    y = TOP
    layout.cards_top = y
    kinds = [kind for kind in KIND_NAMES if (view.hand or {}).get(kind, 0) > 0]
    for k, kind in enumerate(kinds):
        x = PAD + (k % CARDS_PER_ROW) * CARD_STEP
        top = y + 36 + (k // CARDS_PER_ROW) * CARD_ROW
        layout.cards[kind] = (x, top, x + CARD_W, top + CARD_H)
    rows = max(1, -(-len(kinds) // CARDS_PER_ROW))
    y += 36 + rows * CARD_ROW - 12 + SECTION_GAP
    layout.yard_top = y
    y += 36
    for group in own_yard(view):
        layout.yard[group.color] = (PAD, y, PAD + fan_width(YARD_CARD[0], group.cards), y + YARD_CARD[1])
        y += YARD_ROW
    left_bottom = y + NOTE_LINES * LINE

    y = TOP
    if view.offered:
        layout.offered_top = y
        y += 40 + LINE  # its heading may take two lines
        for ticket in view.offered:
            layout.offered[ticket.id] = (RIGHT_X, y, WIDTH - PAD, y + OFFER_H)
            y += OFFER_H + GAP
        y += SECTION_GAP - GAP
    if view.stack is not None:
        layout.stack_top = y
        y += 36 + 40 + SECTION_GAP
    held, scored = held_order(view), scored_first(view)
    show_held = bool(view.tickets) or not view.offered  # at the opening there is nothing held yet to show
    headings = (76 if show_held else 0) + (40 + SECTION_GAP if scored else 0)
    if view.offered:  # beside a choice the tickets held are listed, a line of text each, two columns if need be
        layout.listed = True
        fits = y + headings + (len(held) + len(scored)) * LISTED_H + PAD <= WIDTH
        layout.columns = 1 if fits else 2
        layout.line_h = LISTED_H
    gap = 0 if layout.listed else GAP
    if (held or scored) and not layout.listed:
        room = (WIDTH - y - headings - PAD) / (len(held) + len(scored))
        layout.line_h = int(max(HELD_MIN, min(HELD_H, room - GAP)))
        gap = max(4, min(GAP, int(room) - layout.line_h))  # the lines close up last
    if show_held:
        layout.tickets_top = y
        y = _place(layout, layout.tickets, held, y + 40 + (36 if view.tickets else 40), gap)
        y += SECTION_GAP - gap
    if scored:
        layout.scored_top = y
        y = _place(layout, layout.scored, scored, y + 40, gap)
        y += SECTION_GAP - gap
    right_bottom = y - SECTION_GAP
    layout.size = (WIDTH, round(max(left_bottom, right_bottom) + PAD))
    return layout


def _place(layout: HandLayout, boxes: dict[int, Box], tickets: list[TicketView], y: int, gap: int) -> int:
    """Give each ticket its line in the right column (side by side in `layout.columns`); return the y below."""
    width = (RIGHT_W - GUTTER * (layout.columns - 1)) / layout.columns
    for index, ticket in enumerate(tickets):
        row, column = divmod(index, layout.columns)
        x = RIGHT_X + column * (width + GUTTER)
        top = y + row * (layout.line_h + gap)
        boxes[ticket.id] = (x, top, x + width, top + layout.line_h)
    rows = -(-len(tickets) // layout.columns)
    return y + rows * (layout.line_h + gap)


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
    status_w = min(status_face.getlength(status), 300)
    line, face = fitted(status, 22, status_w, bold=True, minimum=SMALL)
    draw.text((WIDTH - PAD, 41), line, font=face, fill=status_ink, anchor="rm")
    title, face = fitted(
        word(labels, "hand.title", player=player_name(names, seat)),
        30,
        WIDTH - 2 * PAD - 80 - status_w,
        bold=True,
        minimum=SMALL,
    )
    draw.text((PAD + 60, 41), title, font=face, fill=PAPER_TEXT, anchor="lm")
    if layout.offered_top is not None and view.offered:
        least = 1 if view.phase == "opening" else 0
        key = "hand.offered_opening" if least else "hand.offered"
        heading = word(labels, key, count=len(view.offered))
        for number, line in enumerate(_wrapped(heading, RIGHT_W, 2, bold=True)):
            draw.text(
                (RIGHT_X, layout.offered_top + number * LINE), line, font=font(SMALL, bold=True), fill=PAPER_ACCENT
            )
        for number, ticket in enumerate(view.offered, start=1):
            _offered(image, draw, layout.offered[ticket.id], ticket, number, labels)
    _cards(image, draw, view, layout, labels)
    _yard(image, draw, view, layout, labels)
    if layout.stack_top is not None and view.stack is not None:
        _stack(image, draw, view.stack, layout.stack_top, labels)
    if layout.tickets_top is not None:
        _held(image, draw, view, layout, labels)
    if layout.scored_top is not None:
        _heading(draw, RIGHT_X, layout.scored_top, word(labels, "hand.scored_first", count=len(layout.scored)))
        for ticket in scored_first(view):
            _ticket(image, draw, layout, layout.scored[ticket.id], ticket, labels, EARLIER)
    return image


def render_hand(view: CardGameView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def _heading(draw: ImageDraw.ImageDraw, x: float, y: float, text: str) -> None:
    """A section's heading, in the column starting at `x`."""
    width = LEFT_W if x == PAD else RIGHT_W
    line, face = fitted(text, HEADING, width, bold=True, minimum=SMALL)
    draw.text((x, y), line, font=face, fill=PAPER_MUTED)


def _cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: HandLayout, labels: Labels
) -> None:
    """The train cards held, one card per colour with its count under it; a colour the player's own Rail Yard
    holds is struck through: it may not be played (R-CG-8)."""
    hand = view.hand or {}
    _heading(draw, PAD, layout.cards_top, word(labels, "hand.cards_count", count=sum(hand.values())))
    if not layout.cards:
        draw.text((PAD, layout.cards_top + 60), word(labels, "hand.no_cards"), font=font(22), fill=PAPER_MUTED)
    count_face = font(26, bold=True)
    blocked = {group.color for group in own_yard(view)}
    for kind, box in layout.cards.items():
        paste_card(image, box[0], box[1], kind, CARD_W, CARD_H)
        draw.text(((box[0] + box[2]) / 2, box[3] + 4), f"×{hand[kind]}", font=count_face, fill=PAPER_TEXT, anchor="ma")
        if kind in blocked:
            _no_play(draw, box[2] - 2, box[1] + 2)  # on the card's top-right corner


def _no_play(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """The mark of a colour that may not be played now, centred on (cx, cy): a red "no entry" disc."""
    r = 13
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BAD, outline=LIGHT_INK, width=2)
    draw.rectangle((cx - r + 6, cy - 3, cx + r - 6, cy + 3), fill=LIGHT_INK)


def _yard(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: HandLayout, labels: Labels
) -> None:
    """The player's own Rail Yard: each group with its size and what robbing it takes (a play of more cards of its
    colour, R-CG-9), then what the yard means for the player's own plays (R-CG-8)."""
    groups = own_yard(view)
    _heading(draw, PAD, layout.yard_top, word(labels, "hand.yard"))
    count_face = font(24, bold=True)
    x = PAD + max((box[2] - box[0] for box in layout.yard.values()), default=0) + 12  # the counts in one column
    for group in groups:
        x0, y0, _x1, _y1 = layout.yard[group.color]
        paste_group(image, x0, y0, YARD_CARD[0], YARD_CARD[1], group.color, group.cards, group.locomotives)
        draw.text((x, y0 + 14), f"×{group.cards}", font=count_face, fill=PAPER_TEXT, anchor="lm")
        if group.locomotives:
            lx = x + count_face.getlength(f"×{group.cards}") + 8
            paste_card(image, lx, y0 + 2, "locomotive", 17, 24)
            draw.text((lx + 21, y0 + 14), str(group.locomotives), font=count_face, fill=PAPER_TEXT, anchor="lm")
        robbed = word(labels, "hand.yard_robbed_by", count=group.cards + 1)
        line, face = fitted(robbed, SMALL, PAD + LEFT_W - x, minimum=SMALL)
        draw.text((x, y0 + 44), line, font=face, fill=BAD, anchor="lm")
    top = layout.yard_top + 36 + len(groups) * YARD_ROW + (4 if groups else 6)
    indent = 0
    if groups:  # the mark the cards of these colours carry in the hand, before what it means
        _no_play(draw, PAD + 13, top + 14)
        indent = 34
    note = word(labels, "hand.yard_blocks" if groups else "hand.yard_empty")
    for number, line in enumerate(_wrapped(note, LEFT_W, NOTE_LINES, bold=False, indent=indent)):
        draw.text((PAD + (indent if number == 0 else 0), top + number * LINE), line, font=font(SMALL), fill=PAPER_MUTED)


def _wrapped(text: str, width: float, lines: int, *, bold: bool, indent: float = 0) -> list[str]:
    """`text` in at most `lines` lines of `width` pixels at the smallest size, the first `indent` pixels shorter
    (the last line cut with an ellipsis if it must be)."""
    face = font(SMALL, bold=bold)
    out: list[str] = []
    for chunk in text.split():
        if out and face.getlength(f"{out[-1]} {chunk}") <= width - (indent if len(out) == 1 else 0):
            out[-1] = f"{out[-1]} {chunk}"
        else:
            out.append(chunk)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return [_cut(line, face, width - (indent if number == 0 else 0)) for number, line in enumerate(out)]


def _cut(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text` cut with an ellipsis until it fits `width` pixels in `face`."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _stack(image: Image.Image, draw: ImageDraw.ImageDraw, stack: dict[str, int], top: int, labels: Labels) -> None:
    """The owner's Train Stack (beginners' variant): its cards by colour."""
    size = sum(stack.values())
    _heading(draw, RIGHT_X, top, word(labels, "hand.stack_count", count=size))
    if size:
        paste_counts(image, RIGHT_X, top + 36, stack, width=28, height=38, size=22)
    else:
        draw.text((RIGHT_X, top + 40), word(labels, "hand.stack_empty"), font=font(SMALL), fill=PAPER_MUTED)


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
    route, face = fitted(route_word(labels, ticket.a, ticket.b), 30, x1 - text_x - 14, bold=True, minimum=SMALL)
    draw.text((text_x, y0 + 31), route, font=face, fill=PAPER_TEXT, anchor="lm")
    _needs_and_cities(image, draw, ticket, left, y0 + 62, x1 - 14, labels)  # under the badge too: room for cities


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
    after = paste_counts(image, x, top, ticket.cards, width=22, height=31, size=22, gap=8)
    if ticket.big_cities and right - after > 80:
        draw_star_icon(draw, (after + 10, top + 15), 22, BONUS_EDGE)
        names = ", ".join(city_word(labels, c) for c in ticket.big_cities)
        text, face = fitted(names, SMALL, right - after - 26, bold=True, minimum=SMALL)
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
    _heading(draw, RIGHT_X, top, word(labels, "hand.tickets_count", count=len(held)))
    if held:
        _needs(image, draw, held, labels, top + 38)
    else:
        draw.text((RIGHT_X, top + 44), word(labels, "hand.no_tickets"), font=font(SMALL), fill=PAPER_MUTED)
    for ticket in held_order(view):
        done = ticket.id in covered
        tag = word(labels, "hand.covered") if done else ""
        _ticket(image, draw, layout, layout.tickets[ticket.id], ticket, labels, GOOD if done else None, tag)


def _ticket(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: HandLayout,
    box: Box,
    ticket: TicketView,
    labels: Labels,
    done: RGB | None = None,
    tag: str = "",
) -> None:
    """A ticket held: listed as text beside a ticket choice, else on a line of its own."""
    if not layout.listed:
        _ticket_line(image, draw, box, ticket, labels, done, tag)
        return
    x0, y0, x1, y1 = box
    middle = (y0 + y1) / 2
    points = f"{'✓' if done else ''}{ticket.points}"
    face = font(SMALL, bold=True)
    draw.text((x0 + 44, middle), points, font=face, fill=done or PAPER_ACCENT, anchor="rm")
    route, face = fitted(route_word(labels, ticket.a, ticket.b), SMALL, x1 - x0 - 54, minimum=SMALL)
    draw.text((x0 + 54, middle), route, font=face, fill=PAPER_TEXT, anchor="lm")


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
    _points(draw, (x0 + 10, y0 + 8, x0 + 74, y1 - 8), ticket.points, fill, "✓" if done else "")
    tag_face = font(SMALL, bold=True)
    needs_w = counts_width(ticket.cards, width=18, size=SMALL, gap=6)
    right_w = tag_face.getlength(tag) + 12 if tag else 0 if done else needs_w
    route, face = fitted(route_word(labels, ticket.a, ticket.b), 24, x1 - x0 - 104 - right_w, bold=True, minimum=SMALL)
    draw.text((x0 + 88, (y0 + y1) / 2), route, font=face, fill=PAPER_TEXT, anchor="lm")
    if tag:
        draw.text((x1 - 12, (y0 + y1) / 2), tag, font=tag_face, fill=fill, anchor="rm")
    elif not done:
        top = y0 + (y1 - y0 - 26) / 2
        paste_counts(image, x1 - 12 - needs_w + 6, top, ticket.cards, width=18, height=26, size=SMALL, gap=6)


def _needs(image: Image.Image, draw: ImageDraw.ImageDraw, held: list[TicketView], labels: Labels, y: float) -> None:
    """Under the tickets' heading: the cards all the tickets held need, per colour."""
    need = {c: sum(t.cards.get(c, 0) for t in held) for c in COLORS}
    need = {c: n for c, n in need.items() if n}
    label = word(labels, "hand.need")
    face = font(SMALL)
    draw.text((RIGHT_X, y + 14), label, font=face, fill=PAPER_MUTED, anchor="lm")
    x = RIGHT_X + face.getlength(label) + 10
    card, gap = next(  # closer together when many colours are needed, so the line stays in its column
        (
            (card, gap)
            for card, gap in ((20, 8), (17, 5), (14, 2))
            if x + counts_width(need, width=card, size=SMALL, gap=gap) <= WIDTH - PAD
        ),
        (14, 2),
    )
    paste_counts(image, x, y + (28 - card * 1.4) / 2, need, width=card, height=round(card * 1.4), size=SMALL, gap=gap)


def _status(view: CardGameView, labels: Labels, names: Names) -> tuple[str, tuple[int, int, int]]:
    """Top right: whether it is this player's turn (or choice), and whose it is otherwise."""
    if view.phase == "over":
        return word(labels, "status.over"), PAPER_MUTED
    if view.seat in view.to_act:
        return word(labels, "hand.your_move"), PAPER_ACCENT
    if view.phase == "opening":
        return word(labels, "hand.others_choosing"), PAPER_MUTED
    return word(labels, "hand.waiting", player=player_name(names, view.current)), PAPER_MUTED
