"""The /stats card and the /leaderboard table, drawn at 900 px wide to read at half that on a phone (about 450 px).

The caller gives the figures as data (names, numbers already written in the reader's way, route names already in
the reader's language); this module asks `labels` for its own words (`stats.picture.*`) and never translates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import font
from render.labels import Labels, text_for
from render.ttr.encode import encode
from render.ttr.palette import BAD, DARK_INK, GOOD, LIGHT_INK, PAPER, PAPER_LINE, PAPER_MUTED, PAPER_TEXT, RGB, mix
from render.ttr.text import fitted

WIDTH = 900
"""Twice the phone's 450 px: every size below reads at half on a phone."""
PAD = 28
GAP = 16
TILE_H = 124
ROW_H = 66
CARD: RGB = (255, 255, 255)
OWN_ROW: RGB = (255, 243, 205)
MIN_CONTRAST = 4.5
"""WCAG AA for text: the head's words on the person's colour."""
TONES: dict[str, RGB] = {"plain": PAPER_TEXT, "good": GOOD, "bad": BAD}


@dataclass(frozen=True)
class Figure:
    """One tile of the card: its label (`stats.picture.<key>`), its value as shown, and the value's tone."""

    key: str
    value: str
    tone: str = "plain"


@dataclass(frozen=True)
class StatsCard:
    """A person's stats in one game: name, colour, rating and rank, the figures, and favourite routes."""

    name: str
    game: str
    """The game's name, in the reader's language."""
    colour: RGB
    figures: tuple[Figure, ...]
    rating: int | None = None
    rank: int | None = None
    rated: int = 0
    routes: tuple[tuple[str, int], ...] = ()
    """(route in the reader's words, times claimed), most claimed first."""


@dataclass(frozen=True)
class BoardRow:
    """One row of the leaderboard."""

    rank: int
    name: str
    rating: int
    games: int
    win_percent: int
    own: bool = False


@dataclass(frozen=True)
class Leaderboard:
    """A server's best players of one game, and where the reader stands if not among them."""

    game: str
    colour: RGB
    rows: tuple[BoardRow, ...]
    own: BoardRow | None = None
    """The reader's row when outside the rows shown."""
    unrated: bool = False
    """The reader has no rating in this game yet."""


def words(labels: Labels, key: str, **params: object) -> str:
    """This module's own word `stats.picture.<key>`."""
    return text_for(labels, f"stats.picture.{key}", **params)


def stats_image(card: StatsCard, labels: Labels) -> Image.Image:
    """Draw a person's stats card."""
    columns = 3
    tile_rows = -(-len(card.figures) // columns)
    top = _band(card.name, words(labels, "stats_of", game=card.game), card.colour, None)
    routes_h = 56 + 52 * len(card.routes) if card.routes else 0
    height = top + 150 + tile_rows * (TILE_H + GAP) + routes_h + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _band(card.name, words(labels, "stats_of", game=card.game), card.colour, draw)
    _rating(draw, card, labels, top + 18)
    y = top + 150
    for index, figure in enumerate(card.figures):
        in_row = min(columns, len(card.figures) - index // columns * columns)  # the last row's tiles share its width
        width = (WIDTH - 2 * PAD - (in_row - 1) * GAP) // in_row
        x = PAD + (index % columns) * (width + GAP)
        _tile(draw, (x, y + (index // columns) * (TILE_H + GAP)), width, words(labels, figure.key), figure)
    y += tile_rows * (TILE_H + GAP)
    if card.routes:
        draw.text((PAD, y + 22), words(labels, "routes"), font=font(26, bold=True), fill=PAPER_MUTED, anchor="lm")
        for index, (route, times) in enumerate(card.routes):
            _route(draw, y + 56 + 52 * index, index + 1, route, words(labels, "times", count=times))
    return image


def render_stats(card: StatsCard, labels: Labels) -> bytes:
    """The stats card as PNG bytes."""
    return encode(stats_image(card, labels))


def leaderboard_image(board: Leaderboard, labels: Labels) -> Image.Image:
    """Draw a server's leaderboard of one game."""
    top = _band(words(labels, "leaderboard"), board.game, board.colour, None)
    rows: list[BoardRow | None] = list(board.rows)
    if board.own is not None:
        rows += [None, board.own]
    footer = 64 if board.unrated or not board.rows else 0
    height = top + 64 + ROW_H * len(rows) + footer + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _band(words(labels, "leaderboard"), board.game, board.colour, draw)
    edges = _board_edges()
    head = top + 44
    draw.text((PAD + 8, head), "#", font=font(24, bold=True), fill=PAPER_MUTED, anchor="ld")
    draw.text((PAD + 84, head), words(labels, "player"), font=font(24, bold=True), fill=PAPER_MUTED, anchor="ld")
    for key, right in edges:
        label, face = fitted(words(labels, key), 24, 130, bold=True, minimum=20)
        draw.text((right, head), label, font=face, fill=PAPER_MUTED, anchor="rd")
    draw.line((PAD, head + 8, WIDTH - PAD, head + 8), fill=PAPER_LINE, width=2)
    y = head + 16
    for index, row in enumerate(rows):
        if row is None:
            draw.text((WIDTH // 2, y + ROW_H // 2), "⋯", font=font(36, bold=True), fill=PAPER_MUTED, anchor="mm")
        else:
            _board_row(draw, y, row, edges, index)
        y += ROW_H
    if footer:
        key = "you_unrated" if board.rows else "nobody_rated"
        note, face = fitted(words(labels, key), 28, WIDTH - 2 * PAD)
        draw.text((PAD, y + footer // 2), note, font=face, fill=PAPER_MUTED, anchor="lm")
    return image


def render_leaderboard(board: Leaderboard, labels: Labels) -> bytes:
    """The leaderboard as PNG bytes."""
    return encode(leaderboard_image(board, labels))


def band_colours(colour: RGB) -> tuple[RGB, RGB]:
    """The head's fill and ink: the person's colour under white or dark ink, whichever reads (WCAG contrast ≥
    4.5, white first); a colour neither reads on is darkened until white does."""
    if _contrast(colour, LIGHT_INK) >= MIN_CONTRAST:
        return colour, LIGHT_INK
    if _contrast(colour, DARK_INK) >= MIN_CONTRAST:
        return colour, DARK_INK
    fill = colour
    for step in range(1, 11):
        fill = mix(colour, (0, 0, 0), step / 10)
        if _contrast(fill, LIGHT_INK) >= MIN_CONTRAST:
            break
    return fill, LIGHT_INK


def _contrast(first: RGB, second: RGB) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(colour: RGB) -> float:
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in colour)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _band(title: str, subtitle: str, colour: RGB, draw: ImageDraw.ImageDraw | None) -> int:
    """The coloured head: a big title and a line under it; return its height (drawing only when given `draw`)."""
    height = 150
    if draw is None:
        return height
    fill, ink = band_colours(colour)
    draw.rectangle((0, 0, WIDTH, height - 12), fill=fill)
    name, face = fitted(title, 56, WIDTH - 2 * PAD, bold=True, minimum=30)
    draw.text((PAD, 58), name, font=face, fill=ink, anchor="lm")
    line, face = fitted(subtitle, 30, WIDTH - 2 * PAD, minimum=20)
    draw.text((PAD, 110), line, font=face, fill=ink, anchor="lm")
    return height


def _rating(draw: ImageDraw.ImageDraw, card: StatsCard, labels: Labels, top: int) -> None:
    """The rating, biggest of all, with the rank beside it; or that there is none yet."""
    box = (PAD, top, WIDTH - PAD, top + 116)
    draw.rounded_rectangle(box, radius=14, fill=CARD, outline=PAPER_LINE, width=2)
    draw.rounded_rectangle((PAD, top, PAD + 12, top + 116), radius=6, fill=card.colour)
    label = words(labels, "rating")
    draw.text((PAD + 36, top + 32), label, font=font(26, bold=True), fill=PAPER_MUTED, anchor="lm")
    if card.rating is None:
        note, face = fitted(words(labels, "no_rating_yet"), 34, WIDTH - 2 * PAD - 60, bold=True)
        draw.text((PAD + 36, top + 80), note, font=face, fill=PAPER_TEXT, anchor="lm")
        return
    draw.text((PAD + 36, top + 80), str(card.rating), font=font(58, bold=True), fill=PAPER_TEXT, anchor="lm")
    if card.rank is not None:
        rank = words(labels, "rank", rank=card.rank, rated=card.rated)
        text, face = fitted(rank, 40, WIDTH / 2 - PAD - 20, bold=True)
        draw.text((WIDTH - PAD - 28, top + 80), text, font=face, fill=PAPER_TEXT, anchor="rm")


def _tile(draw: ImageDraw.ImageDraw, at: tuple[int, int], width: int, label: str, figure: Figure) -> None:
    """One figure: its label small on top, its value big under it."""
    x, y = at
    draw.rounded_rectangle((x, y, x + width, y + TILE_H), radius=12, fill=CARD, outline=PAPER_LINE, width=2)
    words_, face = fitted(label, 24, width - 32, bold=True, minimum=22)
    draw.text((x + 18, y + 32), words_, font=face, fill=PAPER_MUTED, anchor="lm")
    value, face = fitted(figure.value, 50, width - 32, bold=True, minimum=28)
    draw.text((x + 18, y + 84), value, font=face, fill=TONES.get(figure.tone, PAPER_TEXT), anchor="lm")


def _route(draw: ImageDraw.ImageDraw, y: int, number: int, route: str, times: str) -> None:
    """A favourite route: its number, its two cities, and how often it was claimed."""
    draw.text((PAD + 4, y + 24), f"{number}.", font=font(30, bold=True), fill=PAPER_MUTED, anchor="lm")
    times_w = font(28).getlength(times)
    draw.text((WIDTH - PAD, y + 24), times, font=font(28), fill=PAPER_MUTED, anchor="rm")
    name, face = fitted(route, 32, WIDTH - 2 * PAD - 60 - times_w - 16, bold=True, minimum=22)
    draw.text((PAD + 50, y + 24), name, font=face, fill=PAPER_TEXT, anchor="lm")


def _board_edges() -> list[tuple[str, int]]:
    """The number columns of the leaderboard and the x their numbers end at, left to right."""
    right = WIDTH - PAD - 12
    return [("rating", right - 290), ("games", right - 150), ("win_percent", right)]


def _board_row(draw: ImageDraw.ImageDraw, y: int, row: BoardRow, edges: Sequence[tuple[str, int]], index: int) -> None:
    """One person's row: rank, name, rating (biggest), games, win %; the reader's own row highlighted."""
    fill = OWN_ROW if row.own else CARD if index % 2 == 0 else PAPER
    draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 4), fill=fill)
    mid = y + (ROW_H - 4) // 2
    draw.text((PAD + 30, mid), str(row.rank), font=font(32, bold=True), fill=PAPER_TEXT, anchor="mm")
    name, face = fitted(row.name, 32, edges[0][1] - 150 - (PAD + 84), bold=True, minimum=20)
    draw.text((PAD + 84, mid), name, font=face, fill=PAPER_TEXT, anchor="lm")
    values = {"rating": str(row.rating), "games": str(row.games), "win_percent": f"{row.win_percent}%"}
    for key, right in edges:
        size = 36 if key == "rating" else 30
        draw.text((right, mid), values[key], font=font(size, bold=key == "rating"), fill=PAPER_TEXT, anchor="rm")
