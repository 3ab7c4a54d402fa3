"""The coin race's picture: one lane per player with their token, drawn with Pillow from the public view."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import font
from render.games import RGB, GamePictures
from render.labels import Labels, text_for
from tests.fifth_game.rules import CoinView

COLOURS: tuple[RGB, ...] = ((200, 60, 40), (40, 90, 200))
LANE, STEP, MARGIN = 40, 48, 120


def frame(view: CoinView, labels: Labels, names: Sequence[str]) -> Image.Image:
    """The lanes, each with its token at its steps and the finish line at the target."""
    width = MARGIN + STEP * (view.target + 1)
    image = Image.new("RGB", (width, LANE * (len(view.steps) + 1)), (245, 240, 225))
    draw = ImageDraw.Draw(image)
    finish = MARGIN + STEP * view.target + STEP // 2
    draw.line((finish, 0, finish, image.height), fill=(0, 0, 0), width=2)
    for seat, steps in enumerate(view.steps):
        top = LANE * seat + LANE // 2
        draw.text((8, top + 10), names[seat][:14], fill=(0, 0, 0), font=font(16))
        x = MARGIN + STEP * min(steps, view.target)
        draw.ellipse((x, top + 4, x + LANE - 8, top + LANE - 4), fill=COLOURS[seat % len(COLOURS)])
    if view.heads is not None:
        said = text_for(labels, "coin.picture.heads" if view.heads else "coin.picture.tails")
        draw.text((8, 2), said, fill=(0, 0, 0), font=font(14))
    return image


def render_race(view: CoinView, labels: Labels, names: Sequence[str]) -> bytes:
    """The race as PNG bytes."""
    out = io.BytesIO()
    frame(view, labels, names).save(out, format="PNG")
    return out.getvalue()


PICTURES = GamePictures(frame=frame, colours=COLOURS)
"""The coin race's pictures as the replay and the score chart use them."""
