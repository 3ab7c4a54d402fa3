"""How Discord's client shows a message's pictures in the chat column, so a test can ask how one reads on a phone.

A lone picture (a media gallery of one, or a classic message's only image) is shown whole: scaled to the column's
width, never enlarged, and shrunk further when that would make it taller than the client allows, so a tall picture
shows narrow. Several pictures of one gallery (or of one classic message) become a mosaic of tiles, each cropped to
its tile: two side by side at half the column each, three as one large and two small, and so on. The tile shares
and the height cap are the client's as observed (about; they vary a little with the client and the screen).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

PHONE_COLUMN = 450
"""A phone's chat column, in pixels (a desktop column is about 550)."""
MAX_HEIGHT = 350
"""The tallest a lone picture is shown: a taller one is shrunk to this height, and so is narrower than the column."""

MOSAIC: dict[int, tuple[float, ...]] = {
    1: (1,),
    2: (1 / 2,) * 2,
    3: (2 / 3, 1 / 3, 1 / 3),
    4: (1 / 2,) * 4,
    5: (1 / 2,) * 2 + (1 / 3,) * 3,
    6: (1 / 3,) * 6,
    7: (1,) + (1 / 3,) * 6,
    8: (1 / 2,) * 2 + (1 / 3,) * 6,
    9: (1 / 3,) * 9,
    10: (1,) + (1 / 3,) * 9,
}
"""Each tile's width as a share of the column, in reading order, for a gallery of 1 to 10 pictures."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ShownPicture(NamedTuple):
    """One picture as the chat shows it: its file, its size on screen, and whether it is shown whole (False: cropped
    to a mosaic tile, about as tall as it is wide)."""

    filename: str
    width: int
    height: int
    whole: bool


def picture_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its header (None for anything else: the bot sends PNGs only)."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE):
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def shown_gallery(pictures: list[tuple[str, bytes]], column: int = PHONE_COLUMN) -> list[ShownPicture]:
    """How a gallery of `pictures` (file name and bytes, in order) shows in a column `column` pixels wide."""
    shares = MOSAIC.get(len(pictures), (1 / 3,) * len(pictures))
    if len(pictures) == 1:
        name, data = pictures[0]
        width, height = picture_size(data) or (column, column)
        scale = min(1.0, column / width, MAX_HEIGHT / height)
        return [ShownPicture(name, round(width * scale), round(height * scale), whole=True)]
    return [
        ShownPicture(name, round(column * share), round(column * share), whole=False)
        for (name, _), share in zip(pictures, shares, strict=True)
    ]
