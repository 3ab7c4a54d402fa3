"""The players' panel under the board: each player's colour, number, name and score with cars, cards, tickets and
stations left, whose turn it is, the five face-up cards with the piles, and a key to the counters' icons.

Everything is sized to be read when Discord shows the whole picture about 450 px wide (text of 26 px and more on
a 1600 px picture); the turn message's text carries the full standings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from render.fonts import font, text_length
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
    TICKET_NOTCH,
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
DECK_LEFT = PAD + 5 * (CARD_W + 10) + 10
"""Where the deck stands, right of the five face-up cards."""
TICKETS_LEFT = DECK_LEFT + CARD_W + 18
"""Where the ticket pile stands."""
KEY_LEFT = TICKETS_LEFT + 84 + 36
"""Where the key to the counters' icons starts, right of the cards and piles."""
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


@dataclass(frozen=True, slots=True)
class PanelPiece:
    """A part of the panel that draws only inside its box: a player, the cards and piles, or the key."""

    key: Hashable
    """Everything its pixels depend on (with the panel's top), so a drawn piece can be kept and pasted again."""
    box: tuple[int, int, int, int]
    """Left, top, right and bottom (exclusive) of what it draws, the top measured from the panel's top."""
    draw: Callable[[Image.Image, ImageDraw.ImageDraw, int], None]
    """Draw it into an image whose panel starts at the given row."""


def draw_panel(image: Image.Image, top: int, view: PublicView, labels: Labels, names: Names) -> None:
    """Draw the panel into `image` from row `top` to the bottom, across the whole width."""
    draw = ImageDraw.Draw(image)
    draw_panel_frame(draw, top, image.width, image.height)
    for piece in panel_pieces(view, labels, names, image.width):
        piece.draw(image, draw, top)


def draw_panel_frame(draw: ImageDraw.ImageDraw, top: int, width: int, bottom: int) -> None:
    """What lies under the pieces: the panel's background and the line over the market."""
    draw.rectangle((0, top, width, bottom), fill=PANEL_BG)
    draw.line((PAD, top + PLAYERS_HEIGHT, width - PAD, top + PLAYERS_HEIGHT), fill=PANEL_CARD, width=2)


def panel_pieces(view: PublicView, labels: Labels, names: Names, width: int) -> list[PanelPiece]:
    """The panel's pieces: each player, then the face-up cards with the piles, then the key to the icons."""
    stations = load_map(view.map).rules.stations_per_player > 0
    n = max(1, len(view.players))
    cell = (width - 2 * PAD - (n - 1) * 10) / n
    pieces = []
    for k, player in enumerate(view.players):
        x = PAD + k * (cell + 10)
        pieces += _player_pieces((round(x), 6, round(x + cell), PLAYERS_HEIGHT - 6), view, player.seat, names, stations)
    rows = (PLAYERS_HEIGHT + 4, PANEL_HEIGHT)
    market = tuple(view.market[:5])
    cards = PanelPiece(("market", market), (0, rows[0], DECK_LEFT - 8, rows[1]), partial(_face_up, market=market))
    deck = partial(_deck, size=view.deck_size)
    tickets = partial(_ticket_pile, size=view.ticket_deck_size)
    pieces += [
        cards,
        PanelPiece(("deck", view.deck_size), (DECK_LEFT - 8, rows[0], TICKETS_LEFT - 8, rows[1]), deck),
        PanelPiece(("tickets", view.ticket_deck_size), (TICKETS_LEFT - 8, rows[0], KEY_LEFT - 8, rows[1]), tickets),
    ]
    words = tuple(picture_text(labels, f"counter.{name}") for name in _key_entries(stations))
    draw_key = partial(_key, x1=width - PAD, words=words)
    pieces.append(PanelPiece(("key", words, width), (KEY_LEFT, PLAYERS_HEIGHT + 4, width, PANEL_HEIGHT), draw_key))
    return pieces


def _player_pieces(
    box: tuple[int, int, int, int], view: PublicView, seat: int, names: Names, stations: bool
) -> list[PanelPiece]:
    """One player: the cell with its colour bar, numbered badge and name; the score; then cars, cards, tickets and
    stations left. The score and the counters are pieces of their own over the cell's fill, so a changed count
    redraws only its row."""
    x0, y0, x1, y1 = box
    player = view.players[seat]
    winner = view.result is not None and seat in view.result.winners
    lit = winner or seat in view.to_act
    fill = PANEL_ACTIVE if lit else PANEL_CARD
    ring = (WINNER_GLOW if winner else ACCENT) if lit else None
    score = str(_score(view, seat))
    score_w = text_length(score, 32, bold=True)
    name = player_name(names, seat)
    cell = partial(_cell, box=box, color_index=player.color, name=name, score_w=score_w, fill=fill, ring=ring)
    pieces = [PanelPiece(("cell", box, player.color, name, score_w, fill, ring), (x0, y0, x1 + 1, y1 + 1), cell)]
    star_x = x1 - 28 - score_w
    score_box = (math.floor(star_x) - 15, y0 + 20, x1 - 6, y0 + 62)
    star = WINNER_GLOW if winner else ACCENT
    draw_score = partial(_score_piece, box=score_box, score=score, star_x=star_x, star=star, fill=fill)
    pieces.append(PanelPiece(("score", score_box, score, star, fill), score_box, draw_score))
    items = [("cars", player.cars), ("cards", player.hand_size), ("tickets", player.ticket_count)]
    if stations:
        items.append(("stations", player.stations_left))
    cy = y1 - 26
    step = (x1 - x0 - 16) / len(items)
    for first, last, left, right in _counter_groups(items, x0 + 12, step, x0 + 6, x1 - 6):
        box = (left, cy - 18, right, cy + 18)
        shown = tuple(items[first:last])
        at = tuple(x0 + 12 + k * step for k in range(first, last))
        draw_counters = partial(_counters, box=box, at=at, items=shown, fill=fill)
        pieces.append(PanelPiece(("counters", box, at, shown, fill), box, draw_counters))
    return pieces


def _counter_groups(
    items: Sequence[tuple[str, int]], left: float, step: float, start: int, end: int
) -> list[tuple[int, int, int, int]]:
    """The counters cut into runs that do not touch (first, last, left and right edge of each run), so a changed
    count redraws only its run: a value and the next icon may come within a pixel of each other (a ticket's
    notch reaches left of its icon), and then they stay in one run."""
    extents = []
    for k, (icon, value) in enumerate(items):
        ix = left + k * step
        notch = TICKET_NOTCH * 22 if icon == "tickets" else 0.0
        text_right = ix + 34 + font(COUNTER_TEXT, bold=True).getbbox(str(value), anchor="lm")[2]
        extents.append((ix - notch - 2, max(ix + 28 + notch, text_right) + 2))
    groups = []
    first, edge = 0, start
    for k in range(1, len(items)):
        if extents[k - 1][1] < extents[k][0]:
            cut = math.ceil(extents[k - 1][1])
            groups.append((first, k, edge, cut))
            first, edge = k, cut
    groups.append((first, len(items), edge, end))
    return groups


def _cell(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    *,
    box: tuple[int, int, int, int],
    color_index: int,
    name: str,
    score_w: float,
    fill: RGB,
    ring: RGB | None,
) -> None:
    """A player's cell: its fill (ringed when playing or winning), colour bar, numbered badge and name."""
    x0, y0, x1, y1 = box[0], box[1] + top, box[2], box[3] + top
    draw.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=fill)
    if ring is not None:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=ring, width=4)
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y0 + 12), radius=4, fill=player_color(color_index))
    b = badge(color_index, 46)
    image.paste(b, (x0 + 10, y0 + 18), b)
    name_x = x0 + 64
    shown, face = fitted(name, 28, x1 - 46 - score_w - name_x, bold=True, minimum=22)
    draw.text((name_x, y0 + 41), shown, font=face, fill=PANEL_TEXT, anchor="lm")


def _score_piece(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    *,
    box: tuple[int, int, int, int],
    score: str,
    star_x: float,
    star: RGB,
    fill: RGB,
) -> None:
    """A player's score with its star, right-aligned in the cell."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0 + top, x1 - 1, y1 - 1 + top), fill=fill)
    draw.text((x1 - 6, y0 + 21 + top), score, font=font(32, bold=True), fill=PANEL_TEXT, anchor="rm")
    draw_star_icon(draw, (star_x, y0 + 20 + top), 26, star)


def _counters(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    *,
    box: tuple[int, int, int, int],
    at: tuple[float, ...],
    items: tuple[tuple[str, int], ...],
    fill: RGB,
) -> None:
    """A run of a player's counters, each an icon and a value, over the cell's fill."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0 + top, x1 - 1, y1 - 1 + top), fill=fill)
    cy = y0 + 18 + top
    value_face = font(COUNTER_TEXT, bold=True)
    for ix, (icon, value) in zip(at, items, strict=True):
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


def _face_up(image: Image.Image, draw: ImageDraw.ImageDraw, panel_top: int, *, market: tuple[str, ...]) -> None:
    """The five face-up cards."""
    cy = panel_top + PLAYERS_HEIGHT + MARKET_HEIGHT / 2
    x = PAD
    for color in market:
        top_y = cy - CARD_H / 2
        draw.rounded_rectangle((x - 3, top_y - 3, x + CARD_W + 2, top_y + CARD_H + 2), radius=12, fill=CARD_FRAME)
        paste_card(image, x, top_y, color, CARD_W, CARD_H)
        x += CARD_W + 10


def _deck(image: Image.Image, draw: ImageDraw.ImageDraw, panel_top: int, *, size: int) -> None:
    """The deck with its size."""
    cy = panel_top + PLAYERS_HEIGHT + MARKET_HEIGHT / 2
    back = card_back_image(CARD_W, CARD_H)
    image.paste(back, (DECK_LEFT, round(cy - CARD_H / 2)), back)
    _count(draw, DECK_LEFT + CARD_W / 2, cy, size)


def _ticket_pile(image: Image.Image, draw: ImageDraw.ImageDraw, panel_top: int, *, size: int) -> None:
    """The ticket pile with its size."""
    cy = panel_top + PLAYERS_HEIGHT + MARKET_HEIGHT / 2
    x = TICKETS_LEFT
    draw.rounded_rectangle((x, cy - 34, x + 84, cy + 34), radius=10, fill=PANEL_CARD)
    draw_ticket_icon(draw, (x + 14, cy - 26, x + 70, cy + 4), PANEL_MUTED, PANEL_CARD)
    draw.text((x + 42, cy + 18), str(size), font=font(26, bold=True), fill=PANEL_TEXT, anchor="mm")


def _count(draw: ImageDraw.ImageDraw, cx: float, cy: float, value: int) -> None:
    """A pile's size in a dark lozenge on top of it."""
    face = font(26, bold=True)
    w = face.getlength(str(value)) + 18
    draw.rounded_rectangle((cx - w / 2, cy - 18, cx + w / 2, cy + 18), radius=9, fill=PANEL_BG)
    draw.text((cx, cy), str(value), font=face, fill=PANEL_TEXT, anchor="mm")


def _key_entries(stations: bool) -> list[str]:
    """The counters the key explains: points, cars left, cards, tickets, stations left."""
    return ["score", "cars", "cards", "tickets"] + (["stations"] if stations else [])


def _key(image: Image.Image, draw: ImageDraw.ImageDraw, panel_top: int, *, x1: float, words: tuple[str, ...]) -> None:
    """What each counter's icon means, in two rows."""
    entries = _key_entries(len(words) > 4)
    top = panel_top + PLAYERS_HEIGHT
    per_row = (len(entries) + 1) // 2
    step = (x1 - KEY_LEFT) / per_row
    for k, (name, word) in enumerate(zip(entries, words, strict=True)):
        x = KEY_LEFT + (k % per_row) * step
        cy = top + 36 + (k // per_row) * 52
        _icon(draw, name, (x, cy - 11, x + 28, cy + 11), PANEL_MUTED, PANEL_BG)
        text, face = fitted(word, 26, step - 44, minimum=22)
        draw.text((x + 36, cy), text, font=face, fill=PANEL_MUTED, anchor="lm")
