"""The score-over-time chart of a finished game: a thick line per player in their colour, turn by turn.

Made to be read at 450 px wide (half its size): few gridlines, big words, each line ending in its player's marker,
name and score, and the same marker repeated along it, so a line is told by its shape and label, not hue alone.
The final totals, which add what only the end reveals, are a last point of their own, apart from the turns.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import font, text_length
from render.labels import Labels, text_for
from rules.history import ScoreHistory

RGB = tuple[int, int, int]
SCALE = 2
"""Drawn at twice the size and scaled down, which smooths the lines' edges."""
WIDTH, HEIGHT = 900, 500
PAPER: RGB = (250, 248, 243)
INK: RGB = (40, 36, 32)
MUTED: RGB = (112, 104, 94)
GRID: RGB = (222, 216, 206)
LINE = 6
"""A line's width at full size: 3 px when shown 450 px wide."""
OUTLINE = 2
"""The dark edge around each line, so light colours (lime) stand out from the paper and from each other."""
MARKER = 9
"""A marker's radius at full size."""
MARKS_PER_LINE = 5
"""How many markers each line carries besides its end (staggered between players so they do not pile up)."""
TEXT = 24
NAME_CHARS = 14
"""Longer names are cut beside the chart (the message's text has them whole)."""
TITLE = 26
LEFT, TOP, BOTTOM = 74, 56, 74
FINAL_GAP = 84
"""Room between the last turn and the final point, which is not a turn."""

SHAPES = ("circle", "square", "triangle", "diamond", "down", "hexagon")
"""One marker shape per seat."""


def render_chart(history: ScoreHistory, colours: Sequence[RGB], names: Sequence[str], labels: Labels) -> bytes:
    """The chart as a PNG."""
    out = io.BytesIO()
    chart_image(history, colours, names, labels).save(out, "PNG", optimize=True)
    return out.getvalue()


def chart_image(history: ScoreHistory, colours: Sequence[RGB], names: Sequence[str], labels: Labels) -> Image.Image:
    """Draw the chart: turns along, points up, each player's line ending in their marker, name and score."""
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), PAPER)
    draw = ImageDraw.Draw(image)
    n = len(names)
    last = history.final if history.final is not None else history.scores[-1]
    ends = [f"{_short(names[seat])} {last[seat]}" for seat in range(n)]
    legend = max(text_length(end, TEXT, bold=True) for end in ends) + 2 * MARKER + 24
    right = WIDTH - legend
    turns = len(history.scores) - 1
    plot_right = right - (FINAL_GAP if history.final is not None else 0)
    top = max(max(row) for row in (*history.scores, last))
    bottom = min(0, *(min(row) for row in (*history.scores, last)))  # the card game's final scores can be negative
    step = _step(top - bottom)
    ceiling = max(step, math.ceil(top / step) * step)
    floor = math.floor(bottom / step) * step

    def x_of(turn: float) -> float:
        return LEFT + (plot_right - LEFT) * turn / max(1, turns)

    def y_of(points: float) -> float:
        return HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * (points - floor) / (ceiling - floor)

    s = SCALE
    title = text_for(labels, "replay.chart.title")
    draw.text((LEFT * s, 28 * s), title, font=font(TITLE * s, bold=True), fill=INK, anchor="lm")
    for value in range(floor, ceiling + 1, step):
        y = y_of(value) * s
        draw.line((LEFT * s, y, right * s, y), fill=GRID if value else MUTED, width=2 * s if value else 2)
        draw.text(((LEFT - 10) * s, y), str(value), font=font(TEXT * s), fill=MUTED, anchor="rm")
    for turn in _turn_ticks(turns):
        x = x_of(turn) * s
        draw.line((x, (HEIGHT - BOTTOM) * s, x, (HEIGHT - BOTTOM + 6) * s), fill=MUTED, width=2 * s)
        draw.text((x, (HEIGHT - BOTTOM + 10) * s), str(turn), font=font(TEXT * s), fill=MUTED, anchor="mt")
    axis = text_for(labels, "replay.chart.turns")
    draw.text(((LEFT + plot_right) / 2 * s, (HEIGHT - 6) * s), axis, font=font(TEXT * s), fill=INK, anchor="md")
    _upright(image, text_for(labels, "replay.chart.points"), (14 * s, (TOP + HEIGHT - BOTTOM) / 2 * s))
    if history.final is not None:
        x = right * s
        _dashed(draw, (x, TOP * s), (x, (HEIGHT - BOTTOM) * s), MUTED)
        final = text_for(labels, "replay.chart.final")
        draw.text((x, (HEIGHT - BOTTOM + 10) * s), final, font=font(TEXT * s, bold=True), fill=INK, anchor="mt")

    paths = [[(x_of(t) * s, y_of(row[seat]) * s) for t, row in enumerate(history.scores)] for seat in range(n)]
    order = sorted(range(n), key=lambda seat: last[seat])  # the leader drawn last, on top
    for seat in order:
        if history.final is not None:
            _dashed(draw, paths[seat][-1], (right * s, y_of(last[seat]) * s), colours[seat], LINE * s // 2)
        draw.line(paths[seat], fill=INK, width=(LINE + 2 * OUTLINE) * s, joint="curve")
        draw.line(paths[seat], fill=colours[seat], width=LINE * s, joint="curve")
        for index in _marked(turns, seat, n):
            _marker(draw, SHAPES[seat % len(SHAPES)], *paths[seat][index], colours[seat])
    label_ys = _spread([y_of(last[seat]) for seat in range(n)], TEXT + 8, TOP - 10, HEIGHT - BOTTOM)
    for seat in order:
        y = label_ys[seat]
        _marker(draw, SHAPES[seat % len(SHAPES)], right * s, y_of(last[seat]) * s, colours[seat])
        if abs(y - y_of(last[seat])) > 2:
            draw.line(
                ((right + MARKER) * s, y_of(last[seat]) * s, (right + 2 * MARKER) * s, y * s), fill=MUTED, width=s
            )
        draw.text(
            ((right + 2 * MARKER + 8) * s, y * s), ends[seat], font=font(TEXT * s, bold=True), fill=INK, anchor="lm"
        )
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _short(name: str) -> str:
    """A name cut to fit beside the chart."""
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"


def _upright(image: Image.Image, words: str, centre: tuple[float, float]) -> None:
    """Words written bottom to top, centred at `centre` (the points axis)."""
    size = font(TEXT * SCALE)
    width = round(size.getlength(words)) + 4
    strip = Image.new("RGBA", (width, TEXT * SCALE * 2), (0, 0, 0, 0))
    ImageDraw.Draw(strip).text((width / 2, TEXT * SCALE), words, font=size, fill=INK, anchor="mm")
    turned = strip.rotate(90, expand=True)
    image.paste(turned, (round(centre[0] - turned.width / 2), round(centre[1] - turned.height / 2)), turned)


def _step(top: int) -> int:
    """A round gridline spacing giving three to five lines up to `top`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top / step <= 5:
            return step
    return 10 ** len(str(top))


def _turn_ticks(turns: int) -> list[int]:
    """A few round turn numbers along the bottom, the last turn among them."""
    step = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if turns / s <= 8), 1000)
    ticks = list(range(0, turns + 1, step))
    if turns - ticks[-1] < step * 0.8 and len(ticks) > 1 and ticks[-1] != turns:
        ticks.pop()
    return ticks if ticks[-1] == turns else [*ticks, turns]


def _marked(turns: int, seat: int, n_players: int) -> list[int]:
    """The turns a seat's line carries a marker on: evenly spaced, shifted by seat so markers do not overlap."""
    if turns < 2:
        return [turns]
    spacing = turns / MARKS_PER_LINE
    offset = spacing * (seat + 1) / (n_players + 1)
    return sorted({min(turns, round(offset + k * spacing)) for k in range(MARKS_PER_LINE)} | {turns})


def _spread(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label heights near `ys`, at least `gap` apart, within [low, high] (pushed down, then back up from the
    bottom where they ran past it)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [min(max(y, low), high) for y in ys]
    for above, below in itertools.pairwise(order):
        placed[below] = max(placed[below], placed[above] + gap)
    limit = high
    for i in reversed(order):
        placed[i] = min(placed[i], limit)
        limit = placed[i] - gap
    return placed


def _marker(draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, fill: RGB) -> None:
    """A seat's marker, outlined in ink (its shape tells the seat apart, whatever colours one sees)."""
    r = MARKER * SCALE
    width = OUTLINE * SCALE
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=width)
    elif shape == "square":
        q = r * 0.85
        draw.rectangle((x - q, y - q, x + q, y + q), fill=fill, outline=INK, width=width)
    else:
        angles = {"triangle": (-90, 30, 150), "diamond": (0, 90, 180, 270), "down": (90, 210, 330)}.get(
            shape, (0, 60, 120, 180, 240, 300)
        )
        reach = r * 1.25
        corners = [(x + reach * math.cos(math.radians(a)), y + reach * math.sin(math.radians(a))) for a in angles]
        draw.polygon(corners, fill=fill, outline=INK, width=width)


def _dashed(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], fill: RGB, width: int = 2 * SCALE
) -> None:
    """A dashed line: what is not a turn (the final reveal) or no data."""
    length = math.dist(start, end)
    dash = 8 * SCALE
    for k in range(int(length // (2 * dash)) + 1):
        a, b = k * 2 * dash / max(length, 1), min(1.0, (k * 2 + 1) * dash / max(length, 1))
        if a >= 1:
            break
        draw.line(
            (
                start[0] + (end[0] - start[0]) * a,
                start[1] + (end[1] - start[1]) * a,
                start[0] + (end[0] - start[0]) * b,
                start[1] + (end[1] - start[1]) * b,
            ),
            fill=fill,
            width=width,
        )
