"""The six car pictograms of «Поезд», drawn once per size: side views whose silhouettes differ without colour."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from rules.dice import Face

Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]

UNIT_W, UNIT_H = 100, 64
"""Pictograms are drawn on a 100 × 64 grid (a car's side view, wheels on the bottom edge)."""
SUPERSAMPLE = 4
"""Drawn this many times larger, then shrunk: Pillow draws shapes without anti-aliasing."""

INK: Colour = (34, 34, 38)
WHEEL: Colour = (52, 52, 58)
WINDOW: Colour = (236, 232, 214)
BODY: dict[Face, Colour] = {
    Face.LOCOMOTIVE: (48, 82, 150),
    Face.COAL: (92, 92, 98),
    Face.TANKER: (170, 180, 190),
    Face.HOPPER: (66, 138, 84),
    Face.BOXCAR: (156, 94, 52),
    Face.CABOOSE: (204, 58, 46),
}
"""Each car's colour: a help, never the only signal (the silhouettes differ)."""


class _Pen:
    """Draws on the 100 × 64 grid, scaled to the supersampled canvas."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float) -> None:
        self.draw = draw
        self.scale = scale
        self.line = max(1, round(2.2 * scale))

    def _xy(self, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.scale, y * self.scale) for x, y in points]

    def rect(self, box: Box, fill: Colour, radius: float = 0) -> None:
        """Fill an outlined rectangle, rounded by `radius` grid units."""
        x0, y0, x1, y1 = (v * self.scale for v in box)
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius * self.scale, fill=fill, outline=INK, width=self.line)

    def poly(self, points: list[tuple[float, float]], fill: Colour) -> None:
        """Fill an outlined polygon."""
        self.draw.polygon(self._xy(points), fill=fill, outline=INK, width=self.line)

    def circle(self, x: float, y: float, r: float, fill: Colour) -> None:
        """Fill an outlined circle centred on (x, y)."""
        s = self.scale
        self.draw.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=fill, outline=INK, width=self.line)

    def stroke(self, points: list[tuple[float, float]], width: float = 1.6) -> None:
        """Draw an ink line through `points`."""
        self.draw.line(self._xy(points), fill=INK, width=max(1, round(width * self.scale)))

    def wheels(self, *xs: float, r: float = 6.5) -> None:
        """Draw wheels standing on the bottom edge."""
        for x in xs:
            self.circle(x, UNIT_H - r - 0.5, r, WHEEL)
            self.circle(x, UNIT_H - r - 0.5, r * 0.3, WINDOW)

    def underframe(self, x0: float = 8, x1: float = 92) -> None:
        """Draw the frame under a car's body and its two bogies."""
        self.rect((x0, 46, x1, 51), INK)
        self.wheels(x0 + 12, x0 + 25, x1 - 25, x1 - 12)


def _locomotive(pen: _Pen, body: Colour) -> None:
    pen.poly([(1, 58), (12, 44), (16, 58)], INK)  # cowcatcher
    pen.rect((8, 43, 94, 50), INK)
    pen.poly([(20, 22), (32, 22), (34, 8), (18, 8)], INK)  # chimney
    pen.rect((15, 4, 37, 9), INK)
    pen.rect((12, 20, 72, 45), body, radius=9)  # boiler
    pen.rect((42, 13, 54, 22), body, radius=4)  # dome
    pen.rect((68, 8, 94, 45), body)  # cab
    pen.rect((64, 3, 98, 9), INK)
    pen.rect((74, 14, 88, 26), WINDOW)
    for x, r in ((20, 6.5), (40, 9.5), (62, 9.5), (85, 6.5)):
        pen.circle(x, UNIT_H - r - 0.5, r, WHEEL)
        pen.circle(x, UNIT_H - r - 0.5, r * 0.3, WINDOW)
    pen.stroke([(40, 54), (62, 54)], width=2.4)  # coupling rod


def _coal(pen: _Pen, body: Colour) -> None:
    for x, r in ((20, 11), (36, 14), (52, 12), (67, 14), (81, 10)):
        pen.circle(x, 30, r, INK)
    pen.rect((8, 28, 92, 47), body)
    pen.stroke([(8, 37), (92, 37)])
    pen.underframe()


def _tanker(pen: _Pen, body: Colour) -> None:
    pen.rect((44, 8, 56, 18), body, radius=2)  # dome
    pen.rect((40, 5, 60, 9), INK)
    pen.rect((4, 16, 96, 46), body, radius=15)
    for x in (28, 72):
        pen.stroke([(x, 17), (x, 45)])
    pen.underframe()


def _hopper(pen: _Pen, body: Colour) -> None:
    pen.poly([(10, 16), (28, 7), (50, 4), (72, 7), (90, 16)], (214, 178, 104))  # heaped grain
    pen.poly([(26, 42), (40, 42), (37, 50), (29, 50)], body)
    pen.poly([(60, 42), (74, 42), (71, 50), (63, 50)], body)
    pen.poly([(4, 14), (96, 14), (80, 43), (20, 43)], body)
    for x in (32, 50, 68):
        pen.stroke([(x, 15), (x, 42)])
    pen.underframe(10, 90)


def _boxcar(pen: _Pen, body: Colour) -> None:
    pen.rect((8, 6, 92, 47), body)
    pen.rect((5, 2, 95, 7), INK)
    pen.rect((38, 11, 62, 45), body)  # sliding door
    pen.stroke([(38, 11), (62, 45)])
    pen.stroke([(62, 11), (38, 45)])
    pen.underframe()


def _caboose(pen: _Pen, body: Colour) -> None:
    pen.rect((38, 6, 62, 22), body)  # cupola
    pen.rect((35, 3, 65, 7), INK)
    pen.rect((44, 10, 56, 18), WINDOW)
    pen.rect((14, 21, 86, 47), body)
    pen.rect((10, 18, 90, 22), INK)
    for x0 in (21, 69):
        pen.rect((x0, 27, x0 + 10, 37), WINDOW)
    for x in (4, 96):  # end railings
        pen.stroke([(x, 30), (x, 47)])
    pen.stroke([(4, 30), (14, 30)])
    pen.stroke([(86, 30), (96, 30)])
    pen.underframe()


_DRAW: dict[Face, Callable[[_Pen, Colour], None]] = {
    Face.LOCOMOTIVE: _locomotive,
    Face.COAL: _coal,
    Face.TANKER: _tanker,
    Face.HOPPER: _hopper,
    Face.BOXCAR: _boxcar,
    Face.CABOOSE: _caboose,
}


@lru_cache(maxsize=64)
def car_sprite(face: Face, width: int, faded: bool = False) -> Image.Image:
    """Return the car drawn `width` pixels wide (height in the 100:64 ratio), RGBA; faded for a die that waits."""
    height = round(width * UNIT_H / UNIT_W)
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    _DRAW[face](_Pen(ImageDraw.Draw(big), width * SUPERSAMPLE / UNIT_W), BODY[face])
    sprite = big.resize((width, height), Image.Resampling.LANCZOS)
    if faded:
        sprite.putalpha(sprite.getchannel("A").point(lambda alpha: alpha * 45 // 100))
    return sprite
