"""A train card as a picture: its colour, a locomotive's rainbow, and the colour's symbol large in the middle."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.ttr.palette import CARD_FILL, CARD_SYMBOL, DARK_INK, LOCOMOTIVE_STRIPES, ink_on
from render.ttr.symbols import draw_symbol

Box = tuple[float, float, float, float]


def draw_card(draw: ImageDraw.ImageDraw, box: Box, color: str, *, outline: tuple[int, int, int] = DARK_INK) -> None:
    """Draw a train card of `color` (a card colour or `locomotive`) filling `box`, upright."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    radius = min(w, h) * 0.14
    line = max(1, round(min(w, h) / 24))
    if color == "locomotive":
        draw.rounded_rectangle(box, radius=radius, fill=(255, 255, 255))
        band = (h - 2 * line) / len(LOCOMOTIVE_STRIPES)
        for k, stripe in enumerate(LOCOMOTIVE_STRIPES):
            top = y0 + line + k * band
            draw.rectangle((x0 + line, top, x1 - line, top + band + 0.5), fill=stripe)
        inner = min(w, h) * 0.36
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=(255, 255, 255))
        draw_symbol(draw, "wheel", (cx, cy), inner * 1.5, DARK_INK)
    else:
        fill = CARD_FILL[color]
        draw.rounded_rectangle(box, radius=radius, fill=fill)
        draw_symbol(draw, CARD_SYMBOL[color], ((x0 + x1) / 2, (y0 + y1) / 2), min(w, h) * 0.5, ink_on(fill))
    draw.rounded_rectangle(box, radius=radius, outline=outline, width=line)


@lru_cache(maxsize=64)
def card_image(color: str, width: int, height: int) -> Image.Image:
    """A smooth train card of this size (drawn twice as large and shrunk), to paste with its alpha."""
    big = Image.new("RGBA", (width * 2, height * 2), (0, 0, 0, 0))
    draw_card(ImageDraw.Draw(big), (0, 0, width * 2 - 1, height * 2 - 1), color)
    return big.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")


CARD_BACK: tuple[int, int, int] = (54, 62, 84)
CARD_BACK_INK: tuple[int, int, int] = (168, 178, 196)


@lru_cache(maxsize=8)
def card_back_image(width: int, height: int) -> Image.Image:
    """The back of a train card (a card drawn blind, or the deck): dark, with a pale locomotive wheel."""
    big = Image.new("RGBA", (width * 2, height * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = (0, 0, width * 2 - 1, height * 2 - 1)
    radius = min(width, height) * 0.28
    draw.rounded_rectangle(box, radius=radius, fill=CARD_BACK, outline=CARD_BACK_INK, width=max(2, width // 12))
    draw_symbol(draw, "wheel", (width, height), min(width, height) * 1.0, CARD_BACK_INK)
    return big.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")


def paste_card(image: Image.Image, x: float, y: float, color: str, width: int, height: int) -> None:
    """Paste a smooth card with its top-left corner at (x, y)."""
    card = card_image(color, width, height)
    image.paste(card, (round(x), round(y)), card)
