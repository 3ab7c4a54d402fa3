"""Write every game's final pictures, in English and Russian, as a phone shows the final message, to look at them as a
player would.

Usage: .venv/bin/python bench/final_gallery.py OUT_DIR

From seeded bot games: Ticket to Ride (USA with 2 and 5 players, Europe with 5, a bot seat among them), the card game
(2 and 4 players) and the dice game. Each picture is written full size (`NAME.png`) and 450 px wide (`NAME.450.png`),
and each final message's pictures are stacked as a 450 px chat column shows them, one gallery under the other
(`NAME.column.png`: a lone picture scaled to the column and capped in height, as the local Discord says).
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import cardgame_gallery, dice_examples, ttr_gallery  # noqa: E402
from bot.i18n import text  # noqa: E402
from localdiscord.display import PHONE_COLUMN, shown_gallery  # noqa: E402
from render.cardgame import render_scoring, render_scoring_detail, render_table  # noqa: E402
from render.dice import render_scores  # noqa: E402
from render.ttr import render_board, render_score_sheet, render_score_summary  # noqa: E402
from rules.cardgame.view import CardGameView  # noqa: E402
from rules.ttr.view import PublicView  # noqa: E402

NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]
BOTS = frozenset({2})
"""Chen Wei is a bot player."""
LANGUAGES = ("en", "ru")
Message = Callable[[Callable[..., str]], list[bytes]]


def messages() -> dict[str, Message]:
    """Every final message of the gallery by name: its pictures in order, as a function of the words."""
    out: dict[str, Message] = {}
    for name, map_id, players, seed in (("usa_2", "usa", 2, 3), ("usa_5", "usa", 5, 7), ("europe_5", "europe", 5, 7)):
        view = ttr_gallery.public(ttr_gallery.play(map_id, players, seed))
        out[f"ttr_{name}"] = functools.partial(_ttr, view)
    for players, seed in ((2, 4), (4, 11)):
        view = cardgame_gallery.ENGINE.view(cardgame_gallery.play(players, seed), None)
        out[f"cardgame_{players}"] = functools.partial(_cardgame, view)
    over = dice_examples.score_views()["scores_game_over"]
    out["dice"] = lambda labels: [render_scores(over, labels, dice_examples.NAMES)]
    return out


def _ttr(view: PublicView, labels: Callable[..., str]) -> list[bytes]:
    """Ticket to Ride's final pictures: the summary, the final board, the score sheet."""
    return [
        render_score_summary(view, labels, NAMES, BOTS),
        render_board(view, labels, NAMES),
        render_score_sheet(view, labels, NAMES, BOTS),
    ]


def _cardgame(view: CardGameView, labels: Callable[..., str]) -> list[bytes]:
    """The card game's final pictures: the summary, the final table, the detail."""
    return [
        render_scoring(view, labels, NAMES, "final", BOTS),
        render_table(view, labels, NAMES),
        render_scoring_detail(view, labels, NAMES, "final", BOTS),
    ]


def column(pictures: list[bytes]) -> Image.Image:
    """The pictures one gallery each, as a phone's chat column shows them (a 10 px gap between)."""
    shown = [(Image.open(io.BytesIO(data)).convert("RGB"), shown_gallery([("p.png", data)])[0]) for data in pictures]
    height = sum(s.height + 10 for _, s in shown)
    out = Image.new("RGB", (PHONE_COLUMN, height), (49, 51, 56))
    y = 0
    for image, size in shown:
        out.paste(image.resize((size.width, size.height), Image.Resampling.LANCZOS), (0, y))
        y += size.height + 10
    return out


def main(out: Path) -> None:
    """Write the whole gallery to `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for name, message in messages().items():
        for language in LANGUAGES:
            pictures = message(functools.partial(text, language))
            for k, data in enumerate(pictures):
                image = Image.open(io.BytesIO(data)).convert("RGB")
                stem = f"{name}_{k}.{language}"
                (out / f"{stem}.png").write_bytes(data)
                small = image.resize((450, round(image.height * 450 / image.width)), Image.Resampling.LANCZOS)
                small.save(out / f"{stem}.450.png")
                print(f"{stem}.png  {image.width}x{image.height}")
            column(pictures).save(out / f"{name}.{language}.column.png")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
