"""Why a dice move is refused; each value is the translation key of the refusal."""

from __future__ import annotations

from enum import StrEnum


class DiceReason(StrEnum):
    """Rejections specific to «Поезд» (turn and game-over refusals come from `CommonReason`)."""

    NOT_SHOWING = "dice.reason.not_showing"
    NEEDS_LOCOMOTIVE = "dice.reason.needs_locomotive"
    NEEDS_COAL = "dice.reason.needs_coal"
    SECOND_COAL = "dice.reason.second_coal"
    THIRD_LOCOMOTIVE = "dice.reason.third_locomotive"
    SECOND_CABOOSE = "dice.reason.second_caboose"
    NO_ROLLS_LEFT = "dice.reason.no_rolls_left"
    NOTHING_TO_ROLL = "dice.reason.nothing_to_roll"
    ADD_BEFORE_ROLLING = "dice.reason.add_before_rolling"
    FREIGHT_UNFINISHED = "dice.reason.freight_unfinished"
    NOT_FREIGHT_TRAIN = "dice.reason.not_freight_train"
