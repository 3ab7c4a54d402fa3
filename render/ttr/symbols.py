"""Small vector shapes and icons drawn with Pillow: colour symbols, the locomotive wheel, panel icons."""

from __future__ import annotations

import math

from PIL import ImageDraw

from render.ttr.palette import RGB

Point = tuple[float, float]


def draw_symbol(draw: ImageDraw.ImageDraw, name: str, center: Point, size: float, ink: RGB) -> None:
    """Draw the colour symbol `name` (see palette.CARD_SYMBOL) upright, `size` pixels across, centred."""
    cx, cy = center
    r = size / 2
    line = max(1, round(size / 6))
    if name == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=ink)
    elif name == "ring":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=line + 1)
    elif name == "square":
        s = r * 0.82
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=ink)
    elif name == "star":
        draw.polygon(_star(cx, cy, r * 1.1, r * 0.45), fill=ink)
    elif name == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=ink)
    elif name == "disk":
        draw.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=ink)
    elif name == "heart":
        q = r * 0.52
        draw.ellipse((cx - 2 * q, cy - r * 0.85, cx, cy - r * 0.85 + 2 * q), fill=ink)
        draw.ellipse((cx, cy - r * 0.85, cx + 2 * q, cy - r * 0.85 + 2 * q), fill=ink)
        draw.polygon([(cx - 2 * q + 0.3, cy - r * 0.2), (cx + 2 * q - 0.3, cy - r * 0.2), (cx, cy + r)], fill=ink)
    elif name == "plus":
        t = r * 0.36
        draw.rectangle((cx - r, cy - t, cx + r, cy + t), fill=ink)
        draw.rectangle((cx - t, cy - r, cx + t, cy + r), fill=ink)
    elif name == "wheel":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=line + 1)
        for k in range(4):
            a = math.pi / 4 + k * math.pi / 2
            draw.line((cx, cy, cx + math.cos(a) * r, cy + math.sin(a) * r), fill=ink, width=line)
        draw.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=ink)


def _star(cx: float, cy: float, outer: float, inner: float) -> list[Point]:
    """The ten corners of a five-pointed star, one point up."""
    return [
        (
            cx + math.cos(-math.pi / 2 + k * math.pi / 5) * (outer if k % 2 == 0 else inner),
            cy + math.sin(-math.pi / 2 + k * math.pi / 5) * (outer if k % 2 == 0 else inner),
        )
        for k in range(10)
    ]


def draw_train_icon(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: RGB) -> None:
    """A little train car (the 'cars left' icon)."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    draw.rounded_rectangle((x0, y0 + h * 0.1, x1, y1 - h * 0.3), radius=h * 0.12, fill=ink)
    r = h * 0.16
    for fx in (0.25, 0.75):
        wx = x0 + (x1 - x0) * fx
        draw.ellipse((wx - r, y1 - 2 * r, wx + r, y1), fill=ink)


def draw_cards_icon(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: RGB, back: RGB) -> None:
    """Two fanned cards (the 'cards in hand' icon)."""
    x0, y0, x1, y1 = box
    w, h = (x1 - x0) * 0.62, y1 - y0
    line = max(1, round(h / 12))
    draw.rounded_rectangle((x0, y0 + h * 0.08, x0 + w, y1), radius=h * 0.1, fill=back, outline=ink, width=line)
    draw.rounded_rectangle((x1 - w, y0, x1, y1 - h * 0.08), radius=h * 0.1, fill=ink)


TICKET_NOTCH = 0.14
"""Radius of a ticket icon's notches, as a share of its height: they reach that far beyond its sides."""


def draw_ticket_icon(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: RGB, back: RGB) -> None:
    """A ticket with a notch (the 'destination tickets' icon)."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    draw.rounded_rectangle((x0, y0 + h * 0.15, x1, y1 - h * 0.15), radius=h * 0.1, fill=ink)
    r = h * TICKET_NOTCH
    cy = (y0 + y1) / 2
    draw.ellipse((x0 - r, cy - r, x0 + r, cy + r), fill=back)
    draw.ellipse((x1 - r, cy - r, x1 + r, cy + r), fill=back)


def draw_station_icon(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB, ink: RGB, *, door: bool = True
) -> None:
    """A station: a little house with a pointed roof, outlined, with a door unless a number goes there."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    line = max(1, round(h / 10))
    points = [(x0, y0 + h * 0.45), ((x0 + x1) / 2, y0), (x1, y0 + h * 0.45), (x1, y1), (x0, y1)]
    draw.polygon(points, fill=fill, outline=ink, width=line)
    if door:
        half = w * 0.16
        draw.rectangle(((x0 + x1) / 2 - half, y1 - h * 0.4, (x0 + x1) / 2 + half, y1), fill=ink)


def draw_star_icon(draw: ImageDraw.ImageDraw, center: Point, size: float, fill: RGB) -> None:
    """A five-pointed star (score and winner marks)."""
    cx, cy = center
    draw.polygon(_star(cx, cy, size / 2, size / 4.6), fill=fill)
