"""The dice game «Поезд»: engine, options, actions, views and a bot player."""

from rules.dice.actions import Add, DiceAction, Freight, Roll, Stop
from rules.dice.engine import DiceEngine
from rules.dice.faces import Face
from rules.dice.options import DiceOptions, GameMode, TieRule
from rules.dice.reasons import DiceReason
from rules.dice.state import DiceState
from rules.dice.view import DiceView

__all__ = [
    "Add",
    "DiceAction",
    "DiceEngine",
    "DiceOptions",
    "DiceReason",
    "DiceState",
    "DiceView",
    "Face",
    "Freight",
    "GameMode",
    "Roll",
    "Stop",
    "TieRule",
]
