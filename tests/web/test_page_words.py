"""Every word the board page names (bot/web/board/static/) comes with its game's page data, in English and
Russian: the page shows the key itself where a word is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES
from bot.web.board.page_data import page_words

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "board" / "static"
NAMESPACES = r"(?:web|ttr|ttr_picture|cardgame|cardgame_picture|dice)"
KEY = re.compile(rf"""["']({NAMESPACES}\.[a-z_]+(?:\.[a-z_]+)+)["']""")
"""A key written whole: `"web.page.live"`, `data-word="web.page.story"`."""
PREFIX = re.compile(rf"`({NAMESPACES}\.[a-z_]+(?:\.[a-z_]+)*\.)\$\{{")
"""A key made from a prefix and a name: `` `cardgame.city.${city}` ``."""
KINDS = {"ttr.js": ("ttr", True), "cardgame.js": ("cardgame", False), "dice.js": ("dice", False)}
"""Each kind's script, its game's namespace, and whether it is played on a map (whose geometry names its cities)."""
SHARED = ("board.js", "page.html")
"""What every kind's page runs besides its own script."""


def named(pattern: re.Pattern[str], *files: str) -> set[str]:
    """What these files of the page name with this pattern."""
    return {found for name in files for found in pattern.findall((STATIC / name).read_text(encoding="utf-8"))}


def test_the_page_names_its_words_by_key() -> None:
    assert len(named(KEY, *KINDS, *SHARED)) > 40, "the scan must find the page's words"
    assert len(named(PREFIX, *KINDS)) > 3, "the scan must find the page's words made from a prefix"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("script", list(KINDS))
def test_every_word_a_page_names_comes_with_its_data(script: str, language: str) -> None:
    namespace, mapped = KINDS[script]
    words = page_words(namespace, language, mapped=mapped)
    assert sorted(named(KEY, script, *SHARED) - set(words)) == []
    prefixes = named(PREFIX, script, *SHARED)
    assert sorted(prefix for prefix in prefixes if not any(key.startswith(prefix) for key in words)) == []
