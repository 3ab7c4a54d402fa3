"""Names as the bot shows them: nothing invisible (zero-width, bidi controls, fillers), NFKC-folded, never empty;
names that look the same at one table (case, Cyrillic or Greek look-alike letters) told apart by seat number."""

from __future__ import annotations

import pytest

from bot.i18n import UNNAMED, escaped, shown_name
from bot.storage.games import GameRecord, SeatRecord
from bot.ui.names import look_alike, seat_names, shown_names
from bot.ui.pictures import plain_names

INVISIBLE = [
    *map(chr, range(0x200B, 0x2010)),
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2060, 0x2065)),
    *map(chr, range(0x2066, 0x206A)),
    "\ufeff",
    "\u00ad",
    "\u3164",
    "\u0007",
]


@pytest.mark.parametrize("hidden", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_an_invisible_character_inside_a_name_is_not_shown(hidden: str) -> None:
    assert shown_name(f"{hidden}A{hidden}nn{hidden}") == "Ann"


def test_a_name_is_folded_to_plain_letters_with_single_spaces_and_never_empty() -> None:
    assert shown_name("Ａｎｎ") == "Ann", "fullwidth letters"
    assert shown_name("𝐀𝐧𝐧") == "Ann", "mathematical bold letters"
    assert shown_name("  Ann \u00a0 Lee\n") == "Ann Lee"
    assert shown_name("\u200b\u202e ") == UNNAMED
    assert shown_name("Анна") == "Анна" and shown_name("🤖 Ёлка") == "🤖 Ёлка", "other scripts and emoji stay"


def test_escaped_shows_the_name_as_shown_and_literal() -> None:
    assert escaped("**A\u200bnn**") == "\\*\\*Ann\\*\\*"
    assert escaped("@every\u200bone") == "@\u200beveryone", "a mention split by a zero-width space stays harmless"


def test_look_alike_letters_and_case_make_one_look() -> None:
    assert look_alike("Ann") == look_alike("АNN") == look_alike("Αnn") == look_alike("A\u200bnn")  # Cyrillic, Greek
    assert look_alike("BiII") == look_alike("Bill")
    assert look_alike("Ann") != look_alike("Anne") and look_alike("Анна") != look_alike("Ann")


def record_of(*names: str, bot: int | None = None) -> GameRecord:
    """A record seating these names in order (the seat `bot` a bot player)."""
    seats = tuple(
        SeatRecord(seat, name, bot_kind="normal") if seat == bot else SeatRecord(seat, name, user_id=100 + seat)
        for seat, name in enumerate(names)
    )
    return GameRecord(1, "dice", 7, 8, 100, "finished", {}, 0, 5, None, seats)


def test_seats_whose_names_look_the_same_are_told_apart_by_seat_number_everywhere() -> None:
    record = record_of("Ann", "Ben", "A\u200bnn", "аnn", "Stephenson", bot=4)
    assert shown_names(record) == {0: "Ann (#1)", 1: "Ben", 2: "Ann (#3)", 3: "аnn (#4)", 4: "🤖 Stephenson"}
    assert plain_names(record) == ["Ann (#1)", "Ben", "Ann (#3)", "аnn (#4)", "Stephenson"]
    assert seat_names(record, marked=False)[2] == "Ann (#3)"
    assert seat_names(record_of("*Ann*", "Ben"))[0] == "\\*Ann\\*", "escaped, and alone: no number"


def test_a_person_and_a_bot_player_of_the_same_name_are_told_apart() -> None:
    record = record_of("Stephenson", "Stephenson", bot=1)
    assert shown_names(record) == {0: "Stephenson (#1)", 1: "🤖 Stephenson (#2)"}
    assert plain_names(record) == ["Stephenson (#1)", "Stephenson (#2)"]
