"""Playing to the Rail Yard (R-CG-8) and train robbery (R-CG-9)."""

from __future__ import annotations

import pytest

from rules.cardgame.reasons import CardGameReason
from rules.cardgame.state import CardGameState
from rules.engine import IllegalAction

from .support import ENGINE, act, colors, keys, kinds, started, with_player


def refused(state: CardGameState, seat: int, text: str) -> CardGameReason:
    """Apply a move that must be refused; return the reason (and check nothing changed)."""
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as error:
        act(state, seat, text)
    assert state.model_dump_json() == before
    assert isinstance(error.value.reason, CardGameReason)
    return error.value.reason


def two_players(hand0: tuple[int, ...], hand1: tuple[int, ...]) -> CardGameState:
    """A started 2-player game where seat 0 is to play, with the given hands and empty yards."""
    state = started(2, seed=1)
    state = state.model_copy(update={"current": 0, "first_player": 0})
    state = with_player(state, 0, hand=hand0)
    return with_player(state, 1, hand=hand1)


def test_r_cg_8_group_of_one_colour_with_locomotives_joining() -> None:
    state = two_players(kinds(green=2, locomotive=2), kinds())
    state, events = act(state, 0, "play:green:2:2")
    player = state.players[0]
    assert player.yard == colors(green=4) and player.yard_locomotives == colors(green=2)
    assert player.hand == kinds()
    assert keys(events)[0] == "played_group_locomotives" and events[0].params["count"] == 2
    assert state.plays[-1].colors == (3,) and state.plays[-1].locomotives == 2


def test_r_cg_8_group_needs_two_cards_and_a_natural_one() -> None:
    state = two_players(kinds(green=1, blue=3, locomotive=3), kinds())
    assert refused(state, 0, "play:green:1:0") is CardGameReason.GROUP_TOO_SMALL
    assert refused(state, 0, "play:green:0:2") is CardGameReason.GROUP_NEEDS_NATURAL
    assert refused(state, 0, "play:blue:4:0") is CardGameReason.NOT_IN_HAND
    act(state, 0, "play:green:1:1")


def test_r_cg_8_three_different_colours_without_locomotives() -> None:
    state = two_players(kinds(red=1, yellow=1, blue=2, locomotive=1), kinds())
    assert refused(state, 0, "play3:red,yellow,locomotive") is CardGameReason.LOCOMOTIVE_IN_THREE_COLORS
    assert refused(state, 0, "play3:red,blue,blue") is CardGameReason.THREE_COLORS_NOT_DIFFERENT
    assert refused(state, 0, "play3:red,yellow,green") is CardGameReason.NOT_IN_HAND
    state, events = act(state, 0, "play3:red,yellow,blue")
    assert state.players[0].yard == colors(red=1, yellow=1, blue=1)
    assert keys(events)[0] == "played_three"


def test_r_cg_8_a_colour_already_in_ones_own_yard_cannot_be_played() -> None:
    state = two_players(kinds(red=3, yellow=1, blue=1), kinds())
    state = with_player(state, 0, yard=colors(red=1))
    assert refused(state, 0, "play:red:2:0") is CardGameReason.COLOR_IN_OWN_YARD
    assert refused(state, 0, "play3:red,yellow,blue") is CardGameReason.COLOR_IN_OWN_YARD
    assert not any(a.encode().startswith("play:red") for a in ENGINE.legal_actions(state, 0))


def test_r_cg_9_book_example_sasha_blue_robbed_by_masha_three_blue() -> None:
    sasha, masha = 0, 1
    state = two_players(kinds(blue=1, red=1, yellow=1), kinds(blue=3))
    state, _ = act(state, sasha, "play3:red,yellow,blue")
    assert state.current == masha
    options = {o.action.encode(): o for o in ENGINE.view(state, masha).legal or []}
    assert options["play:blue:3:0"].robs_seat == sasha and options["play:blue:3:0"].robs_cards == 1
    state, events = act(state, masha, "play:blue:3:0")
    # The blue is gone; Sasha's next turn then moves red and yellow on to the stack (step 1).
    assert state.players[sasha].yard == colors() and state.players[sasha].stack == kinds(red=1, yellow=1)
    assert keys(events) == ["played_group", "robbed", "turn_started", "yard_to_stack"]
    assert state.players[masha].yard == colors(blue=3)
    assert state.discard[4] >= 1
    robbery = next(e for e in events if e.key == "cardgame.event.robbed")
    assert robbery.public and robbery.params["seat"] == sasha and robbery.params["robber"] == masha
    assert robbery.params["count"] == 1
    assert state.plays[-1].robbed_seat == sasha and state.plays[-1].robbed_cards == 1


def test_r_cg_9_robbery_needs_more_cards_locomotives_counting_on_both_sides() -> None:
    state = two_players(kinds(), kinds(green=2, locomotive=2))
    state = with_player(state, 0, yard=colors(green=3), yard_locomotives=colors(green=1))
    state = state.model_copy(update={"current": 1})
    assert refused(state, 1, "play:green:2:1") is CardGameReason.TOO_FEW_TO_ROB
    assert "play:green:2:1" not in [a.encode() for a in ENGINE.legal_actions(state, 1)]
    discard = state.discard
    state, _ = act(state, 1, "play:green:2:2")
    assert state.players[0].yard == colors() and state.players[1].yard == colors(green=4)
    assert state.discard[3] == discard[3] + 2 and state.discard[8] == discard[8] + 1


def test_r_cg_9_three_colour_play_cannot_rob() -> None:
    state = two_players(kinds(), kinds(red=1, yellow=1, blue=1, green=1))
    state = with_player(state, 0, yard=colors(blue=1))
    state = state.model_copy(update={"current": 1})
    assert refused(state, 1, "play3:red,yellow,blue") is CardGameReason.THREE_COLORS_IN_OTHER_YARD
    legal = [a.encode() for a in ENGINE.legal_actions(state, 1)]
    assert "play3:red,yellow,green" in legal and not any("blue" in c for c in legal if c.startswith("play3"))


def test_r_cg_9_at_most_one_yard_holds_each_colour() -> None:
    from .support import playout

    for n in (2, 3, 4):
        for _, _, _, after, _ in playout(n, seed=n):
            for color in range(8):
                assert sum(1 for p in after.players if p.yard[color]) <= 1
