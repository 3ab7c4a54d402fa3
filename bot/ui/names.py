"""People's names as message text: display names are user input, so each is escaped (see `bot.i18n.escaped`)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import escaped
from bot.storage.games import GameRecord


def seat_names(record: GameRecord) -> Mapping[int, str]:
    """Seat -> the name as message text shows it (bot players marked), escaped."""
    return {s.seat: escaped(s.display_name) for s in record.seats}
