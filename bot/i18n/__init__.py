"""Translation tables (TOML, English and Russian) and the rendering of engine messages into text.

Templates are Python format strings with two additions:

- a plural choice, `{count:one=# card|other=# cards}`: the form is picked by the language's CLDR plural rules
  (Babel) for the value of `count`, and `#` stands for the number. Russian uses `one`, `few`, `many` (and `other`
  for fractions): `{count:one=# карта|few=# карты|many=# карт|other=# карты}`. A missing form falls back to `other`.
- a command mention, `{/draw}` or `{/newgame dice}`: Discord shows it in the reader's language and makes it
  clickable once the commands are synced (`set_command_ids`); before that it reads as the plain `/draw`. A bare
  group, `{/newgame}`, mentions the subcommand `GROUP_MENTIONS` names. Embed titles and footers show no mentions.
"""

from __future__ import annotations

import logging
import math
import string
import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from importlib import resources
from typing import Any

import discord
from babel import Locale

from rules.engine import Message, Param

log = logging.getLogger(__name__)

LANGUAGES = ("en", "ru")
FALLBACK = "en"
MAX_CONTENT = 2000
"""Discord's limit on a message's text."""
ELLIPSIS = "…"


def language_of(locale: object) -> str:
    """Map a Discord locale ("en-US", "ru", discord.Locale…) to one of our languages."""
    return _language(str(getattr(locale, "value", locale) or ""))


@lru_cache(maxsize=256)
def _language(locale: str) -> str:
    """`language_of` a locale's text, cached: a start asks it tens of thousands of times, wording every command in
    every Discord locale."""
    text = locale.lower()
    return text if text in LANGUAGES else next((lang for lang in LANGUAGES if text.startswith(lang)), FALLBACK)


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, Mapping):
            _flatten(name, value, out)
        else:
            out[name] = str(value)


_WORDS: list[str] = []
"""Packages of games' own translation files, read after `bot.i18n` (`add_words`)."""


def add_words(package: str | None) -> None:
    """Read a game's own translation files too: `<package>.<language>/<namespace>.toml`, merged key by key into
    the tables (a game's `bot.toml` adds its `bot.game.<namespace>` name, its `commands.toml` its /newgame words)."""
    if package is not None and package not in _WORDS:
        _WORDS.append(package)
        table.cache_clear()


def word_packages() -> tuple[str, ...]:
    """The games' own translation packages read here so far (what a picture worker must read too: `text_in`)."""
    return tuple(_WORDS)


def text_in(packages: Sequence[str], language: str, key: str, **params: Any) -> str:
    """`text`, after reading these games' own translation packages if this process has not (a picture worker,
    which never builds the list of games)."""
    for package in packages:
        add_words(package)
    return text(language, key, **params)


@lru_cache(maxsize=len(LANGUAGES))
def table(language: str) -> dict[str, str]:
    """Return every key of a language, from `bot/i18n/<language>/<namespace>.toml` and the games' own files, loaded
    once."""
    out: dict[str, str] = {}
    for package in ("bot.i18n", *_WORDS):
        folder = resources.files(f"{package}.{language}")
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
            if entry.name.endswith(".toml"):
                _flatten(entry.name.removesuffix(".toml"), tomllib.loads(entry.read_text(encoding="utf-8")), out)
    return out


_COMMAND_IDS: dict[str, int] = {}
"""Top-level command name → its id on Discord, known once the commands are synced."""


def set_command_ids(ids: Mapping[str, int]) -> None:
    """Remember the synced commands' ids, so `{/name}` in a template becomes a clickable, localised mention."""
    _COMMAND_IDS.clear()
    _COMMAND_IDS.update(ids)


GROUP_MENTIONS = {"newgame": "newgame dice", "config": "config show"}
"""What a bare `{/group}` mentions: Discord can make a group's subcommand clickable, never the group itself."""


def command_mention(path: str) -> str:
    """`</draw:id>` (or `</newgame dice:id>`) for a command path, the plain `/draw` while its id is unknown."""
    command_id = _COMMAND_IDS.get(path.split(" ", 1)[0])
    if command_id is None:
        return f"/{path}"
    return f"</{GROUP_MENTIONS.get(path, path)}:{command_id}>"


class _Formatter(string.Formatter):
    """Format templates with plural choices and command mentions; an unknown placeholder stays visible."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.locale = Locale.parse(language)

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        name = str(key)
        if name.startswith("/"):
            return _Mention(name[1:])
        return kwargs[name] if name in kwargs else _Missing(name)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, _Missing | _Mention):
            return str(value)
        if "=" in format_spec:
            return self._plural(value, format_spec)
        return format(value, format_spec)

    def _plural(self, value: Any, spec: str) -> str:
        forms = dict(part.split("=", 1) for part in spec.split("|") if "=" in part)
        number = _number(value)
        category = "other" if number is None else str(self.locale.plural_form(number))
        return forms.get(category, forms.get("other", "#")).replace("#", str(value))


def _number(value: Any) -> int | float | None:
    """The number a plural choice is made for, also when given as text ("12", "−3" with a true minus, "1.5")."""
    written = str(value).replace("−", "-")
    for kind in (int, float):
        try:
            number = kind(written)
        except ValueError:
            continue
        return number if math.isfinite(number) else None
    return None


class _Missing(str):
    """A placeholder nobody filled: shown as `{name}` rather than raising."""

    def __str__(self) -> str:
        return "{" + super().__str__() + "}"


class _Mention(str):
    """A `{/command}` placeholder."""

    def __str__(self) -> str:
        return command_mention(super().__str__())


@lru_cache(maxsize=len(LANGUAGES))
def _formatter(language: str) -> _Formatter:
    return _Formatter(language)


def text(language: str, key: str, **params: Any) -> str:
    """Return the text of `key` in `language` (English if missing there), formatted with `params`."""
    if language not in LANGUAGES:
        language = FALLBACK
    template = table(language).get(key)
    if template is None:
        template = table(FALLBACK).get(key)
        language = FALLBACK
        if template is None:
            log.warning("missing translation key %s", key)
            return key
    return format_template(language, template, **params)


def labels(language: str, *, places: str | None = None) -> Callable[..., str]:
    """The pictures' words in a language (render/ asks for them by key, with the counts that pick plural forms),
    with the games' own words also where the list of games was never built (a picture worker). With `places`, city
    names come in that language instead: a private picture names the cities as its game's board does (in the
    game's language), whatever the reader's."""
    if places is None or places == language:
        return partial(text_in, word_packages(), language)
    return partial(_text_with_places, word_packages(), language, places)


def _text_with_places(packages: Sequence[str], language: str, places: str, key: str, **params: Any) -> str:
    """`text_in`, with a city's name (`<game>.city.<id>`) in the `places` language."""
    return text_in(packages, places if key.split(".")[1:2] == ["city"] else language, key, **params)


def format_template(language: str, template: str, **params: Any) -> str:
    """Fill a template in a language: placeholders, plural choices and command mentions (see the module doc)."""
    try:
        return _formatter(language).vformat(template, (), params)
    except (ValueError, IndexError, KeyError) as error:
        log.warning("bad template %r: %s", template, error)
        return template


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


HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})
"""Unicode categories never shown in a name: controls, format characters (zero-width, bidi marks and overrides,
U+FEFF, …), private use, lone surrogates and line breaks."""
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
"""Letters and marks that draw nothing (Hangul fillers, …): ignorable by Unicode, yet not of a hidden category."""
UNNAMED = "?"
"""A name with nothing visible left in it."""


def shown_name(name: str) -> str:
    """A name (user input) as the bot shows it: NFKC-folded (fullwidth and styled letters become plain ones), with
    nothing invisible and single spaces, so a zero-width space or a right-to-left override cannot pose as another."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in folded if unicodedata.category(c) not in HIDDEN_CATEGORIES and c not in BLANK_LETTERS)
    return " ".join(visible.split()) or UNNAMED


def escaped(name: str) -> str:
    """A name (user input) shown literally in a message (as `shown_name` shows it): no bold, no masked link, no
    mention, whatever it holds."""
    plain = shown_name(name)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(plain)).replace("<", "\\<")


def _param(language: str, value: Param, names: Mapping[int, str] | None) -> str:
    if isinstance(value, Message):
        return render(language, value, names)
    if isinstance(value, list):
        return ", ".join(_param(language, item, names) for item in value)
    return str(value)
