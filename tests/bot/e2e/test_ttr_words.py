"""Every text the Ticket to Ride cog names exists in English and Russian with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.i18n import table

CODE = Path(__file__).resolve().parents[3] / "bot" / "exts" / "ttr"
KEY = re.compile(r"""["'](ttr_bot\.(?:[a-z_]+\.)*[a-z_]+)["']""")


def placeholders(template: str) -> set[str]:
    """The {names} a template expects."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_ttr_bot_key_in_the_code_has_english_and_russian_words() -> None:
    used = {key for path in CODE.glob("*.py") for key in KEY.findall(path.read_text(encoding="utf-8"))}
    assert len(used) > 40, "the scan must find the cog's keys"
    english, russian = table("en"), table("ru")
    assert sorted(k for k in used if k not in english) == []
    assert sorted(k for k in used if k not in russian) == []


def test_the_ttr_bot_tables_match_in_keys_and_placeholders() -> None:
    english = {k: v for k, v in table("en").items() if k.startswith("ttr_bot.")}
    russian = {k: v for k, v in table("ru").items() if k.startswith("ttr_bot.")}
    assert sorted(set(english) ^ set(russian)) == []
    assert [k for k in english if placeholders(english[k]) != placeholders(russian[k])] == []
