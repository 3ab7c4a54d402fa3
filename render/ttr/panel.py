"""The players' panel under the board: each player's colour, number, name and score with cars, cards, tickets and
stations left, whose turn it is, the five face-up cards with the piles, and a key to the counters' icons.

Everything is sized to be read when Discord shows the whole picture about 450 px wide (text of 26 px and more on
a 1600 px picture); the turn message's text carries the full standings.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.cards import card_back_image, paste_card
from render.ttr.palette import (
    ACCENT,
    PANEL_ACTIVE,
    PANEL_BG,
    PANEL_CARD,
    PANEL_MUTED,
    PANEL_TEXT,
    RGB,
    WINNER_GLOW,
    ink_on,
    player_color,
)
from render.ttr.symbols import (
    draw_cards_icon,
    draw_star_icon,
    draw_station_icon,
    draw_ticket_icon,
    draw_train_icon,
)
from render.ttr.text import Labels, Names, fitted, picture_text, player_name
from rules.ttr.maps import load_map
from rules.ttr.view import PublicView

PAD = 16
PLAYERS_HEIGHT = 128
MARKET_HEIGHT = 124
PANEL_HEIGHT = PLAYERS_HEIGHT + MARKET_HEIGHT
CARD_W, CARD_H = 66, 94
COUNTER_TEXT = 28
CARD_FRAME: RGB = (132, 142, 162)
"""A light edge round each card on the dark panel, so a black card keeps its shape."""


@lru_cache(maxsize=16)
def badge(color_index: int, size: int) -> Image.Image:
    """A round badge in a player's colour with their number, smooth (drawn large and shrunk)."""
    big = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    color = player_color(color_index)
    draw.ellipse((2, 2, size * 4 - 3, size * 4 - 3), fill=(255, 255, 255))
    draw.ellipse((8, 8, size * 4 - 9, size * 4 - 9), fill=color)
    draw.text(
        (size * 2, size * 2 + 1), str(color_index + 1), font=font(size * 2, bold=True), fill=ink_on(color), anchor="mm"
    )
    return big.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")


def draw_panel(image: Image.Image, top: int, view: PublicView, labels: Labels, names: Names) -> None:
    """Draw the panel into `image` from row `top` to the bottom, across the whole width."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, image.width, image.height), fill=PANEL_BG)
    stations = load_map(view.map).rules.stations_per_player > 0
    n = max(1, len(view.players))
    cell = (image.width - 2 * PAD - (n - 1) * 10) / n
    for k, player in enumerate(view.players):
        x = PAD + k * (cell + 10)
        box = (round(x), top + 6, round(x + cell), top + PLAYERS_HEIGHT - 6)
        _player(image, draw, box, view, player.seat, names, stations)
    _market(image, draw, top + PLAYERS_HEIGHT, view, labels, stations)


def _player(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: PublicView,
    seat: int,
    names: Names,
    stations: bool,
) -> None:
    """One player: colour bar, numbered badge, name, score; then cars, cards, tickets and stations left."""
    x0, y0, x1, y1 = box
    player = view.players[seat]
    winner = view.result is not None and seat in view.result.winners
    active = seat in view.to_act
    color = player_color(player.color)
    draw.rounded_rectangle(box, radius=10, fill=PANEL_ACTIVE if active or winner else PANEL_CARD)
    if active or winner:
        draw.rounded_rectangle(box, radius=10, outline=WINNER_GLOW if winner else ACCENT, width=4)
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y0 + 12), radius=4, fill=color)
    b = badge(player.color, 46)
    image.paste(b, (x0 + 10, y0 + 18), b)
    score = str(_score(view, seat))
    score_face = font(32, bold=True)
    score_w = score_face.getlength(score)
    draw.text((x1 - 12, y0 + 41), score, font=score_face, fill=PANEL_TEXT, anchor="rm")
    draw_star_icon(draw, (x1 - 28 - score_w, y0 + 40), 26, WINNER_GLOW if winner else ACCENT)
    name_x = x0 + 64
    name, face = fitted(player_name(names, seat), 28, x1 - 46 - score_w - name_x, bold=True, minimum=22)
    draw.text((name_x, y0 + 41), name, font=face, fill=PANEL_TEXT, anchor="lm")
    items = [("cars", player.cars), ("cards", player.hand_size), ("tickets", player.ticket_count)]
    if stations:
        items.append(("stations", player.stations_left))
    step = (x1 - x0 - 16) / len(items)
    value_face = font(COUNTER_TEXT, bold=True)
    cy = y1 - 26
    for k, (icon, value) in enumerate(items):
        ix = x0 + 12 + k * step
        _icon(draw, icon, (ix, cy - 11, ix + 28, cy + 11), PANEL_MUTED, PANEL_CARD)
        draw.text((ix + 34, cy), str(value), font=value_face, fill=PANEL_TEXT, anchor="lm")


def _score(view: PublicView, seat: int) -> int:
    """Route points during play; the final total once the game is over."""
    for final in view.final or []:
        if final.seat == seat:
            return final.total
    return view.players[seat].route_points


def _icon(draw: ImageDraw.ImageDraw, name: str, box: tuple[float, float, float, float], ink: RGB, back: RGB) -> None:
    """A counter's icon: a car, two cards, a ticket or a station."""
    x0, y0, x1, y1 = box
    if name == "cars":
        draw_train_icon(draw, box, ink)
    elif name == "cards":
        draw_cards_icon(draw, (x0 + 3, y0 - 1, x1 - 3, y1 + 1), ink, back)
    elif name == "tickets":
        draw_ticket_icon(draw, box, ink, back)
    elif name == "stations":
        draw_station_icon(draw, (x0 + 4, y0 - 2, x1 - 4, y1), ink, back)
    else:
        draw_star_icon(draw, ((x0 + x1) / 2, (y0 + y1) / 2), y1 - y0 + 6, ACCENT)


def _market(
    image: Image.Image, draw: ImageDraw.ImageDraw, top: int, view: PublicView, labels: Labels, stations: bool
) -> None:
    """The five face-up cards, the deck and ticket piles with their sizes, and what each counter's icon means."""
    draw.line((PAD, top, image.width - PAD, top), fill=PANEL_CARD, width=2)
    cy = top + MARKET_HEIGHT / 2
    x = PAD
    for color in view.market[:5]:
        top_y = cy - CARD_H / 2
        draw.rounded_rectangle((x - 3, top_y - 3, x + CARD_W + 2, top_y + CARD_H + 2), radius=12, fill=CARD_FRAME)
        paste_card(image, x, top_y, color, CARD_W, CARD_H)
        x += CARD_W + 10
    x = PAD + 5 * (CARD_W + 10) + 10
    back = card_back_image(CARD_W, CARD_H)
    image.paste(back, (x, round(cy - CARD_H / 2)), back)
    _count(draw, x + CARD_W / 2, cy, view.deck_size)
    x += CARD_W + 18
    draw.rounded_rectangle((x, cy - 34, x + 84, cy + 34), radius=10, fill=PANEL_CARD)
    draw_ticket_icon(draw, (x + 14, cy - 26, x + 70, cy + 4), PANEL_MUTED, PANEL_CARD)
    draw.text((x + 42, cy + 18), str(view.ticket_deck_size), font=font(26, bold=True), fill=PANEL_TEXT, anchor="mm")
    _key(draw, x + 84 + 36, top, image.width - PAD, labels, stations)


def _count(draw: ImageDraw.ImageDraw, cx: float, cy: float, value: int) -> None:
    """A pile's size in a dark lozenge on top of it."""
    face = font(26, bold=True)
    w = face.getlength(str(value)) + 18
    draw.rounded_rectangle((cx - w / 2, cy - 18, cx + w / 2, cy + 18), radius=9, fill=PANEL_BG)
    draw.text((cx, cy), str(value), font=face, fill=PANEL_TEXT, anchor="mm")


def _key(draw: ImageDraw.ImageDraw, x0: float, top: int, x1: float, labels: Labels, stations: bool) -> None:
    """What each counter's icon means, in two rows: points, cars left, cards, tickets, stations left."""
    entries = ["score", "cars", "cards", "tickets"] + (["stations"] if stations else [])
    per_row = (len(entries) + 1) // 2
    step = (x1 - x0) / per_row
    for k, name in enumerate(entries):
        x = x0 + (k % per_row) * step
        cy = top + 36 + (k // per_row) * 52
        _icon(draw, name, (x, cy - 11, x + 28, cy + 11), PANEL_MUTED, PANEL_BG)
        text, face = fitted(picture_text(labels, f"counter.{name}"), 26, step - 44, minimum=22)
        draw.text((x + 36, cy), text, font=face, fill=PANEL_MUTED, anchor="lm")
