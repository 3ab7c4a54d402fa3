"""The view's last round (R-CG-11, R-CG-12) and its public last move (R-V: the number of tickets kept, never which)."""

from __future__ import annotations

from rules.cardgame.actions import KeepTickets
from rules.cardgame.state import CardGameState, MoveKind
from rules.cardgame.view import LastMoveView

from .support import ENGINE, act, colors, edit, kind, kinds, started, with_player


def pass_turn(state: CardGameState) -> CardGameState:
    """The current player draws tickets and keeps none."""
    seat = state.current
    state, _ = act(state, seat, "tickets")
    state, _ = act(state, seat, "keep:none")
    return state


def test_r_cg_11_the_last_turns_of_a_three_player_game_are_its_last_round() -> None:
    state = started(3, seed=2)
    assert not ENGINE.view(state, None).last_round
    state = edit(state, deck=(kind("red"),))
    state, _ = act(state, state.current, "draw:deck")
    view = ENGINE.view(state, None)
    assert view.last_round and view.last_turns_left == 3


def test_r_cg_12_the_turns_before_the_first_scoring_are_not_the_last_round() -> None:
    state = started(4, seed=3)
    state = edit(state, deck=(kind("red"),), discard=kinds(orange=10, purple=10))
    state, _ = act(state, state.current, "draw:deck")
    view = ENGINE.view(state, None)
    assert view.last_turns_left == 4, "four turns are left before the first scoring"
    assert not view.last_round, "the game goes on with a second deck"
    for _ in range(4):
        state = pass_turn(state)
    assert state.deck_number == 2 and not ENGINE.view(state, None).last_round
    state = edit(state, deck=(kind("blue"),))
    state, _ = act(state, state.current, "draw:deck")
    view = ENGINE.view(state, 1)
    assert view.last_round and view.last_turns_left == 4, "the second deck's end is the last round"


def test_r_v_the_last_move_shows_face_up_cards_and_only_the_number_drawn_blind() -> None:
    state = started(2, seed=2)
    me = state.current
    state = edit(state, face_up=(kind("blue"),) * 5)
    state, _ = act(state, me, "draw:blue")
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.kind is MoveKind.DRAW and move.seat == me
    assert move.face_up == ["blue"] and move.blind == 0, "the first pick shows while the second is awaited"
    state, _ = act(state, me, "draw:deck")
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.face_up == ["blue"] and move.blind == 1, "a deck card counts, its colour not"
    other = state.current
    state, _ = act(state, other, "draw:deck")
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.seat == other and move.face_up == [] and move.blind == 1, "a new turn, a new move"


def test_r_v_the_last_move_counts_tickets_kept_and_never_names_them() -> None:
    state = started(2, seed=2)
    me = state.current
    state, _ = act(state, me, "tickets")
    offered = state.players[me].offered
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.kind is MoveKind.TICKETS
    assert move.tickets_drawn == len(offered) and move.tickets_kept is None
    state, _ = ENGINE.apply(state, me, KeepTickets(tickets=(offered[0], offered[2])))
    expected = LastMoveView(turn=state.turn - 1, seat=me, kind=MoveKind.TICKETS, tickets_drawn=4, tickets_kept=2)
    assert ENGINE.view(state, None).last_move == expected, "how many were kept, nothing about which"


def test_r_cg_9_the_last_move_carries_the_play_and_its_robbery() -> None:
    state = started(2, seed=2)
    me, other = state.current, 1 - state.current
    state = with_player(state, me, hand=kinds(red=3))
    state = with_player(state, other, yard=colors(red=2))
    state, _ = act(state, me, "play:red:3:0")
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.kind is MoveKind.PLAY and move.play is not None
    assert move.play.colors == ["red"] and move.play.robbed_seat == other and move.play.robbed_cards == 2


def test_r_cg_11_a_pass_is_the_last_move() -> None:
    state = started(2, seed=2)
    me, other = state.current, 1 - state.current
    state = edit(state, deck=(kind("red"),), ticket_deck=())
    state = with_player(state, other, hand=kinds(red=1))
    state, _ = act(state, me, "draw:deck")
    move = ENGINE.view(state, None).last_move
    assert move is not None and move.kind is MoveKind.PASS and move.seat == other


def test_a_state_stored_before_the_last_move_was_kept_still_loads() -> None:
    state = started(2, seed=2)
    stored = state.model_dump(mode="json")
    stored.pop("last_move")
    loaded = CardGameState.model_validate(stored)
    assert loaded.last_move is None and ENGINE.view(loaded, None).last_move is None
