"""People's names as the bot shows them: display names are user input, so each is normalised (nothing invisible,
see `bot.i18n.shown_name`), told apart from a look-alike at the same table, and escaped in message text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from bot.i18n import escaped, shown_name
from bot.storage.games import GameRecord

LOOK_ALIKES = str.maketrans(
    "АВЕКМНОРСТУХІЈЅаеорсухіјѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυI",
    "ABEKMHOPCTYXIJSaeopcyxijsdqwhlABEZHIKMNOPTYXaikvopul",
)
"""Cyrillic and Greek letters drawn like Latin ones (and a capital I like a small L), for telling whether two names
look the same; only compared, never shown."""


def look_alike(name: str) -> str:
    """What a name looks like, for comparing: as the bot shows it, with letters drawn alike made one, case folded."""
    return shown_name(name).translate(LOOK_ALIKES).casefold()


def shown_names(record: GameRecord, *, marked: bool = True) -> dict[int, str]:
    """Seat -> the name shown (bot players marked with a robot if `marked`), not escaped; two seats whose names look
    the same are told apart by their seat number ("Ann (#1)", "Ann (#2)"), the number the lobby lists them by."""
    alike = Counter(look_alike(s.name) for s in record.seats)
    return {
        s.seat: shown_name(s.display_name if marked else s.name)
        + (f" (#{s.seat + 1})" if alike[look_alike(s.name)] > 1 else "")
        for s in record.seats
    }


def seat_names(record: GameRecord, *, marked: bool = True) -> Mapping[int, str]:
    """Seat -> the name as message text shows it (see `shown_names`), escaped."""
    return {seat: escaped(name) for seat, name in shown_names(record, marked=marked).items()}
