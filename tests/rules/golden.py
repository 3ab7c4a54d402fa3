"""Golden transcripts shared by the three games: moves, events and the result as compact text, checked byte for
byte against a file. Regenerate a game's files only on purpose: `UPDATE_GOLDEN=1 .venv/bin/pytest <its test>`."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from rules.engine import Event, GameEngine, GameResult, Message


def words(message: Message, namespace: str) -> str:
    """A message as compact text, `claimed(seat=1, track=track(from=city.paris, …))`, keys without `namespace.`."""
    key = message.key.removeprefix(f"{namespace}.")
    if not message.params:
        return key
    return key + "(" + ", ".join(f"{k}={_param(v, namespace)}" for k, v in sorted(message.params.items())) + ")"


def _param(value: object, namespace: str) -> str:
    if isinstance(value, Message):
        return words(value, namespace)
    if isinstance(value, list):
        return "[" + ", ".join(_param(v, namespace) for v in value) + "]"
    return str(value)


def event_lines(events: list[Event], namespace: str) -> list[str]:
    """Each event indented under its move, with whom it was told to."""
    return [f"    [{'all' if e.to is None else f'to {e.to}'}] {words(e, namespace)}" for e in events]


def result_lines(result: GameResult | None, namespace: str) -> list[str]:
    """The winners, then each player's total and its lines."""
    assert result is not None
    lines = [f"winners: {result.winners}"]
    for player in result.players:
        lines.append(f"seat {player.seat}: {player.total}")
        lines.extend(f"    {line.points:+d} {words(line.label, namespace)}" for line in player.breakdown)
    return lines


def fixed_policy_transcript(engine: GameEngine[Any, Any, Any], state: Any, seed: int, namespace: str) -> list[str]:
    """Play `state` to the end with a fixed policy (the first legal move after a seeded shuffle, lowest seat to act
    first), not the bot players, so only a change in the rules or the events moves the transcript."""
    lines = []
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        rng.shuffle(legal)
        state, events = engine.apply(state, seat, legal[0])
        lines.append(f"{seat}: {legal[0].encode()}")
        lines.extend(event_lines(events, namespace))
    return lines + result_lines(engine.result(state), namespace)


def check(path: Path, text: str) -> None:
    """Compare a transcript with its file (written instead with UPDATE_GOLDEN=1)."""
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
