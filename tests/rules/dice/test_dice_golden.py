"""Golden transcripts of whole seeded dice games («Поезд»): every move and event as text, compared byte for byte.

The moves come from a fixed policy (tests/rules/golden.py: the first legal move after a seeded shuffle), not the bot
players, so only a change in the rules or the events shows up as a diff. Regenerate only on purpose:
`UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/dice/test_dice_golden.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice.options import DiceOptions
from tests.rules.golden import check, fixed_policy_transcript

from .helpers import ENGINE

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("3p-elimination", 3, 133, {"mode": "elimination"}),
    ("4p-ties-play-on", 4, 131, {"target": 10, "tie": "play_on"}),
    ("6p-race-to-20", 6, 157, {"target": 20}),
]
"""Seeds chosen so the games between them show a freight round, a crash, a bonus train, knock-outs and a tie-break."""


def transcript(n_players: int, seed: int, options: dict[str, object]) -> str:
    """Play a seeded game with the fixed policy and write it out: moves, events, and the result."""
    state = ENGINE.new_game(DiceOptions.model_validate(options), n_players, seed)
    header = f"# dice, {n_players} players, seed {seed}, options {options}"
    return "\n".join([header, *fixed_policy_transcript(ENGINE, state, seed, "dice")]) + "\n"


@pytest.mark.parametrize(("name", "n_players", "seed", "options"), GAMES)
def test_golden_transcript(name: str, n_players: int, seed: int, options: dict[str, object]) -> None:
    check(GOLDEN / f"{name}.txt", transcript(n_players, seed, options))
