"""Words in the card game's pictures: this package's own (`cardgame_picture.*`), colours and city names.

The caller passes its translations as `labels(key, **params)` (or a mapping); a key it lacks shows as the key,
never a crash.
"""

from __future__ import annotations

from render.ttr.text import Labels, text_for
from rules.cardgame.tickets import load_data

PICTURE = "cardgame_picture."
"""Namespace of the pictures' own words (bot/i18n/<lang>/cardgame_picture.toml)."""


def word(labels: Labels, name: str, **params: object) -> str:
    """This package's word `cardgame_picture.<name>`, with `{placeholders}` filled from `params`."""
    return text_for(labels, PICTURE + name, **params)


def colour_word(labels: Labels, kind: str) -> str:
    """A card kind's name (`cardgame.color.<kind>`), the kind itself when the caller has no word for it."""
    key = f"cardgame.color.{kind}"
    found = text_for(labels, key)
    return kind if found == key or not found else found


def city_word(labels: Labels, city: str) -> str:
    """A city's name (`cardgame.city.<id>`), the data file's printed name when the caller has none."""
    key = f"cardgame.city.{city}"
    found = text_for(labels, key)
    return load_data().cities.get(city, city) if found == key or not found else found


def route_word(labels: Labels, a: str, b: str) -> str:
    """A ticket's two cities, "Chicago – New York"."""
    return f"{city_word(labels, a)} – {city_word(labels, b)}"
