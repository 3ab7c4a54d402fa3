"""Write a gallery of Ticket to Ride: The Card Game pictures from seeded bot games, to look at as a player would.

Usage: .venv/bin/python bench/cardgame_gallery.py OUT_DIR

Writes tables (opening, mid game with a robbery, last round, second deck, 2 and 4 players), hands (opening
choice, mid game, tickets drawn, the beginners' variant with the stack shown), the 4-player first scoring and
final score sheets, in English and Russian, plus a phone-size copy (`*.phone.png`) of each.
"""

from __future__ import annotations

import io
import random
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render.cardgame import render_hand, render_scoring, render_table  # noqa: E402
from rules.cardgame import CardGameEngine, CardGameOptions, CardGameState  # noqa: E402
from rules.cardgame.view import CardGameView  # noqa: E402

ENGINE = CardGameEngine()
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov"]
PHONE_WIDTH = 720
"""About what a phone shows across once the picture is opened full screen."""


def labels_for(lang: str) -> dict[str, str]:
    """Every key of the card game's two TOML files, flattened (`cardgame.city.denver`)."""
    flat: dict[str, str] = {}
    for name in ("cardgame", "cardgame_picture"):
        path = ROOT / "bot" / "i18n" / lang / f"{name}.toml"
        _flatten(name, tomllib.loads(path.read_text(encoding="utf-8")), flat)
    return flat


def _flatten(prefix: str, table: dict[str, object], out: dict[str, str]) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _flatten(f"{prefix}.{key}", value, out)
        elif isinstance(value, str):
            out[f"{prefix}.{key}"] = value


Stop = Callable[[CardGameState, int], bool]


def play(n: int, seed: int, until: Stop | None = None, options: CardGameOptions | None = None) -> CardGameState:
    """A seeded game of sensible bots, stopped when `until(state, moves)` holds, or at its end."""
    state = ENGINE.new_game(options or CardGameOptions(), n, seed)
    rng = random.Random(seed)
    moves = 0
    while not ENGINE.is_over(state) and not (until and until(state, moves)):
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
        moves += 1
    return state


def robbed_just_now(state: CardGameState, moves: int) -> bool:
    """Stop right after a play that robbed someone, at a new turn, well into the game."""
    if moves < 40 or state.phase != "turn" or not state.plays:
        return False
    last = state.plays[-1]
    return last.robbed_seat is not None and last.turn == state.turn - 1


def seat_view(state: CardGameState, seat: int) -> CardGameView:
    """A seat's own view."""
    return ENGINE.view(state, seat)


def shots() -> list[tuple[str, Callable[[dict[str, str]], bytes]]]:
    """Every picture of the gallery: (name, draw in a language)."""
    opening = play(4, 3, lambda s, m: m == 1)
    middle = play(4, 5, robbed_just_now)
    last_round = play(3, 8, lambda s, m: s.last_turns_left is not None and s.phase == "turn")
    second_deck = play(4, 9, lambda s, m: s.deck_number == 2 and s.phase == "turn")
    two = play(2, 4, lambda s, m: m > 30 and s.phase == "turn")
    drawing = play(3, 6, lambda s, m: m > 20 and s.phase == "tickets")
    beginners = play(3, 7, lambda s, m: m > 50 and s.phase == "turn", CardGameOptions(stack_visible_to_owner=True))
    end4 = play(4, 12)
    end2 = play(2, 13)
    return [
        ("table_opening", lambda L: render_table(ENGINE.view(opening, None), L, NAMES)),
        ("hand_opening", lambda L: render_hand(seat_view(opening, 1), L, NAMES)),
        ("table_middle_robbery", lambda L: render_table(ENGINE.view(middle, None), L, NAMES)),
        ("hand_middle", lambda L: render_hand(seat_view(middle, middle.current), L, NAMES)),
        ("table_last_round", lambda L: render_table(ENGINE.view(last_round, None), L, NAMES)),
        ("table_second_deck", lambda L: render_table(ENGINE.view(second_deck, None), L, NAMES)),
        ("table_two_players", lambda L: render_table(ENGINE.view(two, None), L, NAMES)),
        ("hand_tickets_drawn", lambda L: render_hand(seat_view(drawing, drawing.current), L, NAMES)),
        ("hand_beginners_stack", lambda L: render_hand(seat_view(beginners, beginners.current), L, NAMES)),
        ("first_scoring", lambda L: render_scoring(ENGINE.view(second_deck, None), L, NAMES, "first")),
        ("final_four", lambda L: render_scoring(ENGINE.view(end4, None), L, NAMES, "final")),
        ("final_two", lambda L: render_scoring(ENGINE.view(end2, None), L, NAMES, "final")),
        ("table_end", lambda L: render_table(ENGINE.view(end4, None), L, NAMES)),
    ]


def phone(png: bytes) -> bytes:
    """The picture shrunk to a phone's width, as a player would see it."""
    image = Image.open(io.BytesIO(png))
    scale = PHONE_WIDTH / image.width
    small = image.convert("RGB").resize((PHONE_WIDTH, round(image.height * scale)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def main() -> None:
    """Write every picture in English and Russian to the folder named on the command line."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "gallery-cardgame")
    out.mkdir(parents=True, exist_ok=True)
    languages = {"en": labels_for("en"), "ru": labels_for("ru")}
    for name, draw in shots():
        for lang, labels in languages.items():
            png = draw(labels)
            suffix = "" if lang == "en" else "_ru"
            (out / f"{name}{suffix}.png").write_bytes(png)
            (out / f"{name}{suffix}.phone.png").write_bytes(phone(png))
            print(f"{name}{suffix}: {len(png) // 1024} KiB")


if __name__ == "__main__":
    main()
