"""Every colour of the Ticket to Ride pictures, and the symbol each card colour carries for colour-blind players.

Card and track colours are the game's own (they cannot all be told apart by everyone, so each also has a
symbol). On the board a free track is drawn faded (`free_fill`, thin car spaces) and a claimed one as a wide band
in its owner's colour with a dark outline, so "claimed" reads from shape and strength, not hue alone.

Player colours were chosen by simulating protanopia, deuteranopia and tritanopia (Machado 2009, full severity;
tests/render/ttr/cvd.py) and searching named strong colours for the five whose closest pair, and whose closest
faded track colour, stay farthest apart in CIE Lab under all three and normal vision, then refining them by a
local search: dark red, lime green, royal blue, purple and black (every pair ≥ 28 ΔE, every player colour ≥ 22
from every faded track under every simulation; tests/render/ttr/test_ttr_board_palette.py). They are darker or
more saturated than every faded track, which keeps a band from reading as free track; light player colours
(yellow, pink, cyan) were dropped because a faded yellow, purple or blue track looks just like them, and navy
because it read as black. Each player also has a number, drawn along every band they own.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

CARD_FILL: dict[str, RGB] = {
    "purple": (154, 73, 159),
    "white": (247, 247, 242),
    "blue": (62, 102, 232),
    "yellow": (255, 213, 20),
    "orange": (225, 136, 35),
    "black": (44, 44, 48),
    "red": (191, 25, 6),
    "green": (14, 151, 75),
    "gray": (172, 172, 168),
    "locomotive": (120, 120, 120),
}
"""Fill of a card or track of each colour (gray: a track any one colour pays for).

Each colour was nudged (at most 22 ΔE from the printed one) until every pair stays at least 24 ΔE apart under
protanopia, deuteranopia and tritanopia, and 14 once faded on the board: before, purple and blue were 10 apart
under protanopia, red and green 16 under deuteranopia."""

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
    (160, 14, 28),
    (71, 240, 0),
    (32, 64, 224),
    (118, 26, 150),
    (18, 18, 24),
)
"""Player colours by colour index (seat): dark red, lime green, royal blue, purple, black."""

FREE_FADE = 0.45
"""How far a free track's colour is mixed towards white, so claimed bands stand out."""
FREE_FADE_BLACK = 0.3
"""Black fades less, or it would look like a gray track."""

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
"""Inner ring of the last move's mark (its outer ring is DARK_INK): white and black stand out around any colour."""
BAND_OUTLINE: RGB = (20, 20, 24)
"""The dark edge of a claimed band."""
WINNER_GLOW: RGB = (255, 196, 0)
"""The glow around the longest-trail winner's trail at the end (edged in DARK_INK)."""
CLOSED_FILL: RGB = (128, 126, 122)
"""A double route's closed twin (2–3 players), with DARK_INK crosses."""
BANNER: RGB = (206, 44, 36)
"""The last-round banner."""

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


def mix(color: RGB, toward: RGB, share: float) -> RGB:
    """`color` moved `share` of the way to `toward`."""
    return (
        round(color[0] + (toward[0] - color[0]) * share),
        round(color[1] + (toward[1] - color[1]) * share),
        round(color[2] + (toward[2] - color[2]) * share),
    )


def free_fill(color: str) -> RGB:
    """The faded fill of a free track's car space of this card colour (gray, locomotive stripes: any colour)."""
    fill = CARD_FILL.get(color, CARD_FILL["gray"])
    return mix(fill, (255, 255, 255), FREE_FADE_BLACK if color == "black" else FREE_FADE)


def player_color(index: int) -> RGB:
    """The colour of a player's colour index (seat), wrapping for safety."""
    return PLAYER_COLORS[index % len(PLAYER_COLORS)]
