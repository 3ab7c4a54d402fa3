"""Every text the bot itself says exists in English and Russian, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.i18n import format_template, language_of, table, text
from bot.services.errors import ServiceReason
from rules.engine import CommonReason

ROOT = Path(__file__).resolve().parents[2]
# A literal translation key in the bot's code: text(language, "bot.x.y"), Message(key="bot.x.y"), a ServiceReason value.
LITERAL_KEY = re.compile(r"""["']((?:bot|common|dice|ttr|cardgame)\.(?:[a-z_]+\.)*[a-z_]+)["']""")


def placeholders(template: str) -> set[str]:
    """The {names} a template expects."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    english, russian = table("en"), table("ru")
    assert sorted(set(english) ^ set(russian)) == []
    differing = [key for key in english if placeholders(english[key]) != placeholders(russian[key])]
    assert differing == []


def test_every_key_the_bot_code_names_has_words() -> None:
    used = set()
    for path in (ROOT / "bot").rglob("*.py"):
        used.update(LITERAL_KEY.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 30, "the scan must find the bot's keys"
    english = table("en")
    prefixes = {key.rsplit(".", 1)[0] + "." for key in english}
    modules = {k for k in used if (ROOT / k.replace(".", "/")).exists()}  # "bot.exts.dice" is an import path
    missing = sorted(k for k in used - modules if k not in english and k + "." not in prefixes)
    assert missing == []


def test_every_common_reason_has_words() -> None:
    assert [r.value for r in CommonReason if r.value not in table("en")] == []


def test_every_service_reason_has_words_in_english_and_russian() -> None:
    assert [(lang, r.value) for lang in ("en", "ru") for r in ServiceReason if r.value not in table(lang)] == []


def test_a_locale_chooses_the_language_and_unknown_ones_fall_back_to_english() -> None:
    assert [language_of(x) for x in ("ru", "en-US", "en-GB", "pt-BR", None)] == ["ru", "en", "en", "en", "en"]
    assert text("ru", "bot.reason.only_host") == "Это может сделать только 👑: игру ведёте не вы."
    assert text("en", "bot.lobby.players", n=2, max=6) == "Players 2/6"


def test_a_plural_choice_takes_numbers_as_text_and_falls_back_to_other() -> None:
    card = "{count:one=# card|other=# cards}"
    karta = "{count:one=# карта|few=# карты|many=# карт|other=# карты}"
    assert [format_template("en", card, count=n) for n in (1, "1", "−1", 2)] == [
        "1 card",
        "1 card",
        "−1 card",
        "2 cards",
    ]
    assert [format_template("ru", karta, count=n) for n in ("21", "−2", 11, 1.5)] == [
        "21 карта",
        "−2 карты",
        "11 карт",
        "1.5 карты",
    ]
    assert format_template("en", card, count="several") == "several cards", "not a number: the `other` form"
    assert format_template("en", "{count:one=# card}", count=3) == "3", "no form for it: the bare number"
