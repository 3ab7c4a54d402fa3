"""A player's private hand, made to read at phone width (about 450 px): cards by colour with big counts, tickets
connected or not, cars and stations left, and a map of where the player stands.

Drawn from the seat's own view only. The map shows other players' trains thin in their colours, the reader's own
bold, the tracks the reader's cards could claim now glowing on a white halo (`rules.ttr.reach`), closed double
tracks crossed out, and every ticket's ends, green once connected; its legend's swatches are drawn as the lines are.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.holdings import draw_cards, draw_tickets, ticket_color
from render.ttr.minimap import LineKind, MiniMap, draw_legend
from render.ttr.palette import (
    CARD_FILL,
    CLOSED_FILL,
    DARK_INK,
    PAPER,
    PAPER_LINE,
    PAPER_MUTED,
    PAPER_TEXT,
    RGB,
    player_color,
)
from render.ttr.panel import badge
from render.ttr.symbols import draw_station_icon, draw_train_icon
from render.ttr.text import Labels, Names, city_names, fitted, picture_text, player_name
from rules.ttr.maps import load_map
from rules.ttr.reach import claimable_tracks
from rules.ttr.view import SeatView

WIDTH = 900
"""Twice the phone's 450 px: every size below reads at half on a phone."""
PAD = 24
CARD = (74, 106)
TICKET_TEXT = 27
NAME_SIZE = 19
LEGEND_SIZE = 20


def hand_image(view: SeatView, labels: Labels, names: Names) -> Image.Image:
    """Draw a seat's hand: header with cars (and stations) left, cards, tickets, then the player's map."""
    game_map = load_map(view.map)
    cities = city_names(labels, game_map)
    picture = hand_map(view, cities).finish()
    over = view.result is not None
    tickets_h = 52 + max(1, len(view.tickets)) * round(TICKET_TEXT * 1.75)
    cards_top = 160
    tickets_top = cards_top + 46 + CARD[1] + 60
    map_top = tickets_top + tickets_h + 16
    height = map_top + picture.height + 12 + 40 + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, draw, view, labels, names, game_map.rules.stations_per_player > 0)
    count = sum(view.hand.values())
    _heading(draw, picture_text(labels, "hand.cards_count", count=count), cards_top)
    draw_cards(image, view.hand, labels, (PAD, cards_top + 46, WIDTH - PAD), CARD)
    done = sum(t.completed for t in view.tickets)
    key = "hand.tickets_won" if over else "hand.tickets_done"
    _heading(draw, picture_text(labels, key, done=done, count=len(view.tickets)), tickets_top)
    draw_tickets(draw, view.tickets, cities, labels, (PAD, tickets_top + 44, WIDTH - PAD), over=over, size=TICKET_TEXT)
    image.paste(picture, (PAD, map_top))
    draw.rectangle((PAD - 1, map_top - 1, PAD + picture.width, map_top + picture.height), outline=PAPER_LINE, width=2)
    _legend(image, view, labels, map_top + picture.height + 12)
    return image


def render_hand(view: SeatView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def hand_map(view: SeatView, cities: dict[str, str]) -> MiniMap:
    """The player's map: others' trains thin, own bold, what the cards could claim now highlighted, tickets' ends."""
    mini = MiniMap(view.map, WIDTH - 2 * PAD, name_size=NAME_SIZE)
    colors = {p.seat: p.color for p in view.players}
    mini.closed(view.closed)
    mini.others(view.owners, view.seat, colors)
    mini.claimable(claimable_tracks(view))
    me = view.players[view.seat].color
    mini.trains(sorted(t for t, s in view.owners.items() if s == view.seat), me, width=7)
    mini.stations(sorted(c for c, s in view.stations.items() if s == view.seat), me)
    over = view.result is not None
    for ticket in sorted(view.tickets, key=lambda t: t.completed):
        color = ticket_color(ticket.completed, over)
        mini.ticket(ticket.a, ticket.b, color, (cities[ticket.a], cities[ticket.b]), line=not ticket.completed)
    return mini


def _heading(draw: ImageDraw.ImageDraw, text: str, top: int) -> None:
    words, face = fitted(text, 24, WIDTH - 2 * PAD, bold=True)
    draw.text((PAD, top), words, font=face, fill=PAPER_MUTED)


def _header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, labels: Labels, names: Names, stations: bool
) -> None:
    """The player's badge and name on the first line; the cars (and stations) left, big, on the second."""
    me = view.players[view.seat]
    b = badge(me.color, 56)
    image.paste(b, (PAD, 16), b)
    title = picture_text(labels, "hand.title", player=player_name(names, view.seat))
    words, face = fitted(title, 36, WIDTH - 2 * PAD - 72, bold=True)
    draw.text((PAD + 72, 44), words, font=face, fill=PAPER_TEXT, anchor="lm")
    items = [("cars", me.cars)] + ([("stations", me.stations_left)] if stations else [])
    value_face, word_face = font(38, bold=True), font(22)
    x = float(PAD)
    mid = 112
    for icon, value in items:
        if icon == "cars":
            draw_train_icon(draw, (x, mid - 16, x + 40, mid + 16), PAPER_TEXT)
        else:
            draw_station_icon(draw, (x + 4, mid - 18, x + 36, mid + 16), player_color(me.color), DARK_INK)
        x += 52
        draw.text((x, mid), str(value), font=value_face, fill=PAPER_TEXT, anchor="lm")
        x += value_face.getlength(str(value)) + 10
        word = picture_text(labels, f"hand.{icon}_left", count=value)
        draw.text((x, mid + 4), word, font=word_face, fill=PAPER_MUTED, anchor="lm")
        x += word_face.getlength(word) + 40


def _legend(image: Image.Image, view: SeatView, labels: Labels, top: int) -> None:
    """What the map's lines mean, each swatch drawn as its lines are: own routes, routes the cards can claim now,
    the other players' routes, closed double tracks, tickets not yet connected."""
    me = player_color(view.players[view.seat].color)
    other = next((p.color for p in view.players if p.seat != view.seat), view.seat)
    over = view.result is not None
    keys: list[tuple[LineKind, RGB]] = [("yours", me)]
    keys += [] if over else [("claimable", CARD_FILL["red"])]
    keys.append(("others", player_color(other)))
    keys += [("closed", CLOSED_FILL)] if view.closed else []
    keys += [("ticket", ticket_color(False, over))] if any(not t.completed for t in view.tickets) else []
    entries = [(kind, color, picture_text(labels, f"hand.legend_{kind}")) for kind, color in keys]
    draw_legend(image, (PAD, top + 14, WIDTH - PAD), entries, LEGEND_SIZE, PAPER_TEXT)
