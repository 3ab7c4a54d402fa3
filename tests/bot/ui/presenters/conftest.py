"""Every presenter test fails if a text asked for a key a language lacks: a raw key shown, or Russian falling back to
English."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import i18n
from bot.games import GAMES


class _Watched(dict[str, str]):
    """A language's words that note every key asked for and missing."""

    def __init__(self, words: dict[str, str], missing: list[str]) -> None:
        super().__init__(words)
        self.missing = missing

    def get(self, key: str, default: Any = None) -> Any:
        """The word, noting a key this language lacks."""
        if key not in self:
            self.missing.append(key)
        return super().get(key, default)


@pytest.fixture(autouse=True)
def every_word_found(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Watch every language's words for the test's length (the games' own word files read as the bot reads them)."""
    for info in GAMES.values():
        i18n.add_words(info.words)
    missing: list[str] = []
    watched = {language: _Watched(i18n.table(language), missing) for language in i18n.LANGUAGES}
    monkeypatch.setattr(i18n, "table", watched.__getitem__)
    yield
    assert not missing, f"keys a language lacks: {sorted(set(missing))}"
