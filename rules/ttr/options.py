"""The variants of Ticket to Ride as typed options; every default is the printed rule."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from rules.engine import Options


class MapChoice(StrEnum):
    """Which board to play on."""

    USA = "usa"
    EUROPE = "europe"


class FirstPlayer(StrEnum):
    """Who takes the first turn (R-S1)."""

    RANDOM = "random"
    SEAT_ORDER = "seat_order"


class ReturnedTickets(StrEnum):
    """Where tickets returned from a mid-game draw go (R-T7, R-EU-3)."""

    BOTTOM = "bottom"
    REMOVED = "removed"


class TtrOptions(Options):
    """Ticket to Ride variants: the map, and the rules the books leave to the table."""

    map: MapChoice = Field(default=MapChoice.USA, description="The board: USA or Europe.")
    open_doubles: bool = Field(
        default=False,
        description="With 2 or 3 players, both tracks of a double route may be claimed (by different players).",
    )
    returned_tickets: ReturnedTickets = Field(
        default=ReturnedTickets.BOTTOM,
        description="Tickets returned after a mid-game draw go under the ticket deck, or out of the game.",
    )
    first_player: FirstPlayer = Field(
        default=FirstPlayer.RANDOM,
        description="Who plays first: drawn at random, or the first seat (the host arranges the seats).",
    )
    longest_bonus: bool = Field(
        default=True, description="Award the bonus for the longest continuous path (USA card, European Express)."
    )
