"""The caller's words for pictures: render/ never translates, it asks the caller by key (with the counts that pick
plural forms) and shows the key itself when the caller has no word, never crashing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeAlias

Labels: TypeAlias = Callable[..., str] | Mapping[str, str]
"""The caller's translations: `labels(key, **params) -> text` (the caller fills placeholders and picks plural
forms), or a mapping from key to a `str.format` template."""


def text_for(labels: Labels, key: str, **params: object) -> str:
    """The caller's text for `key` with `params` filled in; the key itself when the caller has none (never a crash
    in a picture)."""
    if isinstance(labels, Mapping):
        template = labels.get(key, key)
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template
    try:
        return labels(key, **params)
    except KeyError:
        return key
