"""Train cards as small ints (0–7 the colours, 8 the locomotive), so states stay compact and fast to copy."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rules.engine import Message

COLORS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple", "white", "black")
LOCOMOTIVE = 8
KIND_NAMES: tuple[str, ...] = (*COLORS, "locomotive")
N_COLORS = len(COLORS)
N_KINDS = len(KIND_NAMES)
PER_COLOR = 10
LOCOMOTIVES = 16

_KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}


def kind_of(name: str) -> int | None:
    """Return the card kind named `name` (a colour or "locomotive"), or None for an unknown name."""
    return _KIND_BY_NAME.get(name)


@cache
def color_message(kind: int) -> Message:
    """Return the translatable name of a card kind (`cardgame.color.<name>`); shared, as messages are frozen."""
    return Message(key=f"cardgame.color.{KIND_NAMES[kind]}")


def cards_of(counts: Sequence[int]) -> list[int]:
    """List the cards a per-kind count stands for, in kind order."""
    return [kind for kind, count in enumerate(counts) if count for _ in range(count)]


def named_counts(counts: Sequence[int]) -> dict[str, int]:
    """Return the non-zero per-kind counts keyed by kind name, for views."""
    return {KIND_NAMES[kind]: count for kind, count in enumerate(counts) if count}
