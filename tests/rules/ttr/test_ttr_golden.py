"""Golden transcripts of whole seeded games: every move and event as text, compared line by line.

A change in the rules, the bots or the events shows up here as a diff. Regenerate only on purpose:
`UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/ttr/test_ttr_golden.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.golden import check, event_lines, result_lines

from .ttr_support import ENGINE, playout

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("usa-4p-mixed", "usa", 4, 101, ["sensible", "random"]),
    ("europe-3p-sensible", "europe", 3, 202, ["sensible"]),
    ("europe-2p-random", "europe", 2, 303, ["random"]),
]


def transcript(map_id: str, n_players: int, seed: int, kinds: list[str]) -> str:
    """Play a seeded game and write it out: moves, events, and the result."""
    lines = [f"# {map_id}, {n_players} players, seed {seed}, bots {kinds}"]
    last = None
    for _, seat, text, after, events in playout(map_id, n_players, seed, kinds):
        lines.append(f"{seat}: {text}")
        lines.extend(event_lines(events, "ttr"))
        last = after
    assert last is not None
    return "\n".join([*lines, *result_lines(ENGINE.result(last), "ttr")]) + "\n"


@pytest.mark.parametrize(("name", "map_id", "n_players", "seed", "kinds"), GAMES)
def test_golden_transcript(name: str, map_id: str, n_players: int, seed: int, kinds: list[str]) -> None:
    check(GOLDEN / f"{name}.txt", transcript(map_id, n_players, seed, kinds))
