"""A turn: the automatic step 1 (R-CG-5), one step 2 (R-CG-6), drawing train cards (R-CG-7)."""

from __future__ import annotations

import pytest

from rules.cardgame.cards import KIND_NAMES, LOCOMOTIVE
from rules.cardgame.options import CardGameOptions
from rules.cardgame.reasons import CardGameReason
from rules.cardgame.state import Phase
from rules.engine import CommonReason, IllegalAction, Message

from .support import ENGINE, act, colors, edit, keys, kind, kinds, started, with_player


def test_r_cg_5_step_one_moves_one_card_of_each_colour_locomotive_first() -> None:
    state = started(2, seed=4)
    me, other = state.current, 1 - state.current
    state = with_player(state, other, yard=colors(red=3, blue=1), yard_locomotives=colors(red=1), stack=kinds(green=2))
    state, events = act(state, me, "tickets")
    state, events = act(state, me, "keep:none")
    player = state.players[other]
    assert player.yard == colors(red=2) and player.yard_locomotives == colors()
    assert player.stack == kinds(green=2, blue=1, locomotive=1)
    moved = next(e for e in events if e.key == "cardgame.event.yard_to_stack")
    assert moved.public and moved.params["seat"] == other
    assert moved.params["cards"] == [Message(key="cardgame.color.locomotive"), Message(key="cardgame.color.blue")]
    assert state.phase is Phase.TURN and state.current == other


def test_r_cg_5_step_one_skipped_in_the_first_round_and_with_an_empty_yard() -> None:
    state = ENGINE.new_game(CardGameOptions(), 2, seed=4)
    events = []
    for seat in (0, 1):
        state, step = act(state, seat, f"keep:{state.players[seat].offered[0]}")
        events += step
    me = state.current
    state, step = act(state, me, "tickets")
    state, step2 = act(state, me, "keep:none")
    assert "yard_to_stack" not in keys(events + step + step2)
    assert all(sum(p.stack) == 0 for p in state.players)


def test_r_cg_6_step_two_is_exactly_one_of_draw_play_or_tickets() -> None:
    state = started(2, seed=6)
    me = state.current
    state = with_player(state, me, hand=kinds(red=3, blue=1, green=1, yellow=1, locomotive=1))
    codes = [a.encode() for a in ENGINE.legal_actions(state, me)]
    assert "draw:deck" in codes and "tickets" in codes and "play:red:2:0" in codes
    assert "play3:red,yellow,green" in codes
    after, _ = act(state, me, "play:red:2:0")
    assert after.current != me
    after, _ = act(state, me, "draw:deck")
    assert after.phase is Phase.SECOND_PICK and after.current == me
    assert all(a.encode().startswith("draw:") for a in ENGINE.legal_actions(after, me))
    with pytest.raises(IllegalAction) as refused:
        act(after, me, "play:red:2:0")
    assert refused.value.reason is CommonReason.NOT_LEGAL_NOW


def test_r_cg_7_two_cards_blind_draw_private_colour_public_draw() -> None:
    state = started(2, seed=8)
    me = state.current
    top = state.deck[-1]
    hand = state.players[me].hand
    state, events = act(state, me, "draw:deck")
    assert keys(events) == ["drew_from_deck", "drew_card"]
    assert events[0].public and "color" not in events[0].params
    assert events[1].to == me and events[1].params["color"] == Message(key=f"cardgame.color.{KIND_NAMES[top]}")
    state, events = act(state, me, "draw:deck")
    assert sum(state.players[me].hand) == sum(hand) + 2 and state.current != me


def test_r_cg_7_face_up_card_replaced_at_once() -> None:
    state = started(2, seed=8)
    me = state.current
    state = edit(state, face_up=(kind("red"), kind("blue"), kind("green"), kind("white"), kind("black")))
    top = state.deck[-1]
    state, events = act(state, me, "draw:blue")
    assert state.face_up[1] == top and state.players[me].hand[kind("blue")] >= 1
    assert keys(events) == ["drew_face_up"] and events[0].public
    assert state.phase is Phase.SECOND_PICK


def test_r_cg_7_face_up_locomotive_counts_as_two_first_pick_only() -> None:
    state = started(2, seed=8)
    me = state.current
    row = (LOCOMOTIVE, kind("blue"), kind("green"), kind("white"), kind("black"))
    state = edit(state, face_up=row, deck=(*state.deck[:-1], kind("red")))
    after, _ = act(state, me, "draw:locomotive")
    assert after.current != me and after.players[me].hand[LOCOMOTIVE] == state.players[me].hand[LOCOMOTIVE] + 1
    second, _ = act(state, me, "draw:deck")
    second = edit(second, face_up=row)
    assert "draw:locomotive" not in [a.encode() for a in ENGINE.legal_actions(second, me)]
    with pytest.raises(IllegalAction) as refused:
        act(second, me, "draw:locomotive")
    assert refused.value.reason is CardGameReason.FACE_UP_LOCOMOTIVE_SECOND_PICK


def test_r_cg_7_blind_locomotive_counts_as_one() -> None:
    state = started(2, seed=8)
    me = state.current
    state = edit(state, deck=(*state.deck[:-1], LOCOMOTIVE))
    state, _ = act(state, me, "draw:deck")
    assert state.phase is Phase.SECOND_PICK and state.current == me


def test_r_cg_7_three_face_up_locomotives_reset_the_row() -> None:
    state = started(2, seed=8)
    me = state.current
    row = (LOCOMOTIVE, LOCOMOTIVE, kind("red"), kind("blue"), kind("green"))
    deck = (kind("white"),) * 5 + (LOCOMOTIVE,)
    state = edit(state, face_up=row, deck=deck, discard=kinds())
    after, events = act(state, me, "draw:red")
    assert "face_up_reset" in keys(events)
    assert after.face_up == (kind("white"),) * 5 and after.deck == ()
    assert after.discard == kinds(locomotive=3, blue=1, green=1)


def test_r_cg_7_variant_without_reset() -> None:
    state = started(2, seed=8, options=CardGameOptions(three_locomotive_reset=False))
    me = state.current
    row = (LOCOMOTIVE, LOCOMOTIVE, kind("red"), kind("blue"), kind("green"))
    state = edit(state, face_up=row, deck=(kind("white"),) * 5 + (LOCOMOTIVE,))
    after, events = act(state, me, "draw:red")
    assert "face_up_reset" not in keys(events) and after.face_up.count(LOCOMOTIVE) == 3


def test_r_cg_7_drawing_from_an_empty_deck_is_refused() -> None:
    state = started(2, seed=8)
    me = state.current
    state = edit(state, deck=())
    with pytest.raises(IllegalAction) as refused:
        act(state, me, "draw:deck")
    assert refused.value.reason is CardGameReason.DECK_EMPTY
    with pytest.raises(IllegalAction) as refused:
        act(state, me, f"draw:{KIND_NAMES[state.face_up[0]]}")
    assert refused.value.reason is CardGameReason.DECK_EMPTY
    assert not any(a.encode().startswith("draw") for a in ENGINE.legal_actions(state, me))


def test_r_cg_7_a_card_not_face_up_is_refused() -> None:
    state = started(2, seed=8)
    state = edit(state, face_up=(kind("red"),) * 5)
    with pytest.raises(IllegalAction) as refused:
        act(state, state.current, "draw:blue")
    assert refused.value.reason is CardGameReason.NOT_FACE_UP
