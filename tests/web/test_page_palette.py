"""The live board page draws with the pictures' own colours: a Ticket to Ride map's come with its geometry
(bot/web/board/maps.py), and the page's copy of the rest in draw.js (it has no build step to read them from Python)
equals what render/ holds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from render import dice, dice_faces
from render.cardgame import pieces
from render.ttr import cards, palette

SCRIPT = Path(__file__).resolve().parents[2] / "bot" / "web" / "board" / "static" / "draw.js"


def colour(rgb: tuple[int, int, int]) -> str:
    """`#rrggbb`, as the page writes a colour."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def pictures_palette() -> dict[str, Any]:
    """Every colour the page takes from the pictures, in the shape of draw.js's PALETTE."""
    ttr_names = ("dark_ink", "light_ink", "banner", "panel_bg", "panel_card", "panel_active", "panel_text")
    ttr_names += ("panel_muted", "accent")
    return {
        "card": {name: colour(rgb) for name, rgb in palette.CARD_FILL.items()},
        "symbol": dict(palette.CARD_SYMBOL),
        "stripes": [colour(rgb) for rgb in palette.LOCOMOTIVE_STRIPES],
        "ttr": {name: colour(getattr(palette, name.upper())) for name in ttr_names}
        | {
            "card_back": colour(cards.CARD_BACK),
            "card_back_ink": colour(cards.CARD_BACK_INK),
        },
        "cardgame": {
            name: colour(getattr(pieces, name.upper()))
            for name in ("back", "back_trim", "ticket_back", "ticket_trim", "bonus_fill", "bonus_edge", "card_rim")
        },
        "dice": {
            name: colour(getattr(dice, name.upper()))
            for name in ("paper", "panel", "edge", "shadow", "muted", "faint", "faded_ink", "accent", "gold")
        }
        | {name: colour(getattr(dice_faces, name.upper())) for name in ("ink", "wheel", "window")}
        | {"body": {face.value: colour(rgb) for face, rgb in dice_faces.BODY.items()}},
    }


def page_palette() -> dict[str, Any]:
    """The PALETTE object draw.js draws with (a plain object literal, ended by a marker comment), read as JSON."""
    text = SCRIPT.read_text(encoding="utf-8")
    found = re.search(r"const PALETTE = (\{.*?\});\s*// end of PALETTE", text, re.S)
    assert found is not None, "draw.js must keep its PALETTE as a plain object literal before `// end of PALETTE`"
    keys_quoted = re.sub(r"([{,]\s*)([A-Za-z_]\w*)\s*:", r'\1"\2":', found.group(1))
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", keys_quoted))


def test_the_page_draws_with_the_pictures_colours() -> None:
    assert page_palette() == pictures_palette()
