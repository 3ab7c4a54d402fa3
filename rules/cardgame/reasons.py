"""Why a card-game move is refused; each value is its translation key."""

from __future__ import annotations

from enum import StrEnum


class CardGameReason(StrEnum):
    """Rejections specific to the card game (the shared ones are in `rules.engine.CommonReason`)."""

    DECK_EMPTY = "cardgame.reason.deck_empty"
    NOT_FACE_UP = "cardgame.reason.not_face_up"
    FACE_UP_LOCOMOTIVE_SECOND_PICK = "cardgame.reason.face_up_locomotive_second_pick"
    NOT_IN_HAND = "cardgame.reason.not_in_hand"
    GROUP_TOO_SMALL = "cardgame.reason.group_too_small"
    GROUP_NEEDS_NATURAL = "cardgame.reason.group_needs_natural"
    COLOR_IN_OWN_YARD = "cardgame.reason.color_in_own_yard"
    TOO_FEW_TO_ROB = "cardgame.reason.too_few_to_rob"
    LOCOMOTIVE_IN_THREE_COLORS = "cardgame.reason.locomotive_in_three_colors"
    THREE_COLORS_NOT_DIFFERENT = "cardgame.reason.three_colors_not_different"
    THREE_COLORS_IN_OTHER_YARD = "cardgame.reason.three_colors_in_other_yard"
    TICKET_DECK_EMPTY = "cardgame.reason.ticket_deck_empty"
    MUST_KEEP_ONE = "cardgame.reason.must_keep_one"
    TICKET_NOT_OFFERED = "cardgame.reason.ticket_not_offered"
