"""The variants of «Поезд» a host may choose; every default is the printed rule."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from rules.engine import Options


class GameMode(StrEnum):
    """How the game is won."""

    RACE = "race"
    ELIMINATION = "elimination"


class TieRule(StrEnum):
    """What a tie for the top at the end of a race means."""

    SHARED = "shared"
    PLAY_ON = "play_on"


class DiceOptions(Options):
    """Options of a dice game: target score, game mode and tie rule."""

    target: int = Field(
        default=100,
        ge=10,
        le=500,
        description="Points that end a race game once a player reaches them (R-D-9).",
    )
    mode: GameMode = Field(
        default=GameMode.RACE,
        description="Race to the target score, or the book's alternative game where a turn that fails "
        "to beat the best train so far knocks the player out (R-D-10).",
    )
    tie: TieRule = Field(
        default=TieRule.SHARED,
        description="In a race, whether players tied for the top share the win or play further rounds "
        "among themselves until one leads (R-D-9).",
    )
