"""A player's private hand: train cards grouped by colour with counts, tickets with their state, a small map.

Drawn from the seat's own view only; the small map shows the player's trains and where each ticket runs,
green once connected.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.encode import encode
from render.ttr.minimap import MiniMap
from render.ttr.palette import (
    BAD,
    GOOD,
    PAPER,
    PAPER_LINE,
    PAPER_MUTED,
    PAPER_TEXT,
    RGB,
)
from render.ttr.panel import badge
from render.ttr.symbols import draw_station_icon, draw_train_icon
from render.ttr.text import Labels, Names, city_names, fitted, picture_text, player_name
from rules.ttr.board import CARD_NAMES
from rules.ttr.maps import load_map
from rules.ttr.view import SeatView, TicketView

WIDTH = 1160
PAD = 24
CARD_W, CARD_H = 66, 96
MAP_W = 560
ROW_H = 34
OPEN: RGB = (232, 140, 30)


def hand_image(view: SeatView, labels: Labels, names: Names) -> Image.Image:
    """Draw a seat's hand: header, cards by colour, tickets (connected or not), the player's map."""
    game_map = load_map(view.map)
    cities = city_names(labels, game_map)
    me = view.players[view.seat]
    mini = MiniMap(view.map, MAP_W)
    mini.trains(sorted(t for t, s in view.owners.items() if s == view.seat), me.color)
    for ticket in view.tickets:
        missed = BAD if view.result is not None else OPEN
        mini.ticket(ticket.a, ticket.b, GOOD if ticket.completed else missed, (cities[ticket.a], cities[ticket.b]))
    picture = mini.finish()
    list_h = 44 + max(1, len(view.tickets)) * ROW_H
    body_top = 86 + CARD_H + 56
    height = body_top + max(list_h, picture.height) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, draw, view, labels, names, game_map.rules.stations_per_player > 0)
    _cards(image, draw, view, labels, 86)
    list_w = WIDTH - MAP_W - 3 * PAD
    _tickets(draw, view.tickets, cities, labels, (PAD, body_top, PAD + list_w), view.result is not None)
    image.paste(picture, (WIDTH - MAP_W - PAD, body_top))
    draw.rectangle(
        (WIDTH - MAP_W - PAD - 1, body_top - 1, WIDTH - PAD, body_top + picture.height), outline=PAPER_LINE, width=2
    )
    return image


def render_hand(view: SeatView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def _header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, labels: Labels, names: Names, stations: bool
) -> None:
    me = view.players[view.seat]
    b = badge(me.color, 44)
    image.paste(b, (PAD, 20), b)
    title, face = fitted(picture_text(labels, "hand.title", player=player_name(names, view.seat)), 28, 560, bold=True)
    draw.text((PAD + 58, 26), title, font=face, fill=PAPER_TEXT)
    x = WIDTH - PAD
    items = [("cars", me.cars)]
    if stations:
        items.append(("stations", me.stations_left))
    value_face, word_face = font(24, bold=True), font(15)
    for icon, value in reversed(items):
        word = picture_text(labels, f"hand.{icon}")
        w = word_face.getlength(word)
        draw.text((x, 46), word, font=word_face, fill=PAPER_MUTED, anchor="ra")
        draw.text((x - w / 2, 18), str(value), font=value_face, fill=PAPER_TEXT, anchor="ma")
        icon_box = (x - w / 2 - 52, 20, x - w / 2 - 24, 42)
        if icon == "cars":
            draw_train_icon(draw, icon_box, PAPER_TEXT)
        else:
            draw_station_icon(
                draw, (icon_box[0] + 4, icon_box[1] - 2, icon_box[2] - 4, icon_box[3]), PAPER_LINE, PAPER_TEXT
            )
        x -= round(max(w, 80) + 40)


def _cards(image: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, labels: Labels, top: int) -> None:
    held = [(name, view.hand.get(name, 0)) for name in CARD_NAMES if view.hand.get(name, 0) > 0]
    heading = picture_text(labels, "hand.cards")
    draw.text((PAD, top), f"{heading} · {sum(n for _, n in held)}", font=font(18, bold=True), fill=PAPER_MUTED)
    if not held:
        draw.text((PAD, top + 40), picture_text(labels, "hand.no_cards"), font=font(20), fill=PAPER_MUTED)
        return
    step = min(CARD_W + 56, (WIDTH - 2 * PAD) / len(held))
    count_face = font(26, bold=True)
    for k, (name, count) in enumerate(held):
        x = PAD + k * step
        paste_card(image, x, top + 30, name, CARD_W, CARD_H)
        draw.text((x + CARD_W + 8, top + 30 + CARD_H), f"×{count}", font=count_face, fill=PAPER_TEXT, anchor="ld")


def _tickets(
    draw: ImageDraw.ImageDraw,
    tickets: list[TicketView],
    cities: dict[str, str],
    labels: Labels,
    box: tuple[int, int, int],
    over: bool,
) -> None:
    """The tickets, completed first; during play 'connected' or 'not yet', at the end 'completed' or 'missed'."""
    x0, top, x1 = box
    draw.text((x0, top), picture_text(labels, "hand.tickets"), font=font(18, bold=True), fill=PAPER_MUTED)
    if not tickets:
        draw.text((x0, top + 40), picture_text(labels, "hand.no_tickets"), font=font(20), fill=PAPER_MUTED)
        return
    done_word = picture_text(labels, "hand.won" if over else "hand.connected")
    open_word = picture_text(labels, "hand.lost" if over else "hand.open")
    state_w = max(font(14).getlength(done_word), font(14).getlength(open_word)) + 30
    for k, ticket in enumerate(sorted(tickets, key=lambda t: (not t.completed, -t.points, t.id))):
        y = top + 34 + k * ROW_H
        if k:
            draw.line((x0, y - 4, x1, y - 4), fill=PAPER_LINE, width=1)
        color = GOOD if ticket.completed else BAD if over else OPEN
        draw.rounded_rectangle((x0, y + 2, x0 + 38, y + 26), radius=6, fill=color)
        draw.text((x0 + 19, y + 14), str(ticket.points), font=font(16, bold=True), fill=(255, 255, 255), anchor="mm")
        route, face = fitted(f"{cities[ticket.a]} – {cities[ticket.b]}", 19, x1 - x0 - 52 - state_w, bold=True)
        draw.text((x0 + 50, y + 3), route, font=face, fill=PAPER_TEXT)
        mark = "✓ " + done_word if ticket.completed else ("✗ " if over else "… ") + open_word
        draw.text(
            (x1, y + 7),
            mark,
            font=font(14, bold=ticket.completed),
            fill=color,
            anchor="ra",
        )
