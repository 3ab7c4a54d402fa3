"""Glyphs every game's pictures share, drawn as vectors: the project's font has no emoji, so 🤖 would show a box.

`draw_bot_mark` draws the bot mark onto any image at the caller's scale; `bot_mark` is the same mark ready to paste
(drawn large and shrunk, so it stays smooth at the small sizes the pictures use), its eyes and mouth left clear so
whatever lies under it shows through them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Colour = RGB | tuple[int, int, int, int]
SUPERSAMPLE = 4


def draw_bot_mark(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], size: float, colour: Colour, back: Colour
) -> None:
    """A robot's head `size` pixels across, centred on `center`: an antenna, ears, and eyes and mouth in `back` (the
    colour under the mark; transparent on an RGBA image leaves holes)."""
    cx, cy = center
    s = size
    top = cy - s * 0.5
    head = (cx - s * 0.38, top + s * 0.3, cx + s * 0.38, top + s * 0.96)
    stem = max(1.0, s * 0.08)
    draw.rectangle((cx - stem / 2, top + s * 0.1, cx + stem / 2, head[1] + 1), fill=colour)
    ball = s * 0.1
    draw.ellipse((cx - ball, top, cx + ball, top + 2 * ball), fill=colour)
    ear_w, ear_h = s * 0.1, s * 0.26
    ear_y = (head[1] + head[3]) / 2
    draw.rectangle((head[0] - ear_w, ear_y - ear_h / 2, head[0] + 1, ear_y + ear_h / 2), fill=colour)
    draw.rectangle((head[2] - 1, ear_y - ear_h / 2, head[2] + ear_w, ear_y + ear_h / 2), fill=colour)
    draw.rounded_rectangle(head, radius=s * 0.12, fill=colour)
    eye = s * 0.085
    eye_y = head[1] + (head[3] - head[1]) * 0.4
    for ex in (cx - s * 0.16, cx + s * 0.16):
        draw.ellipse((ex - eye, eye_y - eye, ex + eye, eye_y + eye), fill=back)
    mouth_y = head[1] + (head[3] - head[1]) * 0.74
    draw.rectangle((cx - s * 0.17, mouth_y - s * 0.035, cx + s * 0.17, mouth_y + s * 0.035), fill=back)


@lru_cache(maxsize=32)
def bot_mark(size: int, colour: RGB) -> Image.Image:
    """The bot mark as a smooth RGBA piece `size` pixels square, to paste (with itself as mask) beside a bot's name."""
    big = Image.new("RGBA", (size * SUPERSAMPLE, size * SUPERSAMPLE), (0, 0, 0, 0))
    centre = size * SUPERSAMPLE / 2
    draw_bot_mark(ImageDraw.Draw(big), (centre, centre), size * SUPERSAMPLE, colour, (0, 0, 0, 0))
    return big.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")
