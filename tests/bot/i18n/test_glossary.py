"""One word per idea in each language: no text (message, alt text, button, command, picture word) calls a thing of
the games by a word the glossary (bot/i18n/glossary.toml) forbids for it."""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import bot.games  # noqa: F401  (every game's own words join the tables)
from bot.i18n import LANGUAGES, table

GLOSSARY_FILE = Path(__file__).resolve().parents[3] / "bot" / "i18n" / "glossary.toml"
GLOSSARY: dict[str, Any] = tomllib.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))


def whole_words(pattern: str) -> re.Pattern[str]:
    """A glossary pattern matched from the start of a word to the end of one, in any case."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def checked_in(idea: Mapping[str, Any], key: str) -> bool:
    """Whether an idea is checked in the text of `key` (its `only` and `except` key prefixes)."""
    only, skipped = tuple(idea.get("only", ())), tuple(idea.get("except", ()))
    return (not only or key.startswith(only)) and not (skipped and key.startswith(skipped))


def shown(template: str) -> str:
    """What a template shows of its own: its words and its plural choices' forms, placeholders left out."""
    parts = []
    for literal, name, spec, _ in string.Formatter().parse(template):
        parts.append(literal)
        if name and spec and "=" in spec:
            parts.extend(form.split("=", 1)[1] for form in spec.split("|") if "=" in form)
    return " · ".join(parts)


def blanked(language: str, template: str) -> str:
    """What a template shows, with every idea's own phrases blanked, so that one idea's phrase is no other idea's
    forbidden word."""
    words = shown(template)
    for idea in GLOSSARY.values():
        for phrase in idea[language]["phrases"]:
            words = whole_words(phrase).sub("…", words)
    return words


def forbidden_words(language: str, key: str, words: str) -> list[tuple[str, str]]:
    """(idea, word) for each forbidden word a text uses."""
    plain = blanked(language, words)
    return [
        (name, found.group(0))
        for name, idea in GLOSSARY.items()
        if checked_in(idea, key)
        for pattern in idea[language]["forbidden"]
        for found in whole_words(pattern).finditer(plain)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_uses_a_word_the_glossary_forbids(language: str) -> None:
    texts = table(language)
    assert {key.split(".", 1)[0] for key in texts} >= {"commands", "ttr_picture", "cardgame_picture", "dice", "stats"}
    offending = {key: found for key, words in texts.items() if (found := forbidden_words(language, key, words))}
    assert offending == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_idea_has_its_word_and_forbids_none_of_the_glossary_s_own_words(language: str) -> None:
    assert len(GLOSSARY) >= 12
    for name, idea in GLOSSARY.items():
        assert set(idea[language]) == {"word", "phrases", "forbidden"}, name
        assert set(idea) <= {"en", "ru", "only", "except"}, name
    words = {name: idea[language]["word"] for name, idea in GLOSSARY.items()}
    assert {name: found for name, word in words.items() if (found := forbidden_words(language, "", word))} == {}


@pytest.mark.parametrize(
    ("language", "key", "words", "expected"),
    [
        ("ru", "ttr_picture.score.longest", "Самый длинный путь", ["longest_bonus", "route"]),
        ("ru", "ttr_picture.score.by_length", "Дороги по длине", ["route"]),
        ("ru", "ttr_turn.standing", "{cars:one=# вагон|few=# вагона}", ["car", "car"]),
        ("ru", "dice_turn.alt.turn", "Ход игрока {player}, круг {round}", ["round"]),
        ("ru", "ttr_hint.station", "Постройте вокзал в городе {city}", ["station"]),
        ("en", "ttr_picture.move.longest", "Longest trail:", ["longest_bonus"]),
        ("en", "ttr_bot.final.longest", "Longest continuous route: 9 cars", ["longest_bonus"]),
    ],
)
def test_the_check_catches_a_second_word_for_an_idea(language: str, key: str, words: str, expected: list[str]) -> None:
    assert [idea for idea, _ in forbidden_words(language, key, words)] == expected


@pytest.mark.parametrize(
    ("language", "key", "words"),
    [
        ("ru", "ttr_picture.score.longest", "Самая длинная дорога: Anna · 12 вагончиков"),
        ("ru", "ttr_bot.button.tickets", "Карты маршрутов (30) · «Билет на поезд» · карты вагонов"),
        ("ru", "dice.face.K", "Вагон-ресторан"),
        ("ru", "cardgame.event.yard_to_stack", "{player} отправляет из Депо в стопку Железнодорожного Состава"),
        ("en", "ttr_picture.move.longest", "Longest path (+10):"),
    ],
)
def test_the_check_lets_the_glossary_s_words_pass(language: str, key: str, words: str) -> None:
    assert forbidden_words(language, key, words) == []
