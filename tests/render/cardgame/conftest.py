"""Seeded card games for the render tests, played once per test session by sensible bots."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from rules.cardgame import CardGameEngine, CardGameOptions, CardGameState
from rules.cardgame.view import CardGameView

ENGINE = CardGameEngine()
ROOT = Path(__file__).resolve().parents[3]
NAMES = ["Alice", "Борис", "Chen", "Dmitri"]

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


def seat_view(state: CardGameState, seat: int) -> CardGameView:
    """A seat's own view of a state."""
    return ENGINE.view(state, seat)


def words(lang: str, *namespaces: str) -> dict[str, str]:
    """The flattened tables of these namespaces in one language (`cardgame_picture.table.title`)."""
    flat: dict[str, str] = {}

    def walk(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(f"{prefix}.{key}", value)
            else:
                flat[f"{prefix}.{key}"] = str(value)

    for namespace in namespaces:
        path = ROOT / "bot" / "i18n" / lang / f"{namespace}.toml"
        walk(namespace, tomllib.loads(path.read_text(encoding="utf-8")))
    return flat


def _robbed_just_now(state: CardGameState, moves: int) -> bool:
    if moves < 30 or state.phase != "turn" or not state.plays:
        return False
    last = state.plays[-1]
    return last.robbed_seat is not None and last.turn == state.turn - 1


@pytest.fixture(scope="session")
def opening() -> CardGameState:
    """4 players, the host has chosen, the others are still choosing their opening tickets."""
    return play(4, 3, lambda s, m: m == 1)


@pytest.fixture(scope="session")
def robbery() -> CardGameState:
    """4 players, a turn that starts right after a play robbed someone."""
    return play(4, 5, _robbed_just_now)


@pytest.fixture(scope="session")
def second_deck() -> CardGameState:
    """4 players just after the first scoring, playing the second deck."""
    return play(4, 9, lambda s, m: s.deck_number == 2 and s.phase == "turn")


@pytest.fixture(scope="session")
def countdown() -> CardGameState:
    """4 players, the first deck just ran out: the turns before the first scoring (not the last round)."""
    return play(4, 9, lambda s, m: s.last_turns_left is not None and s.deck_number == 1 and s.phase == "turn")


@pytest.fixture(scope="session")
def last_round() -> CardGameState:
    """3 players, the deck ran out: the game's last round."""
    return play(3, 8, lambda s, m: s.last_turns_left is not None and s.phase == "turn")


@pytest.fixture(scope="session")
def beginners() -> CardGameState:
    """3 players well into a game of the beginners' variant (owners see their own stack)."""
    return play(3, 7, lambda s, m: m > 50 and s.phase == "turn", CardGameOptions(stack_visible_to_owner=True))


@pytest.fixture(scope="session")
def four_end() -> CardGameState:
    return play(4, 12)


@pytest.fixture(scope="session")
def two_middle() -> CardGameState:
    return play(2, 4, lambda s, m: m > 30 and s.phase == "turn")
