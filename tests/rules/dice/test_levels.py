"""Bot levels of «Поезд»: always legal, deterministic per rng, the turn model true to the engine; the coach's hint."""

from __future__ import annotations

import random
import string
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.dice import DiceOptions, DiceState, GameMode, TieRule
from rules.dice.bot import KINDS
from rules.dice.bot.hard import action_of
from rules.dice.bot.turn_model import moves, node_of, outcomes
from rules.engine import Message

from .helpers import ENGINE, game, turn

ROOT = Path(__file__).parents[3]


def positions(n: int, seed: int, options: DiceOptions) -> Iterator[DiceState]:
    """Every decision of a seeded game between normal players."""
    state = ENGINE.new_game(options, n, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        yield state
        (seat,) = ENGINE.to_act(state)
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "normal"))


OPTIONS = [
    DiceOptions(target=40),
    DiceOptions(target=40, tie=TieRule.PLAY_ON),
    DiceOptions(mode=GameMode.ELIMINATION),
]


@pytest.mark.parametrize("n", [2, 3, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 5, 6))])
def test_every_level_plays_whole_games_legally(n: int) -> None:
    kinds = ["hard", "easy", "normal", "random", "sensible"]
    for seed in range(2):
        options = OPTIONS[(n + seed) % len(OPTIONS)]
        state = ENGINE.new_game(options, n, seed)
        rng = random.Random(seed)
        steps = 0
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            action = ENGINE.bot_action(state, seat, rng, kinds[(seat + seed) % len(kinds)])
            assert action.encode() in {a.encode() for a in ENGINE.legal_actions(state, seat)}
            state, _ = ENGINE.apply(state, seat, action)
            steps += 1
            assert steps < 5000


def test_unknown_kind_is_refused() -> None:
    state = next(positions(2, 0, DiceOptions()))
    assert state.turn is not None
    with pytest.raises(ValueError):
        ENGINE.bot_action(state, state.turn.seat, random.Random(0), "genius")
    assert {"easy", "normal", "hard", "random", "sensible"} <= set(KINDS)


def test_every_level_is_deterministic_per_rng() -> None:
    for state in list(positions(3, 4, DiceOptions()))[:15]:
        assert state.turn is not None
        for kind in ("easy", "normal", "hard", "random"):
            first = ENGINE.bot_action(state, state.turn.seat, random.Random(9), kind)
            assert first == ENGINE.bot_action(state, state.turn.seat, random.Random(9), kind)


def test_the_turn_model_offers_exactly_the_engines_moves() -> None:
    for seed, options in enumerate(OPTIONS):
        for state in positions(2, seed, options):
            assert state.turn is not None
            offered = [action_of(move).encode() for move in moves(node_of(state.turn))]
            assert offered == [a.encode() for a in ENGINE.legal_actions(state, state.turn.seat)]


def test_roll_outcomes_are_a_distribution() -> None:
    for dice in range(1, 7):
        assert abs(sum(chance for _, chance in outcomes(dice)) - 1) < 1e-12


def hard_move(state: DiceState) -> str:
    """The hard player's encoded move for the player in turn."""
    assert state.turn is not None
    return ENGINE.bot_action(state, state.turn.seat, random.Random(0), "hard").encode()


def test_hard_rolls_on_when_stopping_cannot_win() -> None:
    # The last turn of the game: stopping with 95 + 6 loses to 102, so only rolling can still win.
    history = _history(mine=95, theirs=102)
    state = game(turn(1, showing="EE", train="ECTB", rolls=2), history=history, last_round=True)
    assert hard_move(state) == "roll"


def test_hard_stops_when_stopping_wins() -> None:
    # A freight run could crash; stopping with 95 + 7 beats 100 for sure (the normal player would freight).
    history = _history(mine=95, theirs=100)
    state = game(turn(1, train="EECBBH"), history=history, last_round=True)
    assert hard_move(state) == "stop"
    assert ENGINE.bot_action(state, 1, random.Random(0), "normal").encode() == "freight"


def _history(mine: int, theirs: int) -> tuple[object, ...]:
    """Finished turns giving seat 0 `theirs` points and seat 1 `mine`."""
    from rules.dice.state import Outcome, TurnRecord

    return (
        TurnRecord(seat=0, round=1, points=theirs, outcome=Outcome.SCORED, train=()),
        TurnRecord(seat=1, round=1, points=mine, outcome=Outcome.SCORED, train=()),
    )


def _words(language: str) -> dict[str, str]:
    """The keys the hints may use in one language: the hint's file and the game's (for nested face names)."""
    out: dict[str, str] = {}
    for name in ("dice", "dice_hint"):
        table = tomllib.loads((ROOT / "bot" / "i18n" / language / f"{name}.toml").read_text(encoding="utf-8"))
        stack: list[tuple[str, dict[str, object]]] = [(name, table)]
        while stack:
            prefix, part = stack.pop()
            for key, value in part.items():
                if isinstance(value, dict):
                    stack.append((f"{prefix}.{key}", value))
                else:
                    out[f"{prefix}.{key}"] = str(value)
    return out


def placeholders(template: str) -> set[str]:
    """The {names} a template uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def parts(message: Message) -> Iterator[Message]:
    """A message and those nested in its parameters."""
    yield message
    for value in message.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Message):
                yield from parts(item)


def test_hint_is_legal_and_worded_in_both_languages() -> None:
    en, ru = _words("en"), _words("ru")
    seen = set()
    for seed, options in enumerate(OPTIONS):
        for state in list(positions(2, seed, options))[:30]:
            assert state.turn is not None
            given = ENGINE.hint(state, state.turn.seat, random.Random(0))
            assert given.action.encode() in {a.encode() for a in ENGINE.legal_actions(state, state.turn.seat)}
            assert given.action == ENGINE.bot_action(state, state.turn.seat, random.Random(0), "hard")
            for part in parts(given.reason):
                assert part.key in en and part.key in ru, part.key
            assert placeholders(en[given.reason.key]) <= set(given.reason.params), given.reason
            seen.add(given.reason.key)
    # Outside freight a roll never loses a car, so the hard player stops early only when freight could crash.
    assert {"dice_hint.add", "dice_hint.roll"} <= seen


def test_hint_keys_match_between_languages() -> None:
    en, ru = _words("en"), _words("ru")
    ours = sorted(key for key in en if key.startswith("dice_hint."))
    assert ours == sorted(key for key in ru if key.startswith("dice_hint."))
    assert all(placeholders(en[key]) == placeholders(ru[key]) for key in ours)
