"""Golden transcripts of whole seeded card games: every move and event as text, compared byte for byte.

The moves come from a fixed policy (tests/rules/golden.py: the first legal move after a seeded shuffle), not the bot
players, so only a change in the rules or the events shows up as a diff. Regenerate only on purpose:
`UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/cardgame/test_cardgame_golden.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.cardgame.options import CardGameOptions
from tests.rules.golden import check, fixed_policy_transcript

from .support import ENGINE

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("2p-printed-rules", 2, 11, {}),
    ("3p-no-locomotive-reset", 3, 12, {"three_locomotive_reset": False}),
    ("4p-two-decks-visible-stacks", 4, 13, {"stack_visible_to_owner": True}),
]


def transcript(n_players: int, seed: int, options: dict[str, object]) -> str:
    """Play a seeded game with the fixed policy and write it out: moves, events, and the result."""
    state = ENGINE.new_game(CardGameOptions.model_validate(options), n_players, seed)
    header = f"# card game, {n_players} players, seed {seed}, options {options}"
    return "\n".join([header, *fixed_policy_transcript(ENGINE, state, seed, "cardgame")]) + "\n"


@pytest.mark.parametrize(("name", "n_players", "seed", "options"), GAMES)
def test_golden_transcript(name: str, n_players: int, seed: int, options: dict[str, object]) -> None:
    check(GOLDEN / f"{name}.txt", transcript(n_players, seed, options))
