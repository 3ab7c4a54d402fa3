"""What just happened, in words read at chat size: a strip under the map with the last move (or the tunnel being
paid, the opening choice, the longest trail at the end), and a banner over the map in the last round and at the end.

The last move shows only what everyone saw (R-V1): face-up cards as cards, blind draws as card backs, tickets only
as counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.fonts import font, text_length
from render.glyphs import bot_mark
from render.ttr.cards import card_back_image, card_image
from render.ttr.palette import (
    ACCENT,
    BAND_OUTLINE,
    BANNER,
    DARK_INK,
    LAND,
    LIGHT_INK,
    PANEL_BG,
    PANEL_MUTED,
    PANEL_TEXT,
    RGB,
    WINNER_GLOW,
    player_color,
)
from render.ttr.panel import BOT_MARK, CARD_FRAME, badge
from render.ttr.sprites import station_sprite
from render.ttr.symbols import draw_ticket_icon
from render.ttr.text import Bots, Labels, Names, city_name, picture_text, player_name
from rules.ttr.maps import GameMap, load_map
from rules.ttr.view import FinalPlayer, LastMoveView, PublicView

STRIP_HEIGHT = 84
BANNER_HEIGHT = 68
TEXT = 32
"""The strip's words: 9 px tall when a 1600 px board is shown 450 px wide."""
MIN_TEXT = 25
GAP = 12
CHIP_W, CHIP_H = 46, 64


@dataclass(frozen=True, slots=True)
class Words:
    """A run of text in the strip."""

    text: str
    color: RGB = PANEL_TEXT
    bold: bool = False
    cut: int = 1
    """Which words give way first when the strip is too narrow: 2 (a player's name, the badge still says who),
    1 (what happened), 0 never (a count or points)."""


Piece = Words | Image.Image


def banner_height(view: PublicView) -> int:
    """How tall the banner over the map is: only in the last round and once the game is over."""
    return BANNER_HEIGHT if view.last_round or view.result is not None else 0


def draw_banner(image: Image.Image, view: PublicView, labels: Labels, names: Names) -> None:
    """The banner across the top: the last round with the turns left, or the end with the winners."""
    draw = ImageDraw.Draw(image)
    if view.result is not None:
        winners = ", ".join(player_name(names, seat) for seat in view.result.winners)
        words = picture_text(labels, "banner.over", count=len(view.result.winners), players=winners)
        fill, ink = WINNER_GLOW, DARK_INK
    else:
        words = picture_text(labels, "banner.last_round", turns=view.turns_left or 0)
        fill, ink = BANNER, LIGHT_INK
    draw.rectangle((0, 0, image.width, BANNER_HEIGHT - 1), fill=fill)
    draw.rectangle((0, BANNER_HEIGHT - 4, image.width, BANNER_HEIGHT - 1), fill=DARK_INK)
    face = _fit_face([Words(words, ink, True)], 40, 28, image.width - 48)
    draw.text((image.width / 2, BANNER_HEIGHT / 2 - 2), words, font=face, fill=ink, anchor="mm")


def draw_strip(
    image: Image.Image, top: int, view: PublicView, labels: Labels, names: Names, bots: Bots = frozenset()
) -> None:
    """The strip under the map, from `top` down `STRIP_HEIGHT` pixels, across the whole picture."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, image.width, top + STRIP_HEIGHT), fill=PANEL_BG)
    pieces = _pieces(view, labels, _Who(names, bots), load_map(view.map))
    _flow(image, draw, pieces, 24, top + STRIP_HEIGHT / 2, image.width - 48)


@dataclass(frozen=True, slots=True)
class _Who:
    """The players' names, and which of them are bots."""

    names: Names
    bots: Bots

    def __call__(self, seat: int) -> list[Piece]:
        """A player as the strip names them: their numbered badge, the bot mark for a bot, their name."""
        mark = [bot_mark(BOT_MARK, PANEL_TEXT)] if seat in self.bots else []
        return [badge(seat, 44), *mark, Words(player_name(self.names, seat), bold=True, cut=2)]


def _pieces(view: PublicView, labels: Labels, who: _Who, game_map: GameMap) -> list[Piece]:
    """What the strip says now."""
    if view.final is not None:
        return _longest(view, labels, who, game_map)
    if view.tunnel is not None and view.current is not None:
        tunnel = view.tunnel
        a, b = _ends(labels, game_map, tunnel.track)
        return [
            *who(view.current),
            Words(picture_text(labels, "move.tunnel", a=a, b=b)),
            *(_framed(card_image(color, CHIP_W, CHIP_H)) for color in tunnel.revealed),
            Words(picture_text(labels, "move.tunnel_extra", extra=tunnel.extra), ACCENT, True, cut=0),
        ]
    if view.phase == "opening":
        return [Words(picture_text(labels, "status.opening"))]
    if view.tickets_offered and view.current is not None:
        choosing = picture_text(labels, "move.choosing", count=view.tickets_offered)
        return [*who(view.current), Words(choosing), _tickets(view.tickets_offered, view.tickets_offered)]
    move = view.last_move
    if move is None:
        if view.current is None:
            return []
        return [*who(view.current), Words(picture_text(labels, "panel.to_play"))]
    return [
        Words(picture_text(labels, "move.tag"), PANEL_MUTED),
        *who(move.seat),
        *_move(move, labels, game_map),
    ]


def _move(move: LastMoveView, labels: Labels, game_map: GameMap) -> list[Piece]:
    """The words and pictures of one finished move."""
    if move.kind == "cards":
        chips: list[Piece] = [_framed(card_image(color, CHIP_W, CHIP_H)) for color in move.face_up]
        chips += [card_back_image(CHIP_W, CHIP_H)] * move.blind
        return [Words(picture_text(labels, "move.cards", count=len(move.face_up) + move.blind)), *chips]
    if move.kind == "claim" and move.track is not None:
        a, b = _ends(labels, game_map, move.track)
        length = next(t.length for t in game_map.tracks if t.id == move.track)
        return [
            Words(picture_text(labels, "move.claim", a=a, b=b)),
            _cars(move.seat, length),
            Words(picture_text(labels, "move.points", points=move.points), ACCENT, True, cut=0),
        ]
    if move.kind == "tickets":
        words = picture_text(labels, "move.tickets", drawn=move.tickets_drawn, kept=move.tickets_kept)
        return [Words(words), _tickets(move.tickets_drawn, move.tickets_kept)]
    if move.kind == "station" and move.city is not None:
        city = city_name(labels, game_map, move.city)
        return [Words(picture_text(labels, "move.station", city=city)), _on_plate(station_sprite(move.seat))]
    if move.kind in ("tunnel_failed", "tunnel_withdrawn") and move.track is not None:
        a, b = _ends(labels, game_map, move.track)
        return [Words(picture_text(labels, f"move.{move.kind}", a=a, b=b))]
    return [Words(picture_text(labels, "move.pass"))]


def _longest(view: PublicView, labels: Labels, who: _Who, game_map: GameMap) -> list[Piece]:
    """At the end: who holds the longest trail (the bonus, when it is played), and how long it is."""
    holders = longest_holders(view)
    if not holders:
        return []
    best = holders[0].longest_length
    bonus = game_map.rules.longest_bonus if holders[0].longest_bonus else 0
    key = "move.longest_bonus" if bonus else "move.longest"
    pieces: list[Piece] = [_glow_sample(holders[0].seat), Words(picture_text(labels, key, bonus=bonus), PANEL_MUTED)]
    for k, holder in enumerate(holders):
        pieces += who(holder.seat)
        if k < len(holders) - 1:
            pieces.append(Words("·", PANEL_MUTED))
    pieces.append(Words(picture_text(labels, "move.cars", length=best), ACCENT, True, cut=0))
    return pieces


def longest_holders(view: PublicView) -> list[FinalPlayer]:
    """At the end, who won the longest-trail bonus (or holds the longest trail, when the bonus is not played)."""
    final = view.final or []
    holders = [f for f in final if f.longest_bonus]
    if holders:
        return holders
    best = max((f.longest_length for f in final), default=0)
    return [f for f in final if best > 0 and f.longest_length == best]


def _ends(labels: Labels, game_map: GameMap, track_id: int) -> tuple[str, str]:
    """The names of a track's two cities."""
    track = next(t for t in game_map.tracks if t.id == track_id)
    return city_name(labels, game_map, track.a), city_name(labels, game_map, track.b)


@lru_cache(maxsize=64)
def _cars(seat: int, length: int) -> Image.Image:
    """A claimed route in small, on a piece of map: as many cars as it is long, in the owner's colour."""
    car_w, gap, h = 22, 5, 18
    image = _plate(length * (car_w + gap) + 11, h + 16)
    draw = ImageDraw.Draw(image)
    color = player_color(seat)
    for k in range(length):
        x = 8 + k * (car_w + gap)
        draw.rounded_rectangle((x, 8, x + car_w, 8 + h), radius=3, fill=color, outline=BAND_OUTLINE, width=2)
    return image


def _framed(card: Image.Image) -> Image.Image:
    """A card with a light edge, so a black card keeps its shape on the dark strip."""
    image = Image.new("RGBA", (card.width + 4, card.height + 4), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, card.width + 3, card.height + 3), radius=9, fill=CARD_FRAME)
    image.paste(card, (2, 2), card)
    return image


def _on_plate(piece: Image.Image) -> Image.Image:
    """A piece of the map (a station) on a light plate, so it shows on the dark strip as it does on the map."""
    image = _plate(piece.width + 12, piece.height + 8)
    image.paste(piece, (6, 4), piece)
    return image


def _plate(width: int, height: int) -> Image.Image:
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=LAND)
    return image


def _tickets(drawn: int, kept: int) -> Image.Image:
    """The tickets drawn as little tickets: the kept ones bright, the returned ones dim."""
    w, h, gap = 34, 26, 6
    image = Image.new("RGBA", (drawn * (w + gap), h + 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for k in range(drawn):
        x = k * (w + gap)
        draw_ticket_icon(draw, (x + 4, 1, x + w, h), PANEL_TEXT if k < kept else (88, 98, 118), PANEL_BG)
    return image


def _glow_sample(seat: int) -> Image.Image:
    """A short piece of the winner's trail as the map draws it: a band in their colour, glowing gold."""
    image = Image.new("RGBA", (64, 34), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, 63, 33), radius=10, fill=DARK_INK)
    draw.rounded_rectangle((3, 3, 60, 30), radius=8, fill=WINNER_GLOW)
    draw.rectangle((10, 9, 53, 24), fill=BAND_OUTLINE)
    draw.rectangle((12, 11, 51, 22), fill=player_color(seat))
    return image


def _fit_face(pieces: Sequence[Piece], size: int, minimum: int, width: float) -> ImageFont.FreeTypeFont:
    """The largest text size (down to `minimum`) at which the pieces fit `width`."""
    for s in range(size, minimum - 1, -1):
        if _width(pieces, s) <= width:
            return font(s, bold=True)
    return font(minimum, bold=True)


def _width(pieces: Sequence[Piece], size: int) -> float:
    total = 0.0
    for piece in pieces:
        if isinstance(piece, Words):
            total += text_length(piece.text, size, bold=piece.bold)
        else:
            total += piece.width
    return total + GAP * max(0, len(pieces) - 1)


def _flow(
    image: Image.Image, draw: ImageDraw.ImageDraw, pieces: list[Piece], x: float, cy: float, width: float
) -> None:
    """Lay the pieces left to right, centred on `cy`: the text shrinks to fit, then words are cut, names first."""
    size = next((s for s in range(TEXT, MIN_TEXT - 1, -1) if _width(pieces, s) <= width), MIN_TEXT)
    while _width(pieces, size) > width:
        cuttable = [p for p in pieces if isinstance(p, Words) and p.cut and len(p.text) > 4]
        if not cuttable:
            break
        worst = max(cuttable, key=lambda p: (p.cut if len(p.text) > 10 else 0, len(p.text)))
        shorter = Words(worst.text.rstrip("…")[:-2].rstrip() + "…", worst.color, worst.bold, worst.cut)
        pieces = [shorter if p is worst else p for p in pieces]
    for piece in pieces:
        if isinstance(piece, Words):
            face = font(size, bold=piece.bold)
            draw.text((x, cy), piece.text, font=face, fill=piece.color, anchor="lm")
            x += text_length(piece.text, size, bold=piece.bold)
        else:
            image.paste(piece, (round(x), round(cy - piece.height / 2)), piece)
            x += piece.width
        x += GAP
