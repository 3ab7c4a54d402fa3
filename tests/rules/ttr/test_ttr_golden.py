"""Golden transcripts of whole seeded games: every move and event as text, compared line by line.

A change in the rules, the bots or the events shows up here as a diff. Regenerate only on purpose:
`UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/ttr/test_ttr_golden.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules.engine import Event, Message

from .ttr_support import ENGINE, playout

GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("usa-4p-mixed", "usa", 4, 101, ["sensible", "random"]),
    ("europe-3p-sensible", "europe", 3, 202, ["sensible"]),
    ("europe-2p-random", "europe", 2, 303, ["random"]),
]


def _words(message: Message) -> str:
    """A message as compact text: `claimed(seat=1, track=track(from=city.paris, …))`, keys without `ttr.`."""
    key = message.key.removeprefix("ttr.")
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


def transcript(map_id: str, n_players: int, seed: int, kinds: list[str]) -> str:
    """Play a seeded game and write it out: moves, events, and the result."""
    lines = [f"# {map_id}, {n_players} players, seed {seed}, bots {kinds}"]
    last = None
    for _, seat, text, after, events in playout(map_id, n_players, seed, kinds):
        lines.append(f"{seat}: {text}")
        lines.extend(_event_line(e) for e in events)
        last = after
    assert last is not None
    result = ENGINE.result(last)
    assert result is not None
    lines.append(f"winners: {result.winners}")
    for player in result.players:
        lines.append(f"seat {player.seat}: {player.total}")
        lines.extend(f"    {line.points:+d} {_words(line.label)}" for line in player.breakdown)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "map_id", "n_players", "seed", "kinds"), GAMES)
def test_golden_transcript(name: str, map_id: str, n_players: int, seed: int, kinds: list[str]) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(map_id, n_players, seed, kinds)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
