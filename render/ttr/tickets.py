"""The ticket choice, laid out for the chat: as wide as it is tall or wider, so the chat shows it across its column.
The offered tickets are stacked one per row on the left, each with a small map of where it runs, its points and both
cities big; what the player holds (cards, tickets already kept) is in a column on the right. Every size reads at
half on a phone (about 450 px wide).

Each row's map also shows the player's own trains and the ends of the tickets already held, so it is plain which
offered tickets go with what the player has. Names on the maps never cover a ticket's end dot.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.holdings import draw_cards, draw_tickets, tickets_height
from render.ttr.minimap import MiniMap
from render.ttr.palette import DARK_INK, LIGHT_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.text import Labels, city_names, fitted, picture_text
from rules.ttr.actions import KeepTickets
from rules.ttr.maps import load_map
from rules.ttr.view import SeatView, TicketView

WIDTH = 900
"""Twice the phone's 450 px: every size below reads at half on a phone."""
PAD = 24
GAP = 22
ROW_PAD = 8
ROW_GAP = 10
OFFERED_W = 540
"""The offered tickets' column, on the left; what the player holds takes the rest, on the right."""
MAP_W = 270
CITY_SIZE = 30
NAME_SIZE = 16
CARD = (52, 76)
HELD_TEXT = 20
HEADING = 22
HEADING_LINE = 28
TOP = 112
LONG_BAND: RGB = (40, 70, 140)
BAND: RGB = (150, 62, 40)
HELD: RGB = (150, 144, 136)
"""End dots of the tickets already held, quieter than the offered one."""


def ticket_choice_image(view: SeatView, labels: Labels) -> Image.Image:
    """Draw the tickets on offer to this seat (at the opening or after drawing tickets) beside what it holds."""
    offered = view.offered or view.tickets
    cities = city_names(labels, load_map(view.map))
    rows = [_ticket_row(view, ticket, cities, labels) for ticket in offered]
    held_x = PAD + OFFERED_W + GAP
    held = _held(view, cities, labels, WIDTH - PAD - held_x)
    height = TOP + max(sum(r.height + ROW_GAP for r in rows) - ROW_GAP, held.height) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title, face = fitted(picture_text(labels, "choice.title"), 38, WIDTH - 2 * PAD, bold=True)
    draw.text((PAD, 16), title, font=face, fill=PAPER_TEXT)
    keep = keep_at_least(view)
    sub, face = fitted(picture_text(labels, "choice.keep", count=keep, offered=len(offered)), 28, WIDTH - 2 * PAD)
    draw.text((PAD, 64), sub, font=face, fill=PAPER_MUTED)
    y = TOP
    for row in rows:
        image.paste(row, (PAD, y))
        y += row.height + ROW_GAP
    image.paste(held, (held_x, TOP))
    return image


def render_ticket_choice(view: SeatView, labels: Labels) -> bytes:
    """The ticket choice as PNG bytes, for the player's private reply."""
    return encode(ticket_choice_image(view, labels))


def _held(view: SeatView, cities: dict[str, str], labels: Labels, width: int) -> Image.Image:
    """What the player holds, in a column `width` pixels wide: the train cards, then the tickets already kept."""
    per_line = max(1, (width + 10) // (CARD[0] + 14))
    hand = [(colour, count) for colour, count in view.hand.items() if count]
    card_lines = max(1, -(-len(hand) // per_line))
    card_line_h = CARD[1] + 34
    done = sum(t.completed for t in view.tickets)
    cards_heading = picture_text(labels, "choice.your_cards", count=sum(view.hand.values()))
    tickets_heading = (
        picture_text(labels, "choice.your_tickets", done=done, count=len(view.tickets))
        if view.tickets
        else picture_text(labels, "choice.no_tickets_yet")
    )
    cards_lines, tickets_lines = _heading(cards_heading, width), _heading(tickets_heading, width)
    cards_top = len(cards_lines) * HEADING_LINE + 12
    tickets_top = cards_top + card_lines * card_line_h + 16
    tickets_h = len(tickets_lines) * HEADING_LINE + 12
    height = tickets_top + tickets_h + (tickets_height(len(view.tickets), HELD_TEXT) if view.tickets else 0)
    column = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(column)
    _draw_heading(draw, cards_lines, 0, width)
    for k in range(card_lines):
        line = dict(hand[k * per_line : (k + 1) * per_line])
        draw_cards(column, line, labels, (0, cards_top + k * card_line_h, width), CARD)
    _draw_heading(draw, tickets_lines, tickets_top, width)
    if view.tickets:
        box = (0, tickets_top + tickets_h, width)
        draw_tickets(draw, view.tickets, cities, labels, box, over=False, size=HELD_TEXT, marks_only=True)
    return column


def keep_at_least(view: SeatView) -> int:
    """The fewest tickets the player may keep: the smallest keep among the legal moves, else the map's rule."""
    sizes = [len(c.action.tickets) for c in view.legal if isinstance(c.action, KeepTickets)]
    if sizes:
        return min(sizes)
    rules = load_map(view.map).rules
    return min(rules.opening_keep if view.phase == "opening" else rules.ticket_keep, len(view.offered))


def ticket_map(view: SeatView, ticket: TicketView, cities: dict[str, str]) -> MiniMap:
    """The small map of one offered ticket (named ends), over the player's trains and held tickets' ends."""
    mini = MiniMap(view.map, MAP_W, name_size=NAME_SIZE)
    mini.trains(sorted(t for t, s in view.owners.items() if s == view.seat), view.players[view.seat].color, width=3)
    for held in view.tickets:
        mini.ticket(held.a, held.b, HELD, line=False)
    mini.ticket(ticket.a, ticket.b, LONG_BAND if ticket.long else BAND, (cities[ticket.a], cities[ticket.b]))
    return mini


def _ticket_row(view: SeatView, ticket: TicketView, cities: dict[str, str], labels: Labels) -> Image.Image:
    """One offered ticket: its map on the left; on the right its points (and 'long route' beside them), then both
    cities big."""
    picture = ticket_map(view, ticket, cities).finish()
    row = Image.new("RGB", (OFFERED_W, picture.height + 2 * ROW_PAD), (255, 255, 255))
    draw = ImageDraw.Draw(row)
    band = LONG_BAND if ticket.long else BAND
    draw.rectangle((0, 0, 9, row.height), fill=band)
    row.paste(picture, (ROW_PAD + 8, ROW_PAD))
    x0 = ROW_PAD + 8 + picture.width + 18
    room = OFFERED_W - x0 - 12
    r = 28
    line = round(CITY_SIZE * 1.3)
    group = 2 * r + 12 + 2 * line
    top = (row.height - group) // 2
    cx, cy = x0 + r, top + r
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=band, outline=DARK_INK, width=2)
    draw.text((cx, cy), str(ticket.points), font=font(28, bold=True), fill=LIGHT_INK, anchor="mm")
    points = picture_text(labels, "choice.points", count=ticket.points)
    beside = room - 2 * r - 12
    if ticket.long:
        words, face = fitted(points, 20, beside)
        draw.text((cx + r + 12, cy - 2), words, font=face, fill=PAPER_MUTED, anchor="ld")
        words, face = fitted(picture_text(labels, "choice.long"), 20, beside, bold=True)
        draw.text((cx + r + 12, cy + 2), words, font=face, fill=band, anchor="la")
    else:
        words, face = fitted(points, 22, beside)
        draw.text((cx + r + 12, cy), words, font=face, fill=PAPER_MUTED, anchor="lm")
    y = top + 2 * r + 12
    for k, city in enumerate((ticket.a, ticket.b)):
        name = ("" if k == 0 else "→ ") + cities[city]
        text, face = fitted(name, CITY_SIZE, room, bold=True)
        draw.text((x0, y + k * line), text, font=face, fill=PAPER_TEXT)
    draw.rectangle((0, 0, OFFERED_W - 1, row.height - 1), outline=PAPER_LINE, width=2)
    return row


def _heading(text: str, room: int) -> list[str]:
    """A heading of the held column as lines: two (cut at the space nearest its middle) rather than shrunk small."""
    if font(HEADING, bold=True).getlength(text) <= room or " " not in text:
        return [text]
    cut = min((i for i, c in enumerate(text) if c == " "), key=lambda i: abs(2 * i - len(text)))
    return [text[:cut], text[cut + 1 :]]


def _draw_heading(draw: ImageDraw.ImageDraw, lines: list[str], top: int, room: int) -> None:
    for k, line in enumerate(lines):
        words, face = fitted(line, HEADING, room, bold=True)
        draw.text((0, top + k * HEADING_LINE), words, font=face, fill=PAPER_MUTED)
