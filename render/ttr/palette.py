"""Every colour of the Ticket to Ride pictures, and the symbol each card colour carries for colour-blind players.

Card and track colours are the game's own (they cannot all be told apart by everyone, so each also has a
symbol). Player colours were chosen by simulating protanopia, deuteranopia and tritanopia (Machado 2009) and
keeping, among Okabe–Ito-like candidates, the five whose closest pair stays farthest apart in CIE Lab under all
three: red, blue, yellow, pink and navy differ in lightness as well as hue. Each player also has a number,
drawn on every car they own.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

CARD_FILL: dict[str, RGB] = {
    "purple": (146, 82, 176),
    "white": (247, 247, 242),
    "blue": (46, 110, 206),
    "yellow": (244, 206, 46),
    "orange": (239, 135, 38),
    "black": (44, 44, 48),
    "red": (214, 52, 46),
    "green": (56, 156, 72),
    "gray": (172, 172, 168),
    "locomotive": (120, 120, 120),
}
"""Fill of a card or track of each colour (gray: a track any one colour pays for)."""

CARD_SYMBOL: dict[str, str] = {
    "purple": "diamond",
    "white": "ring",
    "blue": "square",
    "yellow": "star",
    "orange": "triangle",
    "black": "disk",
    "red": "heart",
    "green": "plus",
    "gray": "",
    "locomotive": "wheel",
}
"""The shape each colour carries, so no one has to tell colours apart by hue alone."""

LOCOMOTIVE_STRIPES: tuple[RGB, ...] = (
    (214, 52, 46),
    (239, 135, 38),
    (244, 206, 46),
    (56, 156, 72),
    (46, 110, 206),
    (146, 82, 176),
)
"""The rainbow of a locomotive card."""

PLAYER_COLORS: tuple[RGB, ...] = (
    (200, 30, 40),
    (0, 114, 178),
    (240, 228, 66),
    (245, 150, 200),
    (25, 35, 95),
)
"""Player colours by colour index (seat)."""

DARK_INK: RGB = (28, 28, 32)
LIGHT_INK: RGB = (255, 255, 255)

SEA: RGB = (196, 218, 228)
LAND: RGB = (240, 232, 208)
COAST: RGB = (150, 172, 182)
RAIL: RGB = (128, 116, 96)
CAR_OUTLINE: RGB = (58, 54, 50)
CITY_FILL: RGB = (178, 34, 40)
CITY_RING: RGB = (255, 250, 240)
LABEL_INK: RGB = (24, 24, 28)
LABEL_HALO: RGB = (255, 252, 244)
HIGHLIGHT: RGB = (255, 255, 255)
"""Ring around each player's longest trail at the end."""
TUNNEL_RING: RGB = (0, 200, 230)
"""Ring around a tunnel being paid (the last claim is ringed in ACCENT gold)."""

PANEL_BG: RGB = (35, 41, 54)
PANEL_CARD: RGB = (49, 57, 74)
PANEL_ACTIVE: RGB = (70, 82, 108)
PANEL_TEXT: RGB = (240, 242, 246)
PANEL_MUTED: RGB = (168, 178, 196)
ACCENT: RGB = (255, 204, 64)
GOOD: RGB = (46, 160, 90)
BAD: RGB = (214, 60, 52)

PAPER: RGB = (250, 246, 236)
PAPER_LINE: RGB = (222, 212, 190)
PAPER_TEXT: RGB = (36, 36, 40)
PAPER_MUTED: RGB = (110, 104, 96)


def ink_on(fill: RGB) -> RGB:
    """Dark or white ink, whichever reads better on `fill` (by relative luminance)."""
    r, g, b = fill
    return DARK_INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else LIGHT_INK


def player_color(index: int) -> RGB:
    """The colour of a player's colour index (seat), wrapping for safety."""
    return PLAYER_COLORS[index % len(PLAYER_COLORS)]
