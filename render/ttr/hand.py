"""A player's private hand, laid out for the chat: as wide as it is tall or wider, so the chat shows it across its
column rather than shrinking it to fit its height. Cards by colour with big counts across the top, under the
player's name with cars (and stations) left; then the tickets, connected or not, beside a map of where the player
stands. Every size reads at half on a phone (about 450 px wide).

Drawn from the seat's own view only. The map shows other players' trains thin in their colours, the reader's own
bold, the tracks the reader's cards could claim now glowing on a white halo (`rules.ttr.reach`), closed double
tracks crossed out, and every ticket's ends, green once connected; its legend's swatches are drawn as the lines are.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.holdings import draw_cards, draw_tickets, ticket_color, tickets_height
from render.ttr.minimap import SWATCH, LineKind, MiniMap, draw_legend
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
GAP = 20
CARD = (74, 106)
TICKET_TEXT = 24
NAME_SIZE = 17
LEGEND_SIZE = 20
LEGEND_ROW = 30
MAP_W = 440
"""The map's column on the right; the tickets take the rest of the width, on the left."""
CARDS_TOP = 144
BODY_TOP = CARDS_TOP + 42 + CARD[1] + 54
"""Where the tickets and the map begin, under the cards and their counts."""
TICKETS_HEADING = 44
MOST_TICKETS = (WIDTH - BODY_TOP - PAD - TICKETS_HEADING) // tickets_height(1, TICKET_TEXT)
"""The most tickets a hand shows before it grows taller than it is wide (then it must scroll): 11."""


def hand_image(view: SeatView, labels: Labels, names: Names) -> Image.Image:
    """Draw a seat's hand: header with cars (and stations) left, cards, then its tickets beside the player's map."""
    game_map = load_map(view.map)
    cities = city_names(labels, game_map)
    picture = hand_map(view, cities).finish()
    over = view.result is not None
    legend = _legend_rows(view, labels)
    map_h = picture.height + 8 + len(legend) * LEGEND_ROW
    tickets_h = TICKETS_HEADING + tickets_height(len(view.tickets), TICKET_TEXT)
    height = BODY_TOP + max(map_h, tickets_h) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, draw, view, labels, names, game_map.rules.stations_per_player > 0)
    count = sum(view.hand.values())
    _heading(draw, picture_text(labels, "hand.cards_count", count=count), CARDS_TOP, WIDTH - 2 * PAD)
    draw_cards(image, view.hand, labels, (PAD, CARDS_TOP + 42, WIDTH - PAD), CARD)
    tickets_right = WIDTH - PAD - MAP_W - GAP
    done = sum(t.completed for t in view.tickets)
    key = "hand.tickets_won" if over else "hand.tickets_done"
    _heading(draw, picture_text(labels, key, done=done, count=len(view.tickets)), BODY_TOP, tickets_right - PAD)
    box = (PAD, BODY_TOP + TICKETS_HEADING, tickets_right)
    draw_tickets(draw, view.tickets, cities, labels, box, over=over, size=TICKET_TEXT, marks_only=True)
    left = WIDTH - PAD - MAP_W
    image.paste(picture, (left, BODY_TOP))
    frame = (left - 1, BODY_TOP - 1, left + picture.width, BODY_TOP + picture.height)
    draw.rectangle(frame, outline=PAPER_LINE, width=2)
    _legend(image, legend, (left, BODY_TOP + picture.height + 8))
    return image


def render_hand(view: SeatView, labels: Labels, names: Names) -> bytes:
    """A seat's hand as PNG bytes, for that player's private reply."""
    return encode(hand_image(view, labels, names))


def hand_map(view: SeatView, cities: dict[str, str]) -> MiniMap:
    """The player's map: others' trains thin, own bold, what the cards could claim now highlighted, tickets' ends."""
    mini = MiniMap(view.map, MAP_W, name_size=NAME_SIZE)
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


def _heading(draw: ImageDraw.ImageDraw, text: str, top: int, room: int) -> None:
    words, face = fitted(text, 24, room, bold=True)
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


def _legend_rows(view: SeatView, labels: Labels) -> list[list[tuple[LineKind, RGB, str]]]:
    """What the map's lines mean (own routes, routes the cards can claim now, the other players' routes, closed double
    tracks, tickets not yet connected), as many to a row as the map's width holds."""
    me = player_color(view.players[view.seat].color)
    other = next((p.color for p in view.players if p.seat != view.seat), view.seat)
    over = view.result is not None
    keys: list[tuple[LineKind, RGB]] = [("yours", me)]
    keys += [] if over else [("claimable", CARD_FILL["red"])]
    keys.append(("others", player_color(other)))
    keys += [("closed", CLOSED_FILL)] if view.closed else []
    keys += [("ticket", ticket_color(False, over))] if any(not t.completed for t in view.tickets) else []
    face = font(LEGEND_SIZE)
    rows: list[list[tuple[LineKind, RGB, str]]] = [[]]
    room = float(MAP_W)
    for kind, color in keys:
        words = picture_text(labels, f"hand.legend_{kind}")
        width = SWATCH[0] + 6 + face.getlength(words) + 18
        if rows[-1] and width > room:
            rows.append([])
            room = float(MAP_W)
        rows[-1].append((kind, color, words))
        room -= width
    return rows


def _legend(image: Image.Image, rows: list[list[tuple[LineKind, RGB, str]]], at: tuple[int, int]) -> None:
    """The legend under the map, each swatch drawn as its lines are (`draw_legend`)."""
    left, top = at
    for k, row in enumerate(rows):
        draw_legend(image, (left, top + k * LEGEND_ROW + LEGEND_ROW / 2, left + MAP_W), row, LEGEND_SIZE, PAPER_TEXT)
