"""How an unclaimed car space looks: faded colour, thin outline and symbol, or a ferry's locomotive plate.

Free spaces are drawn narrower than the layout's car and in faded colours, so a claimed route's wide band in its
owner's strong colour stands out from them at the size Discord shows the board. A ferry's locomotive space is the
opposite, dark with the locomotive's white wheel, so it reads as a pattern of light and dark even where the faded
colours blur together (a tunnel's mark is its dashed edges, drawn along the track: render/ttr/sprites.py).
"""

from __future__ import annotations

from PIL import ImageDraw

from render.ttr.geometry import Car
from render.ttr.palette import CAR_OUTLINE, CARD_SYMBOL, DARK_INK, HIGHLIGHT, free_fill, ink_on
from render.ttr.symbols import draw_symbol

SLIM = -1.0
"""How much narrower (on each side) a free car space is drawn than the layout's car."""
WHEEL = 8.0
"""Size of the wheel on a ferry's locomotive space."""


def draw_car_space(draw: ImageDraw.ImageDraw, car: Car, color: str, *, locomotive: bool, scale: float) -> None:
    """Draw one unclaimed car space at `scale`: fill, outline and symbol, or a ferry's locomotive plate."""
    if locomotive:
        draw.polygon(car.corners(grow=0.4, scale=scale), fill=DARK_INK)
        draw_symbol(draw, "wheel", _mul(car.center, scale), WHEEL * scale, HIGHLIGHT)
        return
    fill = free_fill(color)
    draw.polygon(car.corners(grow=SLIM, scale=scale), fill=fill, outline=CAR_OUTLINE, width=max(1, round(scale)))
    symbol = CARD_SYMBOL[color]
    if symbol:
        draw_symbol(draw, symbol, _mul(car.center, scale), 6.5 * scale, ink_on(fill))


def _mul(p: tuple[float, float], k: float) -> tuple[float, float]:
    return p[0] * k, p[1] * k
