"""Every key the Ticket to Ride engine emits has an English and a Russian text with the same placeholders."""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path

import pytest

from rules.engine import Message
from rules.ttr.actions import TtrReason
from rules.ttr.board import CARD_NAMES, board_for
from rules.ttr.maps import MAP_IDS
from rules.ttr.options import TtrOptions
from rules.ttr.state import Phase

from .ttr_support import ENGINE, playout

ROOT = Path(__file__).parents[3]


def _table(language: str) -> dict[str, str]:
    out: dict[str, str] = {}

    def flatten(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                flatten(f"{prefix}.{key}", value)
            else:
                out[f"{prefix}.{key}"] = str(value)

    flatten("ttr", tomllib.loads((ROOT / "bot" / "i18n" / language / "ttr.toml").read_text(encoding="utf-8")))
    return out


EN, RU = _table("en"), _table("ru")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _required_keys() -> set[str]:
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / "ttr").glob("*.py"))
    keys = set(re.findall(r'"(ttr\.(?:event|action|score|cards|reason)\.[a-z_]+)"', source))
    keys |= {"ttr.ticket", "ttr.track"} | {r.value for r in TtrReason}
    keys |= {f"ttr.color.{name}" for name in CARD_NAMES} | {f"ttr.phase.{p.value}" for p in Phase}
    keys |= {f"ttr.map.{m}" for m in MAP_IDS}
    keys |= {f"ttr.city.{c.id}" for m in MAP_IDS for c in board_for(m).game_map.cities}
    for field_name, field in TtrOptions.model_fields.items():
        keys |= {f"ttr.option.{field_name}.name", f"ttr.option.{field_name}.description"}
        choices = getattr(field.annotation, "__members__", {})
        keys |= {f"ttr.option.{field_name}.{member.value}" for member in choices.values()}
    return keys


def test_every_emitted_key_has_both_languages() -> None:
    required = _required_keys()
    assert len(required) > 150
    assert required - set(EN) == set()
    assert required - set(RU) == set()
    assert set(EN) == set(RU)


def test_languages_share_placeholders() -> None:
    for key, template in EN.items():
        assert _placeholders(template) == _placeholders(RU[key]), key


def test_russian_city_names_follow_the_rule_books() -> None:
    assert RU["ttr.city.moskva"] == "Москва" and RU["ttr.city.kharkov"] == "Харьков"
    assert RU["ttr.city.petrograd"] == "Санкт-Петербург"  # the Europe book's name for the Moskva route's end
    assert RU["ttr.city.new_york"] == "Нью-Йорк" and RU["ttr.city.nashville"] == "Нэшвилл"


def _check_message(message: Message) -> None:
    allowed = set(message.params) | ({"player"} if "seat" in message.params else set())
    for table in (EN, RU):
        assert message.key in table, message.key
        assert _placeholders(table[message.key]) <= allowed, (message.key, message.params)
    for value in message.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Message):
                _check_message(item)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_emitted_events_and_actions_fill_their_placeholders(map_id: str) -> None:
    last = None
    for before, seat, _, after, events in playout(map_id, 3, 12, ["sensible", "random"]):
        last = after
        for event in events:
            _check_message(event)
        for action in ENGINE.legal_actions(before, seat)[:30]:
            _check_message(action.describe())
            _check_message(ENGINE.describe_action(before, action))
    assert last is not None
    result = ENGINE.result(last)
    assert result is not None
    for player in result.players:
        for line in player.breakdown:
            _check_message(line.label)
