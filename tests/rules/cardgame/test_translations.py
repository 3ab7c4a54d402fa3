"""Every key the card-game engine emits has English and Russian words with matching placeholders."""

from __future__ import annotations

import pytest

from rules.cardgame.cards import KIND_NAMES
from rules.cardgame.options import CardGameOptions
from rules.cardgame.reasons import CardGameReason
from rules.cardgame.state import Phase
from rules.cardgame.tickets import load_data
from rules.engine import Message

from .support import EN, ENGINE, RU, placeholders, playout


def messages(message: Message) -> list[Message]:
    """A message and every message nested in its parameters."""
    found = [message]
    for value in message.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Message):
                found += messages(item)
    return found


def emitted() -> list[Message]:
    """Messages from whole games of 2, 3 and 4 players: events, move descriptions, score lines."""
    out: list[Message] = []
    for n in (2, 3, 4):
        steps = list(playout(n, seed=20 + n, kind="sensible"))
        for before, seat, _, _, events in steps:
            out += events
            out += [a.describe() for a in ENGINE.legal_actions(before, seat)]
        result = ENGINE.result(steps[-1][3])
        assert result is not None
        out += [line.label for p in result.players for line in p.breakdown]
    return out


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    assert sorted(set(EN) ^ set(RU)) == []
    assert [k for k in EN if placeholders(EN[k]) != placeholders(RU[k])] == []


def test_every_emitted_key_has_words_and_its_placeholders_are_given() -> None:
    seen = set()
    for message in emitted():
        for part in messages(message):
            assert part.key in EN, part.key
            given = set(part.params) | ({"player"} if "seat" in part.params else set())
            assert placeholders(EN[part.key]) <= given, part.key
            seen.add(part.key)
    events = {k for k in EN if k.startswith("cardgame.event.")}
    # Whole games meet nearly every event; the rare ones are met by the rule tests.
    assert len(events & seen) >= len(events) - 4


@pytest.mark.parametrize("reason", list(CardGameReason))
def test_every_rejection_reason_has_words(reason: CardGameReason) -> None:
    assert reason.value in EN and reason.value in RU


def test_colours_cities_phases_and_options_have_words() -> None:
    assert all(f"cardgame.color.{name}" in EN for name in KIND_NAMES)
    assert all(f"cardgame.city.{city}" in EN for city in load_data().cities)
    assert all(EN[f"cardgame.city.{city}"] == name for city, name in load_data().cities.items())
    assert all(f"cardgame.phase.{phase.value}" in EN for phase in Phase)
    for field, info in CardGameOptions.model_fields.items():
        assert info.description
        assert f"cardgame.option.{field}.name" in EN and f"cardgame.option.{field}.description" in EN
