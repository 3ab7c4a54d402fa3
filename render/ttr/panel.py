"""The players' panel under the board: each player's colour, number, name (a bot's marked) and score with cars, cards,
tickets and stations left, whose turn it is, the five face-up cards with the piles, and a key to the counters' icons.

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
from render.glyphs import bot_mark
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
from render.ttr.text import Bots, Labels, Names, fitted, picture_text, player_name
from rules.ttr.maps import load_map
from rules.ttr.view import PublicView

PAD = 16
PLAYERS_HEIGHT = 128
MARKET_HEIGHT = 124
PANEL_HEIGHT = PLAYERS_HEIGHT + MARKET_HEIGHT
CARD_W, CARD_H = 66, 94
COUNTER_FACES = ((28, False), (26, False), (24, False), (24, True), (22, True))
"""Text sizes (and whether condensed) tried for the counters' values, largest first: five players with stations need
a smaller one. Each icon is `COUNTER_ICON` as wide as its value's text is tall."""
COUNTER_ICON = 0.85
COUNTER_GAP = 12
"""The least room between the widest value a counter may show and the next counter's icon."""
BOT_MARK = 30
"""The bot mark beside a bot's name: 8 px when the board is shown 450 px wide."""
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


def draw_panel(
    image: Image.Image, top: int, view: PublicView, labels: Labels, names: Names, bots: Bots = frozenset()
) -> None:
    """Draw the panel into `image` from row `top` to the bottom, across the whole width."""
    draw = ImageDraw.Draw(image)
    draw_panel_frame(draw, top, image.width, image.height)
    for piece in panel_pieces(view, labels, names, image.width, bots):
        piece.draw(image, draw, top)


def draw_panel_frame(draw: ImageDraw.ImageDraw, top: int, width: int, bottom: int) -> None:
    """What lies under the pieces: the panel's background and the line over the market."""
    draw.rectangle((0, top, width, bottom), fill=PANEL_BG)
    draw.line((PAD, top + PLAYERS_HEIGHT, width - PAD, top + PLAYERS_HEIGHT), fill=PANEL_CARD, width=2)


def panel_pieces(
    view: PublicView, labels: Labels, names: Names, width: int, bots: Bots = frozenset()
) -> list[PanelPiece]:
    """The panel's pieces: each player, then the face-up cards with the piles, then the key to the icons."""
    stations = load_map(view.map).rules.stations_per_player > 0
    pieces = []
    for player, box in zip(view.players, player_boxes(len(view.players), width), strict=True):
        pieces += _player_pieces(box, view, player.seat, names, stations, player.seat in bots)
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


def player_boxes(n_players: int, width: int) -> list[tuple[int, int, int, int]]:
    """Each player's cell, side by side across the panel."""
    n = max(1, n_players)
    cell = (width - 2 * PAD - (n - 1) * 10) / n
    return [
        (round(PAD + k * (cell + 10)), 6, round(PAD + k * (cell + 10) + cell), PLAYERS_HEIGHT - 6) for k in range(n)
    ]


def _player_pieces(
    box: tuple[int, int, int, int], view: PublicView, seat: int, names: Names, stations: bool, bot: bool
) -> list[PanelPiece]:
    """One player: the cell with its colour bar, numbered badge, bot mark and name; the score; then cars, cards,
    tickets and stations left. The score and each counter are pieces of their own over the cell's fill, so a changed
    count redraws only itself."""
    x0, y0, x1, y1 = box
    player = view.players[seat]
    winner = view.result is not None and seat in view.result.winners
    lit = winner or seat in view.to_act
    fill = PANEL_ACTIVE if lit else PANEL_CARD
    ring = (WINNER_GLOW if winner else ACCENT) if lit else None
    score = str(_score(view, seat))
    score_w = text_length(score, 32, bold=True)
    name = player_name(names, seat)
    cell = partial(_cell, box=box, color_index=player.color, name=name, bot=bot, score_w=score_w, fill=fill, ring=ring)
    pieces = [PanelPiece(("cell", box, player.color, name, bot, score_w, fill, ring), (x0, y0, x1 + 1, y1 + 1), cell)]
    star_x = x1 - 28 - score_w
    score_box = (math.floor(star_x) - 15, y0 + 20, x1 - 6, y0 + 62)
    star = WINNER_GLOW if winner else ACCENT
    draw_score = partial(_score_piece, box=score_box, score=score, star_x=star_x, star=star, fill=fill)
    pieces.append(PanelPiece(("score", score_box, score, star, fill), score_box, draw_score))
    items = [("cars", player.cars), ("cards", player.hand_size), ("tickets", player.ticket_count)]
    if stations:
        items.append(("stations", player.stations_left))
    for counter in counter_layout(items, (x0 + 6, y1 - 44, x1 - 6, y1 - 8)):
        draw_counter = partial(_counter, counter=counter, fill=fill)
        pieces.append(PanelPiece(("counter", counter, fill), counter.slot, draw_counter))
    return pieces


@dataclass(frozen=True, slots=True)
class Counter:
    """One counter of a player's cell: its icon and value, and the slot of the cell's row it alone draws in."""

    icon: str
    value: int
    size: int
    condensed: bool
    """The value's text size and face."""
    slot: tuple[int, int, int, int]
    icon_box: tuple[float, float, float, float]
    """Where the icon is drawn (a ticket's notches reach `TICKET_NOTCH` of its height beyond its sides)."""
    text_box: tuple[float, float, float, float]
    """Where the value's ink is."""


def counter_layout(items: Sequence[tuple[str, int]], row: tuple[int, int, int, int]) -> list[Counter]:
    """The counters spread evenly across the row, each in a slot of its own: at the largest size at which the widest
    value any of them may show (two digits, or more if one has them) leaves `COUNTER_GAP` before the next icon."""
    x0, y0, x1, y1 = row
    step = (x1 - x0) / max(1, len(items))
    cy = (y0 + y1) / 2
    size, condensed = COUNTER_FACES[-1]
    for size, condensed in COUNTER_FACES:
        if _counter_width(items, size, condensed) + COUNTER_GAP <= step:
            break
    face = font(size, bold=True, condensed=condensed)
    icon_w = round(size * COUNTER_ICON)
    counters = []
    for k, (icon, value) in enumerate(items):
        left = x0 + k * step
        ix = left + 2 + _notch(icon, icon_w)
        icon_box = (ix, cy - icon_w * 0.4, ix + icon_w, cy + icon_w * 0.4)
        tx = ix + icon_w + 5
        ink = face.getbbox(str(value), anchor="lm")
        text_box = (tx + ink[0], cy + ink[1], tx + ink[2], cy + ink[3])
        slot = (math.ceil(left), y0, math.ceil(left + step) if k < len(items) - 1 else x1, y1)
        counters.append(Counter(icon, value, size, condensed, slot, icon_box, text_box))
    return counters


def _notch(icon: str, width: float) -> float:
    """How far left of its box an icon `width` wide reaches (a ticket's notch)."""
    return TICKET_NOTCH * width * 0.8 if icon == "tickets" else 0.0


def _counter_width(items: Sequence[tuple[str, int]], size: int, condensed: bool) -> float:
    """The widest counter in this face: its notch, icon and the wider of its value and two digits."""
    face = font(size, bold=True, condensed=condensed)
    icon_w = round(size * COUNTER_ICON)
    return max(2 + _notch(i, icon_w) + icon_w + 5 + max(face.getlength(str(v)), face.getlength("00")) for i, v in items)


def _cell(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    *,
    box: tuple[int, int, int, int],
    color_index: int,
    name: str,
    bot: bool,
    score_w: float,
    fill: RGB,
    ring: RGB | None,
) -> None:
    """A player's cell: its fill (ringed when playing or winning), colour bar, numbered badge, bot mark and name."""
    x0, y0, x1, y1 = box[0], box[1] + top, box[2], box[3] + top
    draw.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=fill)
    if ring is not None:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=ring, width=4)
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y0 + 12), radius=4, fill=player_color(color_index))
    b = badge(color_index, 46)
    image.paste(b, (x0 + 10, y0 + 18), b)
    name_x = x0 + 64
    if bot:
        mark = bot_mark(BOT_MARK, PANEL_TEXT)
        image.paste(mark, (name_x, y0 + 41 - BOT_MARK // 2), mark)
        name_x += BOT_MARK + 6
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


def _counter(image: Image.Image, draw: ImageDraw.ImageDraw, top: int, *, counter: Counter, fill: RGB) -> None:
    """A counter's icon and value over the cell's fill."""
    x0, y0, x1, y1 = counter.slot
    draw.rectangle((x0, y0 + top, x1 - 1, y1 - 1 + top), fill=fill)
    ix0, iy0, ix1, iy1 = counter.icon_box
    _icon(draw, counter.icon, (ix0, iy0 + top, ix1, iy1 + top), PANEL_MUTED, PANEL_CARD)
    face = font(counter.size, bold=True, condensed=counter.condensed)
    draw.text((ix1 + 5, (y0 + y1) / 2 + top), str(counter.value), font=face, fill=PANEL_TEXT, anchor="lm")


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
