"""Words about bot players and the coach: a bot kind's name, a hint as the asker reads it, and the final sheet's
"hints used" line."""

from __future__ import annotations

from bot.i18n import render, text
from bot.services.bot_players import Advice
from bot.storage.games import GameRecord
from bot.ui.names import seat_names
from rules.engine import LEGACY_KINDS


def kind_name(language: str, kind: str) -> str:
    """A bot kind's name (a level or a personality); kinds stored before levels show as the level they play."""
    return text(language, f"players.kind.{LEGACY_KINDS.get(kind, kind)}")


def kind_about(language: str, kind: str) -> str:
    """What a bot kind plays like, in one line."""
    return text(language, f"players.about.{LEGACY_KINDS.get(kind, kind)}")


def hint_text(language: str, advice: Advice) -> str:
    """A hint as its asker reads it: the reason sentence, which names the move itself ("Claim … : it completes …")."""
    names = seat_names(advice.record, marked=False)
    return text(language, "players.hint.answer", reason=render(language, advice.hint.reason, names))


def hints_line(language: str, record: GameRecord) -> str | None:
    """The final sheet's line "Hints used: Ann (2 hints) · Ben (0 hints)": every person's seat (and a seat handed
    to a bot after its person took hints), in seat order; None when nobody took a hint (nothing to tell)."""
    if not any(s.hints for s in record.seats):
        return None
    seats = sorted((s for s in record.seats if s.user_id is not None or s.hints), key=lambda s: s.seat)
    names = seat_names(record, marked=False)
    players = " · ".join(text(language, "players.sheet.person", name=names[s.seat], count=s.hints) for s in seats)
    return text(language, "players.sheet.hints", players=players)


def with_hints(language: str, record: GameRecord, lines: list[str]) -> list[str]:
    """A final sheet's ranking lines, then the hints line when anyone took a hint."""
    line = hints_line(language, record)
    return [*lines, line] if line else lines
