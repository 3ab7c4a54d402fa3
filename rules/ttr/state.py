"""The Ticket to Ride game state: compact tuples of small ints, so a move copies only what it changes.

Card codes are 0 … 7 for the colours and 8 for a locomotive (see `board.CARD_NAMES`); tracks and cities are
indices into the map (see `board.Board`). The deck's top is its last element; the ticket deck's top is its first.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.models import build_unchecked
from rules.rng import Rng
from rules.ttr.options import TtrOptions


class Phase(StrEnum):
    """What the game waits for."""

    OPENING = "opening"
    """Every seat chooses its opening tickets at once (R-USA-2, R-EU-2)."""
    TURN = "turn"
    """The current seat picks its action (or its first card, R-T1)."""
    SECOND_PICK = "second_pick"
    """The current seat takes its second train card (R-T1, R-T2)."""
    TUNNEL = "tunnel"
    """The current seat pays for the revealed tunnel cards or withdraws (R-EU-6)."""
    TICKETS = "tickets"
    """The current seat keeps some of the tickets it drew (R-T7)."""
    OVER = "over"


class MoveKind(StrEnum):
    """What a finished turn was."""

    CARDS = "cards"
    CLAIM = "claim"
    TICKETS = "tickets"
    STATION = "station"
    TUNNEL_FAILED = "tunnel_failed"
    """A tunnel whose extra cards the player could not pay (R-EU-6)."""
    TUNNEL_WITHDRAWN = "tunnel_withdrawn"
    """A tunnel the player declined to pay for (R-EU-6)."""
    PASS = "pass"


class LastMove(BaseModel):
    """The last finished turn as everyone saw it (R-V1): who, what kind, and only its public facts."""

    model_config = ConfigDict(frozen=True)

    seat: int
    kind: MoveKind
    face_up: tuple[int, ...] = ()
    """Card codes taken face up, in the order taken."""
    blind: int = 0
    """How many cards came blind from the deck (their colours are private, R-V2)."""
    track: int = -1
    """Track index claimed, or the tunnel tried; -1 for other moves."""
    points: int = 0
    """Route points the claim scored."""
    tickets_drawn: int = 0
    tickets_kept: int = 0
    """How many tickets were drawn and kept (which ones is hidden, R-V3)."""
    city: int = -1
    """City index of the station built, or -1."""


_NO_FACTS: dict[str, Any] = {
    "face_up": (),
    "blind": 0,
    "track": -1,
    "points": 0,
    "tickets_drawn": 0,
    "tickets_kept": 0,
    "city": -1,
}


def last_move(seat: int, kind: MoveKind, **facts: Any) -> LastMove:
    """Record a finished turn (without re-validating the engine's own values: this runs every turn)."""
    return build_unchecked(LastMove, {"seat": seat, "kind": kind, **_NO_FACTS, **facts})


class PendingTunnel(BaseModel):
    """A tunnel claim waiting for the extra cards: the cards laid (still in hand), the 3 revealed, the extra."""

    model_config = ConfigDict(frozen=True)

    track: int
    color: int
    """Card code of the cards laid; 8 when only locomotives were laid."""
    locomotives: int
    revealed: tuple[int, ...]
    extra: int


class TtrState(BaseModel):
    """Everything about one game, hidden parts included; only views leave the engine."""

    model_config = ConfigDict(frozen=True)

    map_id: str
    options: TtrOptions
    n_players: int
    rng: Rng
    phase: Phase
    current: int
    """Whose turn it is (during the opening: the seat that will play first)."""
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    market: tuple[int, ...]
    ticket_deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    """Per seat, how many cards of each card code (9 counts)."""
    tickets: tuple[tuple[int, ...], ...]
    """Per seat, the ids of the tickets kept."""
    offers: tuple[tuple[int, ...], ...]
    """Per seat, the ids of the tickets being chosen from."""
    owners: tuple[int, ...]
    """Per track, the seat that claimed it, or -1."""
    stations: tuple[int, ...]
    """Per city, the seat whose station stands there, or -1."""
    cars: tuple[int, ...]
    stations_left: tuple[int, ...]
    route_points: tuple[int, ...]
    tunnel: PendingTunnel | None = None
    first_pick: int = -1
    """Card code taken by the first pick of this turn, or -1."""
    first_pick_face_up: bool = False
    last_claim: int = -1
    """Track index claimed in the last finished turn, or -1."""
    last_move: LastMove | None = None
    """The last finished turn (None before the first; states stored before it existed load as None)."""
    final_turns: int = -1
    """Turns left in the last round (R-E1), or -1 before it starts."""
    passes: int = 0
    """Consecutive passes (R-E2); a whole round of them ends the game."""
    turn: int = 0
    """Finished turns."""


def replace_hand(hands: tuple[tuple[int, ...], ...], seat: int, hand: list[int]) -> tuple[tuple[int, ...], ...]:
    """Return `hands` with one seat's card counts replaced."""
    return (*hands[:seat], tuple(hand), *hands[seat + 1 :])


def replace_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """Return `values` with one position changed."""
    return (*values[:index], value, *values[index + 1 :])


def replace_row(rows: tuple[tuple[int, ...], ...], index: int, row: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Return `rows` with one row changed."""
    return (*rows[:index], row, *rows[index + 1 :])
