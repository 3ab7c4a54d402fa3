"""Words in pictures: the caller's translations (a callable or a mapping), city names, and fitting text to room."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TypeAlias

from PIL import ImageFont

from render.fonts import font, text_length
from render.labels import Labels, text_for
from rules.ttr.maps import GameMap

PICTURE = "ttr_picture."
"""Namespace of this package's own words (bot/i18n/<lang>/ttr_picture.toml)."""


def picture_text(labels: Labels, name: str, **params: object) -> str:
    """This package's own word `ttr_picture.<name>`, with `{placeholders}` filled from `params`."""
    return text_for(labels, PICTURE + name, **params)


def city_names(labels: Labels, game_map: GameMap) -> dict[str, str]:
    """Every city's name in the caller's language, the map's printed name where no translation is given."""
    return {city.id: _city_name(labels, city.id, city.name) for city in game_map.cities}


def city_name(labels: Labels, game_map: GameMap, city_id: str) -> str:
    """One city's name in the caller's language, as `city_names` gives it."""
    return _city_name(labels, city_id, next(c.name for c in game_map.cities if c.id == city_id))


def _city_name(labels: Labels, city_id: str, printed: str) -> str:
    key = f"ttr.city.{city_id}"
    text = text_for(labels, key)
    return printed if text == key or not text else text


Names: TypeAlias = Sequence[str] | Mapping[int, str]
"""Players' display names by seat: a list in seat order, or a mapping from seat."""

Bots: TypeAlias = frozenset[int]
"""The seats bot players sit in: their names get the bot mark (render/glyphs.py)."""


def player_name(names: Names, seat: int) -> str:
    """A seat's display name, or its number when the caller gave none."""
    if isinstance(names, Mapping):
        return names.get(seat, str(seat + 1))
    return names[seat] if seat < len(names) else str(seat + 1)


@lru_cache(maxsize=4096)
def fitted(
    text: str, size: int, width: float, *, bold: bool = False, minimum: int = 11
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink the font (down to `minimum`, condensed) and then cut with an ellipsis until `text` fits `width`."""
    for s in range(size, minimum - 1, -1):
        for condensed in (False, True):
            if text_length(text, s, bold=bold, condensed=condensed) <= width:
                return text, font(s, bold=bold, condensed=condensed)
    f = font(minimum, bold=bold, condensed=True)
    cut = text
    while cut and text_length(cut + "…", minimum, bold=bold, condensed=True) > width:
        cut = cut[:-1]
    return cut.rstrip() + "…", f
