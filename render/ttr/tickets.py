"""The ticket choice, made to read at phone width (about 450 px): the offered tickets stacked one per row, each with
big city names, its points and a small map of where it runs; then the player's cards and tickets already held.

Each row's map also shows the player's own trains and the ends of the tickets already held, so it is plain which
offered tickets go with what the player has. Names on the maps never cover a ticket's end dot.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.holdings import draw_cards, draw_tickets
from render.ttr.minimap import MiniMap
from render.ttr.palette import DARK_INK, LIGHT_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.text import Labels, city_names, fitted, picture_text
from rules.ttr.actions import KeepTickets
from rules.ttr.maps import load_map
from rules.ttr.view import SeatView, TicketView

WIDTH = 900
"""Twice the phone's 450 px: every size below reads at half on a phone."""
PAD = 24
ROW_PAD = 12
MAP_W = 440
CITY_SIZE = 34
NAME_SIZE = 20
CARD = (58, 84)
LONG_BAND: RGB = (40, 70, 140)
BAND: RGB = (150, 62, 40)
HELD: RGB = (150, 144, 136)
"""End dots of the tickets already held, quieter than the offered one."""


def ticket_choice_image(view: SeatView, labels: Labels) -> Image.Image:
    """Draw the tickets on offer to this seat (at the opening or after drawing tickets), then what it holds."""
    offered = view.offered or view.tickets
    cities = city_names(labels, load_map(view.map))
    rows = [_ticket_row(view, ticket, cities, labels) for ticket in offered]
    top = 118
    rows_h = sum(r.height + 14 for r in rows)
    held_top = top + rows_h + 10
    tickets_h = 44 + round(26 * 1.75) * len(view.tickets) if view.tickets else 30
    height = held_top + 44 + CARD[1] + 40 + 30 + tickets_h + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title, face = fitted(picture_text(labels, "choice.title"), 38, WIDTH - 2 * PAD, bold=True)
    draw.text((PAD, 18), title, font=face, fill=PAPER_TEXT)
    keep = keep_at_least(view)
    sub, face = fitted(picture_text(labels, "choice.keep", count=keep, offered=len(offered)), 28, WIDTH - 2 * PAD)
    draw.text((PAD, 70), sub, font=face, fill=PAPER_MUTED)
    y = top
    for row in rows:
        image.paste(row, (PAD, y))
        y += row.height + 14
    y = held_top
    _heading(draw, picture_text(labels, "choice.your_cards", count=sum(view.hand.values())), y)
    y = draw_cards(image, view.hand, labels, (PAD, y + 44, WIDTH - PAD), CARD) + 30
    if view.tickets:
        done = sum(t.completed for t in view.tickets)
        _heading(draw, picture_text(labels, "choice.your_tickets", done=done, count=len(view.tickets)), y)
        draw_tickets(draw, view.tickets, cities, labels, (PAD, y + 44, WIDTH - PAD), over=False, size=26)
    else:
        _heading(draw, picture_text(labels, "choice.no_tickets_yet"), y)
    return image


def render_ticket_choice(view: SeatView, labels: Labels) -> bytes:
    """The ticket choice as PNG bytes, for the player's private reply."""
    return encode(ticket_choice_image(view, labels))


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
    """One offered ticket: its map on the left; on the right its points, both cities big, and 'long route'."""
    picture = ticket_map(view, ticket, cities).finish()
    width = WIDTH - 2 * PAD
    row = Image.new("RGB", (width, picture.height + 2 * ROW_PAD), (255, 255, 255))
    draw = ImageDraw.Draw(row)
    band = LONG_BAND if ticket.long else BAND
    draw.rectangle((0, 0, 9, row.height), fill=band)
    row.paste(picture, (ROW_PAD + 8, ROW_PAD))
    x0 = ROW_PAD + 8 + picture.width + 24
    room = width - x0 - 16
    r = 42
    line = round(CITY_SIZE * 1.3)
    tag = picture_text(labels, "choice.long") if ticket.long else ""
    group = 2 * r + 20 + 2 * line + (40 if tag else 0)
    top = (row.height - group) // 2
    cx, cy = x0 + r, top + r
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=band, outline=DARK_INK, width=2)
    draw.text((cx, cy), str(ticket.points), font=font(38, bold=True), fill=LIGHT_INK, anchor="mm")
    points = picture_text(labels, "choice.points", count=ticket.points)
    draw.text((cx + r + 14, cy), points, font=font(24), fill=PAPER_MUTED, anchor="lm")
    y = top + 2 * r + 20
    for k, city in enumerate((ticket.a, ticket.b)):
        name = ("" if k == 0 else "→ ") + cities[city]
        text, face = fitted(name, CITY_SIZE, room, bold=True)
        draw.text((x0, y + k * line), text, font=face, fill=PAPER_TEXT)
    if tag:
        words, face = fitted(tag, 24, room, bold=True)
        draw.text((x0, y + 2 * line + 8), words, font=face, fill=band)
    draw.rectangle((0, 0, width - 1, row.height - 1), outline=PAPER_LINE, width=2)
    return row


def _heading(draw: ImageDraw.ImageDraw, text: str, top: int) -> None:
    words, face = fitted(text, 24, WIDTH - 2 * PAD, bold=True)
    draw.text((PAD, top), words, font=face, fill=PAPER_MUTED)
