"""The ticket choice: each offered ticket as a card with its two cities, its points and a small map of it.

Like the printed tickets, every card shows where the two cities lie; the player's own trains are drawn on the
small maps too, so it is plain which tickets are nearly done already.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.minimap import MiniMap
from render.ttr.palette import DARK_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.text import Labels, city_names, fitted, picture_text
from rules.ttr.maps import load_map
from rules.ttr.view import SeatView, TicketView

CARD_MAP_W = 440
GAP = 20
LONG_BAND: RGB = (40, 70, 140)
BAND: RGB = (150, 62, 40)


def ticket_choice_image(view: SeatView, labels: Labels) -> Image.Image:
    """Draw the tickets on offer to this seat (at the opening or after drawing tickets)."""
    offered = view.offered or view.tickets
    game_map = load_map(view.map)
    cities = city_names(labels, game_map)
    own = sorted(t for t, s in view.owners.items() if s == view.seat)
    cards = [_ticket_card(view, ticket, cities, labels, own) for ticket in offered]
    columns = 2 if len(cards) == 4 else max(1, min(3, len(cards)))
    rows = max(1, -(-len(cards) // columns))
    card_w = CARD_MAP_W + 16
    card_h = cards[0].height if cards else 120
    width = columns * card_w + (columns + 1) * GAP
    height = 86 + rows * (card_h + GAP) + GAP
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    opening = view.phase == "opening"
    keep = game_map.rules.opening_keep if opening else game_map.rules.ticket_keep
    title, face = fitted(picture_text(labels, "choice.title"), 28, width - 2 * GAP, bold=True)
    draw.text((GAP, 18), title, font=face, fill=PAPER_TEXT)
    sub, face = fitted(picture_text(labels, "choice.keep", count=min(keep, len(offered))), 18, width - 2 * GAP)
    draw.text((GAP, 54), sub, font=face, fill=PAPER_MUTED)
    for k, card in enumerate(cards):
        x = GAP + (k % columns) * (card_w + GAP)
        y = 86 + (k // columns) * (card_h + GAP)
        image.paste(card, (x, y))
    return image


def render_ticket_choice(view: SeatView, labels: Labels) -> bytes:
    """The ticket choice as PNG bytes, for the player's private reply."""
    return encode(ticket_choice_image(view, labels))


def _ticket_card(
    view: SeatView, ticket: TicketView, cities: dict[str, str], labels: Labels, own: list[int]
) -> Image.Image:
    """One ticket: a coloured band with the route and points over a small map marking both cities."""
    mini = MiniMap(view.map, CARD_MAP_W)
    mini.trains(own, view.players[view.seat].color, width=2.5)
    mini.ticket(ticket.a, ticket.b, (255, 255, 255), (cities[ticket.a], cities[ticket.b]))
    picture = mini.finish()
    width, band = CARD_MAP_W + 16, 58
    card = Image.new("RGB", (width, band + picture.height + 8), (255, 255, 255))
    draw = ImageDraw.Draw(card)
    color = LONG_BAND if ticket.long else BAND
    draw.rectangle((0, 0, width, band), fill=color)
    draw.ellipse((width - 52, 7, width - 8, 51), fill=(255, 255, 255), outline=DARK_INK, width=2)
    draw.text((width - 30, 29), str(ticket.points), font=font(22, bold=True), fill=DARK_INK, anchor="mm")
    route, face = fitted(f"{cities[ticket.a]} – {cities[ticket.b]}", 20, width - 76, bold=True)
    draw.text((12, 8 if ticket.long else 16), route, font=face, fill=(255, 255, 255))
    if ticket.long:
        draw.text((12, 34), picture_text(labels, "choice.long"), font=font(14), fill=(220, 228, 245))
    card.paste(picture, (8, band + 4))
    draw.rectangle((0, 0, width - 1, card.height - 1), outline=PAPER_LINE, width=2)
    return card
