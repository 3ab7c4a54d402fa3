"""Write the private Ticket to Ride pictures (hands, ticket choices) and score sheets, to look at as a player would.

Usage: .venv/bin/python bench/ttr_private_gallery.py OUT_DIR [--time]

From seeded bot games: hands (one of a two-player game, whose map shows closed double tracks), opening and mid-game
ticket choices for the USA and Europe in English and Russian, and score sheets for 2 and 5 players. Each picture is
written full size and scaled to 450 and 800 px wide (what the chat shows on a phone and on a desktop). With `--time`,
also prints the milliseconds each kind of picture takes, warm.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ttr_gallery import play, public, save, seat_view  # noqa: E402
from bot.i18n import text  # noqa: E402
from render.ttr import render_hand, render_score_sheet, render_ticket_choice  # noqa: E402
from rules.ttr.state import Phase  # noqa: E402
from rules.ttr.view import PublicView, SeatView  # noqa: E402

NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]
LANGUAGES = ("en", "ru")


def scenes() -> dict[str, Callable[[Callable[..., str]], bytes]]:
    """Every picture of the gallery by name, as a function of the words."""
    out: dict[str, Callable[[Callable[..., str]], bytes]] = {}
    for map_id in ("usa", "europe"):
        opening = play(map_id, 4, 3, until=lambda s, k: True)
        middle = play(map_id, 4, 11, until=lambda s, k: k >= 90 and s.phase is Phase.TURN)
        drawing = play(map_id, 3, 5, until=lambda s, k: s.phase is Phase.TICKETS and k > 60)
        if drawing.phase is not Phase.TICKETS:
            raise SystemExit(f"no mid-game ticket draw in the seeded {map_id} game")
        out[f"{map_id}_opening_tickets"] = functools.partial(render_ticket_choice, seat_view(opening, 0))
        out[f"{map_id}_drawn_tickets"] = functools.partial(render_ticket_choice, seat_view(drawing, drawing.current))
        out[f"{map_id}_hand"] = functools.partial(_hand, seat_view(middle, middle.current))
        out[f"{map_id}_hand_waiting"] = functools.partial(_hand, seat_view(middle, (middle.current + 1) % 4))
    two = play("usa", 2, 5, until=lambda s, k: k >= 60 and s.phase is Phase.TURN)
    out["usa_hand_2p_closed"] = functools.partial(_hand, seat_view(two, 0))
    end_hand = play("europe", 4, 7)
    out["europe_end_hand"] = functools.partial(_hand, seat_view(end_hand, 0))
    out["usa_score_2"] = functools.partial(_scores, public(play("usa", 2, 3)))
    out["usa_score_5"] = functools.partial(_scores, public(play("usa", 5, 7)))
    out["europe_score_5"] = functools.partial(_scores, public(play("europe", 5, 7)))
    return out


def _hand(view: SeatView, labels: Callable[..., str]) -> bytes:
    return render_hand(view, labels, NAMES)


def _scores(view: PublicView, labels: Callable[..., str]) -> bytes:
    return render_score_sheet(view, labels, NAMES)


def timings(pictures: dict[str, Callable[[Callable[..., str]], bytes]], rounds: int = 5) -> None:
    """Print the warm milliseconds of each picture (best of `rounds`, after one drawing to fill the caches)."""
    labels = functools.partial(text, "en")
    for name, draw in pictures.items():
        draw(labels)
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            draw(labels)
            best = min(best, time.perf_counter() - start)
        print(f"{name:28s} {best * 1000:6.1f} ms")


def main(out: Path, timed: bool) -> None:
    """Write the whole gallery to `out`."""
    out.mkdir(parents=True, exist_ok=True)
    pictures = scenes()
    for lang in LANGUAGES:
        labels = functools.partial(text, lang)
        for name, draw in pictures.items():
            save(out, f"{name}.{lang}", draw(labels))
    if timed:
        timings(pictures)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), "--time" in sys.argv[2:])
