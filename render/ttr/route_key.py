"""The route-scoring key printed on the map, as on the printed board: how many points a route of each length scores.

A plate with a title and two rows, the lengths by the cars' icon and the points by the score's star (the icons the
panel's key explains), one column for each length the map's rules score (R-C3: 1, 2, 4, 7, 10, 15 and, on Europe,
21 for 8). It sits on the free edge of the map that covers the least track; the city names are then placed clear
of it.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.layout import MapLayout
from render.ttr.palette import ACCENT, DARK_INK, LABEL_HALO, LABEL_INK, PAPER_MUTED
from render.ttr.spots import Box, Obstacles
from render.ttr.symbols import draw_star_icon, draw_train_icon

TITLE = 26
"""The title's text: 7 px tall when the board is shown 450 px wide."""
DIGITS = 28
COLUMN = 48
ROW = 34
PAD = 10
ICON = 34
"""Width of the rows' icon column."""
EDGE = 10
"""Room kept between the key and the map's edge."""


def key_size(title_width: float, lengths: int) -> tuple[float, float]:
    """The key's width and height for a title this wide and this many lengths."""
    return max(title_width, ICON + lengths * COLUMN) + 2 * PAD, PAD + TITLE + 8 + 2 * ROW + PAD


def place_key(layout: MapLayout, size: tuple[float, float], obstacles: Obstacles) -> Box:
    """The box on the map's edge (a corner or the middle of a side) whose key would cover the least track and no
    city."""
    w, h = size
    xs = (EDGE, (layout.width - w) / 2, layout.width - w - EDGE)
    ys = (EDGE, (layout.height - h) / 2, layout.height - h - EDGE)
    boxes = [(x, y, x + w, y + h) for x in xs for y in ys if (x, y) != (xs[1], ys[1])]

    def cost(box: Box) -> float:
        x0, y0, x1, y1 = box
        cities = sum(1 for cx, cy in layout.cities.values() if x0 - 40 < cx < x1 + 40 and y0 - 40 < cy < y1 + 40)
        return obstacles.covered((x0 - 6, y0 - 6, x1 + 6, y1 + 6))[2] + 100.0 * cities

    return min(boxes, key=cost)


def draw_key(image: Image.Image, box: Box, title: str, points: dict[int, int]) -> None:
    """Draw the key into its box: the plate, the title, the lengths and their points."""
    x0, y0, x1, y1 = (round(v) for v in box)
    plate = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    ImageDraw.Draw(plate).rounded_rectangle(
        (0, 0, x1 - x0 - 1, y1 - y0 - 1), radius=10, fill=(*LABEL_HALO, 235), outline=DARK_INK, width=2
    )
    image.paste(plate, (x0, y0), plate)
    draw = ImageDraw.Draw(image)
    draw.text((x0 + PAD, y0 + PAD), title, font=font(TITLE, bold=True), fill=LABEL_INK)
    rows = (y0 + PAD + TITLE + 8 + ROW / 2, y0 + PAD + TITLE + 8 + ROW * 1.5)
    draw_train_icon(draw, (x0 + PAD, rows[0] - 10, x0 + PAD + 26, rows[0] + 10), PAPER_MUTED)
    draw_star_icon(draw, (x0 + PAD + 13, rows[1]), 30, DARK_INK)
    draw_star_icon(draw, (x0 + PAD + 13, rows[1]), 24, ACCENT)
    face = font(DIGITS, bold=True)
    for k, (length, score) in enumerate(sorted(points.items())):
        cx = x0 + PAD + ICON + k * COLUMN + COLUMN / 2
        draw.text((cx, rows[0]), str(length), font=face, fill=LABEL_INK, anchor="mm")
        draw.text((cx, rows[1]), str(score), font=face, fill=LABEL_INK, anchor="mm")
