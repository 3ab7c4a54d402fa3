"""/newgame's variant options, built from every offered game's options model, so a new option needs no bot code.

Each field of a game's options model becomes one optional slash option named after the field: a bool stays a
bool, a bounded int a ranged integer, a string enum a choice list worded in English. Games that share a field of
the same kind share the option; a clash of kinds gets the game's namespace as a prefix.
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
    """One slash option of /newgame and the (game, model field) pairs it sets."""

    name: str
    annotation: Any
    description: str
    choices: tuple[app_commands.Choice[str], ...]
    fields: tuple[tuple[str, str], ...]
    """(game id, field name) for every game with this option."""


def option_parameters(games: Mapping[str, GameInfo]) -> list[OptionParameter]:
    """Every game's option fields as slash options, in game then field order."""
    found: dict[str, OptionParameter] = {}
    for game, info in games.items():
        for field_name, field in info.engine.options_model.model_fields.items():
            annotation, choices = _kind(info.namespace, field_name, field.annotation, field.metadata)
            name = field_name
            shared = found.get(name)
            if shared is not None and (shared.annotation, shared.choices) != (annotation, choices):
                name = f"{info.namespace}_{field_name}"
                shared = found.get(name)
            if shared is not None:
                found[name] = OptionParameter(
                    name, annotation, shared.description, choices, (*shared.fields, (game, field_name))
                )
                continue
            description = text("en", f"{info.namespace}.option.{field_name}.description")
            if description.endswith(".description"):
                description = field.description or field_name
            found[name] = OptionParameter(name, annotation, _short(description), choices, ((game, field_name),))
    return list(found.values())


def options_for(
    game: str, parameters: list[OptionParameter], given: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Split what the host typed into this game's option values and the names of options it does not have."""
    values: dict[str, Any] = {}
    foreign: list[str] = []
    for parameter in parameters:
        value = given.get(parameter.name)
        if value is None:
            continue
        field = next((f for g, f in parameter.fields if g == game), None)
        if field is None:
            foreign.append(parameter.name)
        else:
            values[field] = value
    return values, foreign


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
