"""Golden transcripts of whole seeded card games: every move and event as text, compared byte for byte.

The moves come from a fixed policy written here (the first legal move after a seeded shuffle), not from the bot
players, so only a change in the rules or the events shows up as a diff. Regenerate only on purpose:
`UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/cardgame/test_cardgame_golden.py`.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rules.cardgame.options import CardGameOptions
from rules.engine import Event, Message

from .support import ENGINE

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("2p-printed-rules", 2, 11, {}),
    ("3p-no-locomotive-reset", 3, 12, {"three_locomotive_reset": False}),
    ("4p-two-decks-visible-stacks", 4, 13, {"stack_visible_to_owner": True}),
]


def _words(message: Message) -> str:
    """A message as compact text: `played_group(color=color.red, count=2, …)`, keys without `cardgame.`."""
    key = message.key.removeprefix("cardgame.")
    if not message.params:
        return key
    return key + "(" + ", ".join(f"{k}={_param(v)}" for k, v in sorted(message.params.items())) + ")"


def _param(value: object) -> str:
    if isinstance(value, Message):
        return _words(value)
    if isinstance(value, list):
        return "[" + ", ".join(_param(v) for v in value) + "]"
    return str(value)


def _event_line(event: Event) -> str:
    audience = "all" if event.to is None else f"to {event.to}"
    return f"    [{audience}] {_words(event)}"


def transcript(n_players: int, seed: int, options: dict[str, object]) -> str:
    """Play a seeded game with the fixed policy and write it out: moves, events, and the result."""
    lines = [f"# card game, {n_players} players, seed {seed}, options {options}"]
    state = ENGINE.new_game(CardGameOptions.model_validate(options), n_players, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        rng.shuffle(legal)
        state, events = ENGINE.apply(state, seat, legal[0])
        lines.append(f"{seat}: {legal[0].encode()}")
        lines.extend(_event_line(e) for e in events)
    result = ENGINE.result(state)
    assert result is not None
    lines.append(f"winners: {result.winners}")
    for player in result.players:
        lines.append(f"seat {player.seat}: {player.total}")
        lines.extend(f"    {line.points:+d} {_words(line.label)}" for line in player.breakdown)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "n_players", "seed", "options"), GAMES)
def test_golden_transcript(name: str, n_players: int, seed: int, options: dict[str, object]) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(n_players, seed, options)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
