"""Every word the board page names (bot/web/board/static/) is in the bot's tables, in English and Russian: the page
shows the key itself where a word is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, table

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "board" / "static"
NAMESPACES = r"(?:web|ttr|ttr_picture|cardgame|cardgame_picture|dice)"
KEY = re.compile(rf"""["']({NAMESPACES}\.[a-z_]+(?:\.[a-z_]+)+)["']""")
"""A key written whole: `"web.page.live"`, `data-word="web.page.story"`."""
PREFIX = re.compile(rf"`({NAMESPACES}\.[a-z_]+(?:\.[a-z_]+)*\.)\$\{{")
"""A key made from a prefix and a name: `` `ttr.color.${colour}` ``."""


def named(pattern: re.Pattern[str]) -> set[str]:
    """What the page's files name with this pattern."""
    return {found for path in STATIC.iterdir() for found in pattern.findall(path.read_text(encoding="utf-8"))}


def test_the_page_names_its_words_by_key() -> None:
    assert len(named(KEY)) > 40, "the scan must find the page's words"
    assert len(named(PREFIX)) > 3, "the scan must find the page's words made from a prefix"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_the_page_names_is_in_the_tables(language: str) -> None:
    words = table(language)
    assert sorted(named(KEY) - set(words)) == []
    assert sorted(prefix for prefix in named(PREFIX) if not any(key.startswith(prefix) for key in words)) == []
