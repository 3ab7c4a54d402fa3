"""Words for a game's variant options, built from the engine's options model (no per-game code)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from bot.i18n import FALLBACK, table, text
from rules.engine import Options


def option_value(language: str, namespace: str, field: str, value: Any) -> str:
    """Word one option's value: yes/no, a number, or the translated name of an enum value."""
    if isinstance(value, bool):
        return text(language, "bot.word.yes" if value else "bot.word.no")
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str):
        # Both layouts occur in the tables: `[option.<field>.value] <v> = …` and `[option.<field>] <v> = …`.
        for key in (f"{namespace}.option.{field}.value.{value}", f"{namespace}.option.{field}.{value}"):
            if key in table(FALLBACK):
                return text(language, key)
        return value
    return str(value)


def rules_in_effect(language: str, namespace: str, options: Options) -> list[str]:
    """One line per option, 'Name: value', in the model's field order."""
    lines = []
    for field in type(options).model_fields:
        name = text(language, f"{namespace}.option.{field}.name")
        lines.append(f"{name}: **{option_value(language, namespace, field, getattr(options, field))}**")
    return lines
