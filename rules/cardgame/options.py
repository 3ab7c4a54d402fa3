"""The card game's variants; every default is the printed rule."""

from __future__ import annotations

from pydantic import Field

from rules.engine import Options


class CardGameOptions(Options):
    """Variant switches admins and hosts may set; the defaults play the rule book as printed."""

    stack_visible_to_owner: bool = Field(
        default=False,
        description="Beginners' variant: each player may look at their own Train Stack during the game.",
    )
    three_locomotive_reset: bool = Field(
        default=True,
        description=(
            "When 3 of the 5 face-up cards are locomotives, discard all 5 and turn 5 new ones "
            "(off: the English edition's reading, no reset)."
        ),
    )
