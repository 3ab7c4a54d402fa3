"""A game's variant options as /newgame's slash options, built from its options model, so a new option needs no
bot code.

Each field of the model becomes one optional slash option named after the field: a bool stays a bool, a bounded int
a ranged integer, a string enum a choice list worded in English.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from annotated_types import Ge, Le
from discord import app_commands

from bot.games import GameInfo
from bot.i18n import text
from bot.ui.options_text import option_value

MAX_DESCRIPTION = 100
"""Discord's limit on an option's description."""


@dataclass(frozen=True)
class OptionParameter:
    """One slash option of a game's /newgame subcommand: the model field of the same name."""

    name: str
    annotation: Any
    description: str
    choices: tuple[app_commands.Choice[str], ...]


def option_parameters(info: GameInfo) -> list[OptionParameter]:
    """The game's option fields as slash options, in field order."""
    found = []
    for name, field in info.engine.options_model.model_fields.items():
        annotation, choices = _kind(info.namespace, name, field.annotation, field.metadata)
        description = text("en", f"{info.namespace}.option.{name}.description")
        if description.endswith(".description"):
            description = field.description or name
        found.append(OptionParameter(name, annotation, _short(description), choices))
    return found


def chosen_options(parameters: list[OptionParameter], given: Mapping[str, Any]) -> dict[str, Any]:
    """The option values the host typed (those left out keep the server's defaults)."""
    return {p.name: given[p.name] for p in parameters if given.get(p.name) is not None}


def _kind(
    namespace: str, field_name: str, annotation: Any, metadata: list[Any]
) -> tuple[Any, tuple[app_commands.Choice[str], ...]]:
    """The slash type of a model field and its choices (enums only)."""
    if annotation is bool:
        return bool, ()
    if annotation is int:
        low = next((m.ge for m in metadata if isinstance(m, Ge)), None)
        high = next((m.le for m in metadata if isinstance(m, Le)), None)
        return app_commands.Range[int, low, high], ()
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        choices = tuple(
            app_commands.Choice(name=option_value("en", namespace, field_name, member), value=str(member.value))
            for member in annotation
        )
        return str, choices
    if isinstance(annotation, types.UnionType):
        raise TypeError(f"option {namespace}.{field_name}: optional options are not supported")
    return str, ()


def _short(description: str) -> str:
    """Fit Discord's 100 characters, cutting at a word."""
    if len(description) <= MAX_DESCRIPTION:
        return description
    return description[: MAX_DESCRIPTION - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
