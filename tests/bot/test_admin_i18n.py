"""Every admin, timer and help text, every variant option of every game, every city and card colour: words in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.i18n import LANGUAGES, table
from bot.services.guild_config import AfkPolicy, Language, choice_key, option_specs
from rules.ttr.maps import CARD_COLORS, LOCOMOTIVE, MAP_IDS, load_map

ROOT = Path(__file__).resolve().parents[2]
ADMIN_KEY = re.compile(r"""["'](admin\.(?:[a-z_]+\.)*[a-z_]+)["']""")
ADMIN_KEY_PREFIX = re.compile(r"""f["'](admin\.(?:[a-z_]+\.)+)\{""")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def test_every_admin_key_the_code_names_has_words_in_both_languages() -> None:
    used, prefixes = set(), set()
    for path in (ROOT / "bot").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        used.update(ADMIN_KEY.findall(source))
        prefixes.update(ADMIN_KEY_PREFIX.findall(source))
    assert len(used) > 40 and "admin.timers.policy." in prefixes, "the scan must find the admin keys"
    for language in LANGUAGES:
        words = table(language)
        assert sorted(key for key in used if key not in words) == [], language
        assert sorted(p for p in prefixes if not any(key.startswith(p) for key in words)) == [], language


@pytest.mark.parametrize("language", LANGUAGES)
def test_keys_built_at_run_time_have_words(language: str) -> None:
    words = table(language)
    wanted = [f"admin.timers.policy.{policy.value}" for policy in AfkPolicy]
    wanted += [f"admin.language.{value}" for value in (*(lang.value for lang in Language), "default")]
    wanted += [f"commands.choice.{value}" for value in (*(lang.value for lang in Language), "default")]
    wanted += [f"commands.choice.{policy.value}" for policy in AfkPolicy]
    wanted += [f"admin.rules.{info.namespace}.{part}" for info in GAMES.values() for part in ("summary", "turn", "end")]
    wanted += [f"admin.notice.{n}{s}" for n in ("played_for", "paused", "still_waiting") for s in ("", "_uncounted")]
    assert [key for key in wanted if key not in words] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_variant_option_of_every_game_is_named_described_and_its_values_worded(language: str) -> None:
    words = table(language)
    missing = []
    for game, info in GAMES.items():
        for spec in option_specs(game, info):
            missing += [key for key in (spec.label().key, spec.description().key) if key not in words]
            missing += [
                f"{game}.{spec.name}={choice}"
                for choice in spec.choices
                if choice_key(spec.namespace, spec.name, choice) is None
            ]
    assert missing == []


def test_cities_and_card_colours_have_russian_names_in_cyrillic() -> None:
    russian = table("ru")
    keys = [f"ttr.city.{city.id}" for map_id in MAP_IDS for city in load_map(map_id).cities]
    keys += [f"ttr.color.{colour}" for colour in (*CARD_COLORS, LOCOMOTIVE)]
    assert len(keys) > 80
    assert [key for key in keys if not CYRILLIC.search(russian.get(key, ""))] == []
