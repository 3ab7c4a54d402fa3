"""Translation tables (TOML, English and Russian) and the rendering of engine messages into text."""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

import discord

from rules.engine import Message, Param

log = logging.getLogger(__name__)

LANGUAGES = ("en", "ru")
FALLBACK = "en"
MAX_CONTENT = 2000
"""Discord's limit on a message's text."""
ELLIPSIS = "…"


def language_of(locale: object) -> str:
    """Map a Discord locale ("en-US", "ru", discord.Locale…) to one of our languages."""
    text = str(getattr(locale, "value", locale) or "").lower()
    return text if text in LANGUAGES else next((lang for lang in LANGUAGES if text.startswith(lang)), FALLBACK)


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, Mapping):
            _flatten(name, value, out)
        else:
            out[name] = str(value)


@lru_cache(maxsize=len(LANGUAGES))
def table(language: str) -> dict[str, str]:
    """Return every key of a language, from `bot/i18n/<language>/<namespace>.toml`, loaded once."""
    out: dict[str, str] = {}
    for entry in resources.files(f"bot.i18n.{language}").iterdir():
        if entry.name.endswith(".toml"):
            _flatten(entry.name.removesuffix(".toml"), tomllib.loads(entry.read_text(encoding="utf-8")), out)
    return out


class _Params(dict[str, str]):
    """Format parameters that leave an unknown placeholder visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def text(language: str, key: str, **params: Any) -> str:
    """Return the text of `key` in `language` (English if missing there), formatted with `params`."""
    template = table(language).get(key)
    if template is None:
        template = table(FALLBACK).get(key)
        if template is None:
            log.warning("missing translation key %s", key)
            return key
    return template.format_map(_Params({k: str(v) for k, v in params.items()}))


def render(language: str, message: Message, names: Mapping[int, str] | None = None) -> str:
    """Render an engine message: nested messages first, lists joined, `{player}` from the `seat` param."""
    params = {name: _param(language, value, names) for name, value in message.params.items()}
    seat = message.params.get("seat")
    if names is not None and isinstance(seat, int) and not isinstance(seat, bool) and seat in names:
        params.setdefault("player", names[seat])
    return text(language, message.key, **params)


def fit(value: str, limit: int = MAX_CONTENT) -> str:
    """Cut text (a message, or user input echoed back) to `limit` characters, marking the cut."""
    return value if len(value) <= limit else value[: limit - len(ELLIPSIS)] + ELLIPSIS


def escaped(name: str) -> str:
    """A name (user input) shown literally in a message: no bold, no masked link, no mention, whatever it holds."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name)).replace("<", "\\<")


def _param(language: str, value: Param, names: Mapping[int, str] | None) -> str:
    if isinstance(value, Message):
        return render(language, value, names)
    if isinstance(value, list):
        return ", ".join(_param(language, item, names) for item in value)
    return str(value)
