"""Plays to the Rail Yard (R-CG-8) and train robbery (R-CG-9): what is legal, and whom a play would rob."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rules.cardgame.actions import PlayGroup, PlayThree, group_play, three_play
from rules.cardgame.cards import LOCOMOTIVE, N_COLORS, color_message
from rules.cardgame.reasons import CardGameReason
from rules.engine import Param

Yards = Sequence[Sequence[int]]
"""Every seat's yard: group size per colour (locomotives included)."""


def holder(yards: Yards, color: int, seat: int) -> int | None:
    """Return the other seat whose yard holds `color` (at most one ever does, R-CG-9), or None."""
    for other, yard in enumerate(yards):
        if other != seat and yard[color]:
            return other
    return None


def group_error(
    hand: Sequence[int], yards: Yards, seat: int, play: PlayGroup
) -> tuple[CardGameReason, dict[str, Param]] | None:
    """Return why this one-colour play is illegal (reason and parameters), or None if it is legal."""
    color, size = play.color, play.cards + play.locomotives
    if play.cards < 1:
        return CardGameReason.GROUP_NEEDS_NATURAL, {}
    if size < 2:
        return CardGameReason.GROUP_TOO_SMALL, {}
    if hand[color] < play.cards or hand[LOCOMOTIVE] < play.locomotives:
        return CardGameReason.NOT_IN_HAND, {}
    if yards[seat][color]:
        return CardGameReason.COLOR_IN_OWN_YARD, {"color": color_message(color)}
    victim = holder(yards, color, seat)
    if victim is not None and size <= yards[victim][color]:
        return CardGameReason.TOO_FEW_TO_ROB, {
            "color": color_message(color),
            "victim": victim,
            "needed": yards[victim][color] + 1,
        }
    return None


def three_error(
    hand: Sequence[int], yards: Yards, seat: int, play: PlayThree
) -> tuple[CardGameReason, dict[str, Param]] | None:
    """Return why this three-colour play is illegal (reason and parameters), or None if it is legal."""
    if LOCOMOTIVE in play.colors:
        return CardGameReason.LOCOMOTIVE_IN_THREE_COLORS, {}
    if len(play.colors) != 3 or len(set(play.colors)) != 3:
        return CardGameReason.THREE_COLORS_NOT_DIFFERENT, {}
    if any(hand[color] < 1 for color in play.colors):
        return CardGameReason.NOT_IN_HAND, {}
    for color in play.colors:
        if yards[seat][color]:
            return CardGameReason.COLOR_IN_OWN_YARD, {"color": color_message(color)}
        victim = holder(yards, color, seat)
        if victim is not None:
            return CardGameReason.THREE_COLORS_IN_OTHER_YARD, {"color": color_message(color), "victim": victim}
    return None


def legal_plays(hand: Sequence[int], yards: Yards, seat: int) -> list[PlayGroup | PlayThree]:
    """Enumerate every legal play: groups by colour, natural cards, locomotives; then colour triples."""
    plays: list[PlayGroup | PlayThree] = []
    own = yards[seat]
    locomotives = hand[LOCOMOTIVE]
    free: list[int] = []
    for color in range(N_COLORS):
        if own[color] or not hand[color]:
            continue
        victim = holder(yards, color, seat)
        smallest = 2 if victim is None else max(2, yards[victim][color] + 1)
        if victim is None:
            free.append(color)
        for cards in range(1, hand[color] + 1):
            for extra in range(max(0, smallest - cards), locomotives + 1):
                plays.append(group_play(color, cards, extra))
    plays.extend(three_play(trio) for trio in combinations(free, 3))
    return plays


def has_legal_play(hand: Sequence[int], yards: Yards, seat: int) -> bool:
    """Whether any play to the yard is legal (cheaper than enumerating them)."""
    own = yards[seat]
    free = 0
    for color in range(N_COLORS):
        if own[color] or not hand[color]:
            continue
        victim = holder(yards, color, seat)
        smallest = 2 if victim is None else yards[victim][color] + 1
        if hand[color] + hand[LOCOMOTIVE] >= smallest:
            return True
        free += victim is None
    return free >= 3
