"""The pieces every card-game picture is built of: face-down piles, Rail Yard groups, cards with counts and
big-city bonus cards.

Train cards are Ticket to Ride's own (`render.ttr.cards`): the same colours and the same colour-blind symbols,
so a red card looks the same in both games. On the dark table each card also gets a light rim.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.cardgame.words import city_word
from render.fonts import font
from render.glyphs import bot_mark
from render.ttr.cards import card_image, draw_card, paste_card
from render.ttr.palette import ACCENT, DARK_INK, LIGHT_INK, PAPER_MUTED, PAPER_TEXT, RGB
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, fitted
from rules.cardgame.cards import KIND_NAMES

Box = tuple[float, float, float, float]

BACK: RGB = (120, 30, 44)
"""The face-down side of a train card (deck and Train Stacks)."""
BACK_TRIM: RGB = (232, 190, 92)
TICKET_BACK: RGB = (226, 214, 186)
TICKET_TRIM: RGB = (150, 122, 70)
TICKET_OPEN: RGB = (232, 140, 30)
"""A ticket's points badge while it is neither won nor lost."""
PAPER_ACCENT: RGB = (186, 108, 8)
"""The gold accent where it stands on paper (the panel's gold is too pale there)."""
BONUS_FILL: RGB = (255, 240, 196)
BONUS_EDGE: RGB = (196, 150, 52)

CARD_RIM: RGB = (214, 220, 232)
"""The outline of every card on the dark table: a black card's own dark edge would vanish into the panel."""

PILE_STEP = 4
"""Pixels each card under the top one shows of a face-down pile."""


@lru_cache(maxsize=96)
def rimmed_card(color: str, width: int, height: int) -> Image.Image:
    """A train card for the dark table: the shared card face inside a light rim, so it stands out whatever its
    colour (drawn twice as large and shrunk, with alpha)."""
    big = Image.new("RGBA", (width * 2, height * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = (0, 0, width * 2 - 1, height * 2 - 1)
    draw_card(draw, box, color, outline=CARD_RIM)
    rim = max(4, round(min(width, height) * 2 / 16))
    draw.rounded_rectangle(box, radius=min(width, height) * 2 * 0.14, outline=CARD_RIM, width=rim)
    return big.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")


def paste_rimmed(image: Image.Image, x: float, y: float, color: str, width: int, height: int) -> None:
    """Paste a rimmed card (the table's) with its top-left corner at (x, y)."""
    card = rimmed_card(color, width, height)
    image.paste(card, (round(x), round(y)), card)


@lru_cache(maxsize=32)
def back_image(width: int, height: int, ticket: bool = False) -> Image.Image:
    """A smooth face-down card (train card, or ticket with `ticket`), drawn large and shrunk, with alpha.

    Plain but for a trim: a pile's size is written on its top card.
    """
    big = Image.new("RGBA", (width * 2, height * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h = width * 2 - 1, height * 2 - 1
    fill, trim = (TICKET_BACK, TICKET_TRIM) if ticket else (BACK, BACK_TRIM)
    radius = min(w, h) * 0.14
    draw.rounded_rectangle((0, 0, w, h), radius=radius, fill=fill, outline=DARK_INK, width=max(2, round(w / 26)))
    inset = min(w, h) * 0.12
    draw.rounded_rectangle(
        (inset, inset, w - inset, h - inset), radius=radius * 0.6, outline=trim, width=max(2, round(w / 30))
    )
    return big.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")


def paste_pile(
    image: Image.Image,
    x: float,
    y: float,
    width: int,
    height: int,
    count: int,
    *,
    ticket: bool = False,
    empty_ink: RGB = PAPER_MUTED,
) -> Box:
    """A face-down pile of `count` cards with its size written on top; an empty pile is a dashed outline.

    Thicker piles show more edges (one per 6 cards, up to 4), so sizes compare at a glance. Returns the top
    card's box.
    """
    draw = ImageDraw.Draw(image)
    if count <= 0:
        _dashed(draw, (x, y, x + width, y + height), empty_ink)
        zero = font(round(height * 0.3), bold=True)
        draw.text((x + width / 2, y + height / 2), "0", font=zero, fill=empty_ink, anchor="mm")
        return (x, y, x + width, y + height)
    layers = min(4, 1 + (count - 1) // 6)
    back = back_image(width, height, ticket)
    for layer in range(layers - 1, -1, -1):
        image.paste(back, (round(x + layer * PILE_STEP), round(y - layer * PILE_STEP)), back)
    top = (x, y, x + width, y + height)
    size = round(height * (0.34 if count < 100 else 0.26))
    ink = DARK_INK if ticket else LIGHT_INK
    halo = TICKET_BACK if ticket else DARK_INK
    draw.text(
        ((top[0] + top[2]) / 2, (top[1] + top[3]) / 2),
        str(count),
        font=font(size, bold=True),
        fill=ink,
        anchor="mm",
        stroke_width=max(2, size // 9),
        stroke_fill=halo,
    )
    return top


def paste_group(
    image: Image.Image, x: float, y: float, width: int, height: int, color: str, cards: int, locomotives: int
) -> Box:
    """A Rail Yard group: a fan of its cards (locomotives at the back), at most 5 shown; returns the fan's box.

    The fan's own size is read from the count the caller writes under it; the fan only shows the group's mix.
    """
    shown = min(cards, 5)
    locos = min(locomotives, shown - 1)  # step 1 moves locomotives first, so a group always keeps a natural card
    step = fan_step(width)
    for layer in range(shown):
        kind = "locomotive" if layer < locos else color
        paste_rimmed(image, x + layer * step, y, kind, width, height)
    return (x, y, x + (shown - 1) * step + width, y + height)


def fan_step(width: int) -> int:
    """How far each card of a yard group's fan shows beside the next."""
    return max(6, round(width * 0.24))


def fan_width(width: int, cards: int) -> int:
    """The width of a fan of `cards` cards (as `paste_group` draws it)."""
    return width + (min(cards, 5) - 1) * fan_step(width)


def paste_counts(
    image: Image.Image,
    x: float,
    y: float,
    counts: dict[str, int],
    *,
    width: int = 24,
    height: int = 34,
    ink: RGB = PAPER_TEXT,
    size: int = 17,
    gap: int = 10,
) -> float:
    """Small cards with their counts ("▮×2 ▮×1") in kind order; returns the x after the last one."""
    draw = ImageDraw.Draw(image)
    face = font(size, bold=True)
    for kind in KIND_NAMES:
        count = counts.get(kind, 0)
        if count <= 0:
            continue
        paste_card(image, x, y, kind, width, height)
        label = f"×{count}"
        draw.text((x + width + 3, y + height / 2), label, font=face, fill=ink, anchor="lm")
        x += width + 3 + face.getlength(label) + gap
    return x


def counts_width(counts: dict[str, int], *, width: int = 24, size: int = 17, gap: int = 10) -> float:
    """How wide `paste_counts` draws these counts."""
    face = font(size, bold=True)
    return sum(width + 3 + face.getlength(f"×{n}") + gap for n in counts.values() if n > 0)


def signed(points: int) -> str:
    """Points with their sign, a true minus for losses ("+5", "−9")."""
    return f"{points:+d}".replace("-", "−")


def paste_row(image: Image.Image, x: float, y: float, kinds: Sequence[str], width: int, height: int, gap: int) -> float:
    """Cards side by side, one per entry (the cards that served a ticket); returns the x after the last."""
    for kind in kinds:
        paste_card(image, x, y, kind, width, height)
        x += width + gap
    return x


def bonus_card(image: Image.Image, box: Box, city: str, bonus: int, labels: Labels, *, edge: RGB = BONUS_EDGE) -> None:
    """A big-city bonus card: a star and its value over the city's name, sized to the box."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    h = y1 - y0
    draw.rounded_rectangle(box, radius=8, fill=BONUS_FILL, outline=edge, width=3 if edge == ACCENT else 2)
    star, middle = h * 0.4, y0 + h * 0.3
    draw_star_icon(draw, (x0 + 6 + star / 2, middle), star, BONUS_EDGE)
    draw.text(
        (x0 + 10 + star, middle), f"+{bonus}", font=font(round(h * 0.42), bold=True), fill=PAPER_TEXT, anchor="lm"
    )
    name, face = fitted(city_word(labels, city), round(h * 0.31), x1 - x0 - 12, bold=True, minimum=12)
    draw.text((x0 + 6, y1 - 5), name, font=face, fill=PAPER_TEXT, anchor="ld")


def _dashed(draw: ImageDraw.ImageDraw, box: Box, ink: RGB) -> None:
    """A dashed rounded outline (an empty place)."""
    x0, y0, x1, y1 = box
    dash = 8
    for x in range(round(x0), round(x1), dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=ink, width=2)
        draw.line((x, y1, min(x + dash, x1), y1), fill=ink, width=2)
    for y in range(round(y0), round(y1), dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=ink, width=2)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=ink, width=2)


def paste_ghost(image: Image.Image, x: float, y: float, color: str, width: int, height: int, ink: RGB) -> Box:
    """A faded card crossed out: a group that was just robbed from this place."""
    card = card_image(color, width, height).copy()
    card.putalpha(card.getchannel("A").point(lambda a: a * 40 // 100))
    image.paste(card, (round(x), round(y)), card)
    draw = ImageDraw.Draw(image)
    inset = width * 0.18
    line = max(3, width // 12)
    draw.line((x + inset, y + inset, x + width - inset, y + height - inset), fill=ink, width=line)
    draw.line((x + width - inset, y + inset, x + inset, y + height - inset), fill=ink, width=line)
    return (x, y, x + width, y + height)


def dashed_slot(image: Image.Image, box: Box, ink: RGB) -> None:
    """An empty card place, outlined in dashes."""
    _dashed(ImageDraw.Draw(image), box, ink)


def paste_bot_mark(image: Image.Image, x: float, middle: float, size: int, colour: RGB) -> float:
    """The bot mark (a robot's head, the picture font has no 🤖) with its left edge at `x`, centred on `middle`, as
    a bot player's name carries it; returns where it ends."""
    mark = bot_mark(size, colour)
    image.paste(mark, (round(x), round(middle - size / 2)), mark)
    return x + size
