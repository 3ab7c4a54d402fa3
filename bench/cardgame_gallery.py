"""Write a gallery of Ticket to Ride: The Card Game pictures from seeded bot games, to look at as a player would.

Usage: .venv/bin/python bench/cardgame_gallery.py OUT_DIR

Writes tables (opening, mid game with a robbery, a black card in the market, the 4-player countdown to the first
scoring, the last round, the second deck, 2 and 4 players), hands (opening ticket choice, mid game, a full Rail Yard,
tickets drawn, the beginners' variant with the stack shown, after the first scoring), the first and final scorings
(summary and detail), in English and Russian. Each picture is written full size and as Discord shows it: 450 px wide
(`*.450.png`) and 800 px wide (`*.800.png`).
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.i18n import text  # noqa: E402
from render.cardgame import (  # noqa: E402
    render_hand,
    render_scoring,
    render_scoring_detail,
    render_table,
)
from render.labels import Labels  # noqa: E402
from rules.cardgame import CardGameEngine, CardGameOptions, CardGameState  # noqa: E402
from rules.cardgame.view import CardGameView, YardGroupView  # noqa: E402

ENGINE = CardGameEngine()
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov"]
BOTS = frozenset({2, 3})
"""Seats bot players sit in at the tables (their names carry the bot mark): a short name and the longest."""
SHOWN_WIDTHS = (450, 800)
"""How wide Discord shows a picture in the chat (450: a narrow column or a phone), and a wide desktop column."""


def labels_for(lang: str) -> Labels:
    """The bot's own translations (plural forms included), as the bot hands them to the pictures."""
    return partial(text, lang)


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


def with_black_card(view: CardGameView) -> CardGameView:
    """The same table with a black card (and a white one) in the face-up row."""
    return view.model_copy(update={"face_up": ["black", "white", *view.face_up[2:]]})


def with_full_yard(view: CardGameView) -> CardGameView:
    """The same hand with four groups in its own Rail Yard (two of them with locomotives), and cards of two of those
    colours in hand: what may be robbed, and what may not be played."""
    assert view.seat is not None
    yard = [
        YardGroupView(color="red", cards=3, locomotives=1),
        YardGroupView(color="blue", cards=1, locomotives=0),
        YardGroupView(color="green", cards=2, locomotives=0),
        YardGroupView(color="black", cards=5, locomotives=2),
    ]
    players = list(view.players)
    players[view.seat] = players[view.seat].model_copy(update={"yard": yard})
    hand = {**(view.hand or {}), "red": 2, "blue": 1}
    return view.model_copy(update={"players": players, "hand": hand})


def shots() -> list[tuple[str, Callable[[Labels], bytes]]]:
    """Every picture of the gallery: (name, draw in a language)."""
    opening = play(4, 3, lambda s, m: m == 1)
    middle = play(4, 5, robbed_just_now)
    countdown = play(4, 9, lambda s, m: s.last_turns_left is not None and s.deck_number == 1 and s.phase == "turn")
    last_round = play(3, 8, lambda s, m: s.last_turns_left is not None and s.phase == "turn")
    second_deck = play(4, 9, lambda s, m: s.deck_number == 2 and s.phase == "turn")
    two = play(2, 4, lambda s, m: m > 30 and s.phase == "turn")
    drawing = play(3, 6, lambda s, m: m > 20 and s.phase == "tickets")
    beginners = play(3, 7, lambda s, m: m > 50 and s.phase == "turn", CardGameOptions(stack_visible_to_owner=True))
    end4 = play(4, 12)
    end2 = play(2, 13)
    choosing = next(s for s in range(opening.n_players) if not opening.players[s].chose_opening)
    return [
        ("table_opening", lambda L: render_table(ENGINE.view(opening, None), L, NAMES, BOTS)),
        ("hand_opening_choice", lambda L: render_hand(seat_view(opening, choosing), L, NAMES)),
        ("table_middle_robbery", lambda L: render_table(ENGINE.view(middle, None), L, NAMES, BOTS)),
        ("table_black_card", lambda L: render_table(with_black_card(ENGINE.view(middle, None)), L, NAMES, BOTS)),
        ("hand_middle", lambda L: render_hand(seat_view(middle, middle.current), L, NAMES)),
        ("hand_full_yard", lambda L: render_hand(with_full_yard(seat_view(middle, middle.current)), L, NAMES)),
        ("table_first_scoring_countdown", lambda L: render_table(ENGINE.view(countdown, None), L, NAMES, BOTS)),
        ("table_last_round", lambda L: render_table(ENGINE.view(last_round, None), L, NAMES, BOTS)),
        ("table_second_deck", lambda L: render_table(ENGINE.view(second_deck, None), L, NAMES, BOTS)),
        ("hand_second_deck", lambda L: render_hand(seat_view(second_deck, 0), L, NAMES)),
        ("table_two_players", lambda L: render_table(ENGINE.view(two, None), L, NAMES, BOTS)),
        ("hand_tickets_drawn", lambda L: render_hand(seat_view(drawing, drawing.current), L, NAMES)),
        ("hand_beginners_stack", lambda L: render_hand(seat_view(beginners, beginners.current), L, NAMES)),
        ("first_scoring", lambda L: render_scoring(ENGINE.view(second_deck, None), L, NAMES, "first")),
        ("first_scoring_detail", lambda L: render_scoring_detail(ENGINE.view(second_deck, None), L, NAMES, "first")),
        ("final_four", lambda L: render_scoring(ENGINE.view(end4, None), L, NAMES, "final")),
        ("final_four_detail", lambda L: render_scoring_detail(ENGINE.view(end4, None), L, NAMES, "final")),
        ("final_two", lambda L: render_scoring(ENGINE.view(end2, None), L, NAMES, "final")),
        ("final_two_detail", lambda L: render_scoring_detail(ENGINE.view(end2, None), L, NAMES, "final")),
        ("table_end", lambda L: render_table(ENGINE.view(end4, None), L, NAMES, BOTS)),
    ]


def shown(png: bytes, width: int) -> bytes:
    """The picture scaled to `width` pixels across, as the chat shows it."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def main() -> None:
    """Write every picture in English and Russian to the folder named on the command line."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "gallery-cardgame")
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in shots():
        for lang in ("en", "ru"):
            png = draw(labels_for(lang))
            stem = name if lang == "en" else f"{name}_ru"
            (out / f"{stem}.png").write_bytes(png)
            for width in SHOWN_WIDTHS:
                (out / f"{stem}.{width}.png").write_bytes(shown(png, width))
            size = Image.open(io.BytesIO(png)).size
            print(f"{stem}: {size[0]}×{size[1]}, {len(png) // 1024} KiB")


if __name__ == "__main__":
    main()
