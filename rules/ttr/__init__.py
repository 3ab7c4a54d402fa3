"""Ticket to Ride (USA and Europe maps): the engine, its options, views and bots."""

from rules.ttr.engine import TicketToRideEngine
from rules.ttr.options import TtrOptions

__all__ = ["TicketToRideEngine", "TtrOptions"]
