"""Ticket to Ride: The Card Game: the engine, its options, actions, views and bot player."""

from rules.cardgame.actions import CardGameAction, DrawCard, DrawTickets, KeepTickets, PlayGroup, PlayThree
from rules.cardgame.engine import CardGameEngine
from rules.cardgame.options import CardGameOptions
from rules.cardgame.reasons import CardGameReason
from rules.cardgame.state import CardGameState, Phase
from rules.cardgame.view import CardGameView

__all__ = [
    "CardGameAction",
    "CardGameEngine",
    "CardGameOptions",
    "CardGameReason",
    "CardGameState",
    "CardGameView",
    "DrawCard",
    "DrawTickets",
    "KeepTickets",
    "Phase",
    "PlayGroup",
    "PlayThree",
]
