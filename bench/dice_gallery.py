"""Write example dice-game pictures (English and Russian) to a folder, to look at them as a player would.

Usage: python bench/dice_gallery.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dice_examples import NAMES, finished_turns, score_views, turn_views

from bot.i18n import table
from render.dice import render_finished_turn, render_scores, render_turn


def main(out: Path) -> None:
    """Render every example in both languages into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for language in ("en", "ru"):
        labels = table(language)
        pictures = {name: render_turn(view, labels, NAMES) for name, view in turn_views().items()}
        pictures |= {name: render_finished_turn(record, labels, NAMES) for name, record in finished_turns().items()}
        pictures |= {name: render_scores(view, labels, NAMES) for name, view in score_views().items()}
        for name, png in pictures.items():
            path = out / f"{name}.{language}.png"
            path.write_bytes(png)
            print(f"{path}  {len(png):>6} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
