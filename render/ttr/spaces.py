"""How an unclaimed car space looks: faded colour, thin outline and symbol, a tunnel's frame, a ferry's locomotive.

Free spaces are drawn narrower than the layout's car and in faded colours, so a claimed route's wide band in its
owner's strong colour stands out from them at the size Discord shows the board.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from render.ttr.geometry import Car
from render.ttr.palette import CAR_OUTLINE, CARD_SYMBOL, DARK_INK, free_fill, free_stripes, ink_on
from render.ttr.symbols import draw_symbol

TUNNEL_INK = (24, 22, 26)
SLIM = -1.0
"""How much narrower (on each side) a free car space is drawn than the layout's car."""


def draw_car_space(
    draw: ImageDraw.ImageDraw, car: Car, color: str, *, tunnel: bool, locomotive: bool, scale: float
) -> None:
    """Draw one unclaimed car space at `scale`: fill, outline, tunnel frame, ferry locomotive stripes, symbol."""
    if tunnel:
        draw.polygon(car.corners(grow=SLIM + 2.4, scale=scale), fill=TUNNEL_INK)
        draw.polygon(car.corners(grow=SLIM + 1.0, scale=scale), fill=(255, 255, 255))
    fill = free_fill(color)
    corners = car.corners(grow=SLIM, scale=scale)
    draw.polygon(corners, fill=fill, outline=CAR_OUTLINE if not tunnel else None, width=max(1, round(scale)))
    if locomotive:
        _stripes(draw, car, scale)
        draw_symbol(draw, "wheel", _mul(car.center, scale), 8.0 * scale, DARK_INK)
        draw.polygon(corners, outline=CAR_OUTLINE, width=max(1, round(scale)))
        return
    symbol = CARD_SYMBOL[color]
    if symbol:
        draw_symbol(draw, symbol, _mul(car.center, scale), 6.5 * scale, ink_on(fill))


def _mul(p: tuple[float, float], k: float) -> tuple[float, float]:
    return p[0] * k, p[1] * k


def _stripes(draw: ImageDraw.ImageDraw, car: Car, scale: float) -> None:
    """Fill a car space with the locomotive's faded rainbow, in bands across the car."""
    stripes = free_stripes()
    n = len(stripes)
    for k, color in enumerate(stripes):
        band = Car(
            center=(
                car.center[0] + (k + 0.5 - n / 2) * car.length / n * math.cos(car.angle),
                car.center[1] + (k + 0.5 - n / 2) * car.length / n * math.sin(car.angle),
            ),
            angle=car.angle,
            length=car.length / n + 0.3,
            width=car.width + 2 * SLIM,
        )
        draw.polygon(band.corners(scale=scale), fill=color)
