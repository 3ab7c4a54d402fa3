"""Ticket to Ride moves, their short text forms (`draw:deck`, `claim:57:blue:1`, …) and rejection reasons."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import Field

from rules.engine import Action, CommonReason, IllegalAction, Message, UndoReason
from rules.ttr.board import CARD_CODES, COLOR_MESSAGES

DECK = "deck"


class TtrReason(StrEnum):
    """Why a Ticket to Ride move is refused; each value is its translation key."""

    UNKNOWN_TRACK = "ttr.reason.unknown_track"
    TRACK_TAKEN = "ttr.reason.track_taken"
    DOUBLE_OWN = "ttr.reason.double_own"
    DOUBLE_CLOSED = "ttr.reason.double_closed"
    NOT_ENOUGH_CARS = "ttr.reason.not_enough_cars"
    CANNOT_PAY = "ttr.reason.cannot_pay"
    NOTHING_TO_DRAW = "ttr.reason.nothing_to_draw"
    NO_SUCH_FACE_UP = "ttr.reason.no_such_face_up"
    LOCOMOTIVE_SECOND = "ttr.reason.locomotive_second"
    NO_TICKETS_LEFT = "ttr.reason.no_tickets_left"
    KEEP_MORE = "ttr.reason.keep_more"
    NOT_OFFERED = "ttr.reason.not_offered"
    UNKNOWN_CITY = "ttr.reason.unknown_city"
    CITY_TAKEN = "ttr.reason.city_taken"
    NO_STATIONS_LEFT = "ttr.reason.no_stations_left"
    NO_STATIONS_ON_MAP = "ttr.reason.no_stations_on_map"
    MUST_ACT = "ttr.reason.must_act"
    ALREADY_CHOSEN = "ttr.reason.already_chosen"


class TtrAction(Action):
    """Base of every Ticket to Ride move."""


class DrawCard(TtrAction):
    """Take one train card: the deck's top (`deck`) or a face-up card of this colour (R-T1)."""

    source: str = Field(description="`deck` or a card colour name.")

    def revealed(self) -> UndoReason | None:
        """A blind card was seen by the mover."""
        return UndoReason.SAW_HIDDEN if self.source == DECK else None

    def encode(self) -> str:
        """Return `draw:deck` or `draw:<colour>`."""
        return f"draw:{self.source}"

    def describe(self) -> Message:
        """Say which card is taken."""
        if self.source == DECK:
            return Message(key="ttr.action.draw_deck")
        return Message(key="ttr.action.draw_face_up", params={"color": COLOR_MESSAGES[CARD_CODES[self.source]]})


class Claim(TtrAction):
    """Claim a track, paying `locomotives` wild cards and the rest in `color` (R-T5; `locomotive`: all wild)."""

    track: int
    color: str
    locomotives: int = Field(ge=0)

    def encode(self) -> str:
        """Return `claim:<track id>:<colour>:<locomotives>`."""
        return f"claim:{self.track}:{self.color}:{self.locomotives}"

    def describe(self) -> Message:
        """Say which track and which cards."""
        return Message(
            key="ttr.action.claim",
            params={
                "track": self.track,
                "color": COLOR_MESSAGES[CARD_CODES[self.color]],
                "locomotives": self.locomotives,
            },
        )


class PayTunnel(TtrAction):
    """Pay a tunnel's extra cards with this many locomotives, the rest in the colour laid (R-EU-6)."""

    reveals: ClassVar[UndoReason | None] = UndoReason.TURNED_UP
    """It finishes a claim whose tunnel cards everyone saw."""
    locomotives: int = Field(ge=0)

    def encode(self) -> str:
        """Return `pay:<locomotives>`."""
        return f"pay:{self.locomotives}"

    def describe(self) -> Message:
        """Say how the extra cards are paid."""
        return Message(key="ttr.action.pay", params={"locomotives": self.locomotives})


class Withdraw(TtrAction):
    """Decline a tunnel: the laid cards go back to the hand and the turn ends (R-EU-6)."""

    reveals: ClassVar[UndoReason | None] = UndoReason.TURNED_UP
    """It finishes a claim whose tunnel cards everyone saw."""

    def encode(self) -> str:
        """Return `withdraw`."""
        return "withdraw"

    def describe(self) -> Message:
        """Say that the tunnel is abandoned."""
        return Message(key="ttr.action.withdraw")


class DrawTickets(TtrAction):
    """Draw destination tickets (R-T7)."""

    reveals: ClassVar[UndoReason | None] = UndoReason.SAW_HIDDEN

    def encode(self) -> str:
        """Return `tickets`."""
        return "tickets"

    def describe(self) -> Message:
        """Say that tickets are drawn."""
        return Message(key="ttr.action.draw_tickets")


class KeepTickets(TtrAction):
    """Keep these offered tickets (by id, ascending) and return the others."""

    judged_when_stale: ClassVar[bool] = True
    """The opening choice is simultaneous; the engine refuses it if the offer has changed."""
    tickets: tuple[int, ...]

    def encode(self) -> str:
        """Return `keep:<id>,<id>…`."""
        return "keep:" + ",".join(str(t) for t in self.tickets)

    def describe(self) -> Message:
        """Say how many tickets are kept."""
        return Message(key="ttr.action.keep", params={"count": len(self.tickets), "tickets": list(self.tickets)})


class BuildStation(TtrAction):
    """Build a station on a city, paying `locomotives` wild cards and the rest in `color` (R-EU-4)."""

    city: str
    color: str
    locomotives: int = Field(ge=0)

    def encode(self) -> str:
        """Return `station:<city id>:<colour>:<locomotives>`."""
        return f"station:{self.city}:{self.color}:{self.locomotives}"

    def describe(self) -> Message:
        """Say where and with which cards."""
        return Message(
            key="ttr.action.station",
            params={
                "city": Message(key=f"ttr.city.{self.city}"),
                "color": COLOR_MESSAGES[CARD_CODES[self.color]],
                "locomotives": self.locomotives,
            },
        )


class Pass(TtrAction):
    """Do nothing: only legal when nothing else is (R-E2)."""

    def encode(self) -> str:
        """Return `pass`."""
        return "pass"

    def describe(self) -> Message:
        """Say that the turn is passed."""
        return Message(key="ttr.action.pass")


TtrMove = DrawCard | Claim | PayTunnel | Withdraw | DrawTickets | KeepTickets | BuildStation | Pass
"""Any Ticket to Ride move as a union of the action classes: a model field of this type (a view's legal moves)
keeps each move's own fields when dumped."""


def _malformed(text: str) -> IllegalAction:
    return IllegalAction(CommonReason.MALFORMED_ACTION, text=text)


def _int(text: str, whole: str) -> int:
    if not text.isdigit() or len(text) > 4:
        raise _malformed(whole)
    return int(text)


def _color(text: str, whole: str) -> str:
    if text not in CARD_CODES:
        raise _malformed(whole)
    return text


def parse_action(text: str) -> TtrAction:
    """Read a move from its text form, or raise IllegalAction(MALFORMED_ACTION)."""
    verb, _, rest = text.partition(":")
    parts = rest.split(":") if rest else []
    if verb == "draw" and len(parts) == 1 and (parts[0] == DECK or parts[0] in CARD_CODES):
        return DrawCard(source=parts[0])
    if verb == "claim" and len(parts) == 3:
        return Claim(track=_int(parts[0], text), color=_color(parts[1], text), locomotives=_int(parts[2], text))
    if verb == "pay" and len(parts) == 1:
        return PayTunnel(locomotives=_int(parts[0], text))
    if verb == "keep" and len(parts) == 1:
        ids = tuple(_int(p, text) for p in parts[0].split(","))
        if list(ids) != sorted(set(ids)):
            raise _malformed(text)
        return KeepTickets(tickets=ids)
    if verb == "station" and len(parts) == 3 and parts[0].replace("_", "").isalpha():
        return BuildStation(city=parts[0], color=_color(parts[1], text), locomotives=_int(parts[2], text))
    if not parts and not rest:
        simple: dict[str, TtrAction] = {"withdraw": Withdraw(), "tickets": DrawTickets(), "pass": Pass()}
        if verb in simple:
            return simple[verb]
    raise _malformed(text)
