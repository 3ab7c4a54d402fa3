"""Write example dice-game pictures (English and Russian) to a folder, to look at them as a player would: each full
size and as Discord shows it, 450 px wide (`*.450.png`) and 800 px wide (`*.800.png`).

Usage: python bench/dice_gallery.py OUT_DIR
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dice_examples import BOTS, NAMES, finished_turns, score_views, turn_views

from bot.i18n import table
from render.dice import render_finished_turn, render_scores, render_turn

SHOWN_WIDTHS = (450, 800)
"""How wide Discord shows a picture in the chat (450: a narrow column or a phone), and a wide desktop column."""


def shown(png: bytes, width: int) -> bytes:
    """The picture scaled to `width` pixels across, as the chat shows it."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def main(out: Path) -> None:
    """Render every example in both languages into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for language in ("en", "ru"):
        labels = table(language)
        pictures = {name: render_turn(view, labels, NAMES, BOTS) for name, view in turn_views().items()}
        pictures |= {
            name: render_finished_turn(record, labels, NAMES, BOTS) for name, record in finished_turns().items()
        }
        pictures |= {name: render_scores(view, labels, NAMES, BOTS) for name, view in score_views().items()}
        for name, png in pictures.items():
            path = out / f"{name}.{language}.png"
            path.write_bytes(png)
            for width in SHOWN_WIDTHS:
                path.with_suffix(f".{width}.png").write_bytes(shown(png, width))
            print(f"{path}  {len(png):>6} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
