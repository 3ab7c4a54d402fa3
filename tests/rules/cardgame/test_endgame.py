"""The end of a deck (R-CG-11, R-CG-12) and the scoring (R-CG-14 … R-CG-16)."""

from __future__ import annotations

import pytest

from rules.cardgame.reasons import CardGameReason
from rules.cardgame.scoring import score_stack
from rules.cardgame.state import CardGameState, Phase
from rules.engine import IllegalAction

from .support import ENGINE, act, colors, edit, keys, kind, kinds, started, with_player


def pass_turn(state: CardGameState) -> tuple[CardGameState, list[str]]:
    """The current player draws tickets and keeps none (a turn that changes no cards)."""
    seat = state.current
    state, first = act(state, seat, "tickets")
    state, second = act(state, seat, "keep:none")
    return state, keys(first + second)


def test_r_cg_11_deck_out_every_player_including_the_last_drawer_has_one_last_turn() -> None:
    state = started(3, seed=2)
    drawer = state.current
    state = edit(state, deck=(kind("red"),))
    state, events = act(state, drawer, "draw:deck")
    assert "last_round" in keys(events)
    assert state.current == (drawer + 1) % 3 and state.last_turns_left == 3
    order = [state.current]
    for _ in range(2):
        with pytest.raises(IllegalAction) as refused:
            act(state, state.current, "draw:deck")
        assert refused.value.reason is CardGameReason.DECK_EMPTY
        state, _ = pass_turn(state)
        order.append(state.current)
    assert order == [(drawer + 1) % 3, (drawer + 2) % 3, drawer]
    state, names = pass_turn(state)
    assert state.phase is Phase.OVER and "game_over" in names
    assert ENGINE.to_act(state) == frozenset() and ENGINE.result(state) is not None


def test_r_cg_11_with_one_card_left_a_face_up_pick_ends_the_turn() -> None:
    state = started(2, seed=2)
    me = state.current
    state = edit(state, deck=(kind("red"),), face_up=(kind("blue"),) * 5)
    state, _ = act(state, me, "draw:blue")
    assert state.current != me and state.deck == () and state.face_up == (kind("red"),) + (kind("blue"),) * 4


def test_r_cg_11_a_player_with_nothing_possible_passes_automatically() -> None:
    state = started(2, seed=2)
    me, other = state.current, 1 - state.current
    state = edit(state, deck=(kind("red"),), ticket_deck=())
    state = with_player(state, other, hand=kinds(red=1))
    state, events = act(state, me, "draw:deck")
    assert keys(events)[-1] == "turn_started" and state.current == me  # the other seat passed
    assert "no_move" in keys(events)
    assert state.last_turns_left == 1


def four_player_table() -> CardGameState:
    """A 4-player game, first deck nearly out, seat 0 holding a completable and an unfinished ticket."""
    state = started(4, seed=3)
    state = edit(state, current=0, first_player=0, deck=(kind("red"),), discard=kinds(orange=10, purple=10))
    state = with_player(state, 0, tickets=(1, 36), stack=kinds(yellow=1, green=1), yard=colors(black=2))
    state = with_player(state, 1, tickets=(2,), stack=kinds(blue=1))
    state = with_player(state, 2, tickets=(7,), stack=kinds())
    return with_player(state, 3, tickets=(3,), stack=kinds(yellow=1, locomotive=1), yard=colors(white=1))


def test_r_cg_12_four_players_first_scoring_and_second_deck() -> None:
    state = four_player_table()
    hands = [sum(p.hand) for p in state.players]
    state, _ = act(state, 0, "draw:deck")
    hands[0] += 1
    for _ in range(3):
        state, _ = pass_turn(state)
    # Seat 0's own last turn: step 1 first moves a black card to its stack; then the first scoring.
    state, names = pass_turn(state)
    assert "first_scoring" in names and "second_deck" in names
    assert state.deck_number == 2 and state.last_turns_left is None and state.phase is Phase.TURN
    assert state.current == 1
    scoring = state.first_scoring
    assert scoring is not None
    assert [s.ticket for s in scoring[0].completed] == [1]
    assert [s.ticket for s in scoring[1].completed] == [2]
    assert [s.ticket for s in scoring[3].completed] == [3]
    assert state.players[0].tickets == (36,) and state.players[2].tickets == (7,)
    assert all(p.stack == kinds() and p.yard == colors() for p in state.players)
    # Hands stay and get 4 more; yards, stacks and the discard pile made the new deck.
    assert [sum(p.hand) for p in state.players] == [h + 4 for h in hands]
    # Discard 20, seat 0's stack 3 and yard 1, seat 1's stack 1, seat 3's stack 3: 28 cards, 16 dealt.
    assert len(state.deck) == 28 - 16


def test_r_cg_12_a_second_deck_used_up_by_the_deal_starts_the_last_turns() -> None:
    state = edit(four_player_table(), discard=kinds())
    state, _ = act(state, 0, "draw:deck")
    for _ in range(4):
        state, _ = pass_turn(state)
    assert state.deck_number == 2 and state.deck == () and state.last_turns_left == 4
    for _ in range(4):
        state, _ = pass_turn(state)
    assert state.phase is Phase.OVER


def test_r_cg_12_second_deck_out_ends_the_game_with_the_first_scoring_counted() -> None:
    state = four_player_table()
    state, _ = act(state, 0, "draw:deck")
    for _ in range(4):
        state, _ = pass_turn(state)
    assert state.deck_number == 2 and len(state.deck) > 0
    state = edit(state, deck=state.deck[-1:])
    state, _ = act(state, state.current, "draw:deck")
    for _ in range(4):
        state, _ = pass_turn(state)
    assert state.phase is Phase.OVER
    result = ENGINE.result(state)
    assert result is not None
    lines = {line.label.key for p in result.players for line in p.breakdown}
    assert "cardgame.score.ticket_completed_first" in lines and "cardgame.score.ticket_unfinished" in lines


def finished(stacks: list[tuple[int, ...]], held: list[tuple[int, ...]]) -> CardGameState:
    """A game over with these stacks and tickets at the final scoring."""
    state = started(len(stacks), seed=1)
    records = tuple(score_stack(seat, stacks[seat], held[seat]) for seat in range(len(stacks)))
    return edit(state, phase=Phase.OVER, final_scoring=records)


def test_r_cg_14_unfinished_tickets_subtract() -> None:
    state = finished([kinds(yellow=1), kinds()], [(1, 3), (2,)])
    result = ENGINE.result(state)
    assert result is not None
    totals = {p.seat: p.total for p in result.players}
    # Seat 0: Chicago–New York +5, Chicago–Dallas -6, Chicago and New York bonuses +12 +15.
    assert totals == {0: 5 - 6 + 12 + 15, 1: -5}


def test_r_cg_15_big_city_majorities_ties_share_and_two_cities_count_for_both() -> None:
    state = finished([kinds(yellow=1), kinds(blue=1), kinds()], [(1,), (2,), (6,)])
    view = ENGINE.view(state, None)
    assert view.final is not None
    cities = {c.city: c for c in view.final.big_cities}
    assert cities["chicago"].winners == [0, 1] and cities["new_york"].winners == [0, 1]
    assert cities["chicago"].counts == [1, 1, 0]
    assert cities["miami"].winners == []  # nobody completed a Miami ticket: a bonus needs at least one
    result = ENGINE.result(state)
    assert result is not None
    assert {p.seat: p.total for p in result.players} == {0: 5 + 12 + 15, 1: 5 + 12 + 15, 2: -7}


def test_r_cg_15_first_scoring_tickets_count_for_big_cities() -> None:
    state = finished([kinds(), kinds(yellow=1, green=1)], [(), (3,)])
    first = (score_stack(0, kinds(blue=1), (2,)), score_stack(1, kinds(), ()))
    state = edit(state, first_scoring=first)
    view = ENGINE.view(state, None)
    assert view.final is not None
    cities = {c.city: c for c in view.final.big_cities}
    assert cities["new_york"].winners == [0] and cities["chicago"].winners == [0, 1]


def test_r_cg_16_a_full_tie_is_a_shared_win() -> None:
    state = finished([kinds(yellow=1), kinds(yellow=1)], [(1,), (1,)])
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0, 1]


def test_r_cg_16_equal_totals_more_completed_tickets_wins() -> None:
    # Seat 0: tickets 1 and 4 (5 + 6, Chicago and New York bonuses); seat 1: Seattle–Miami (22 + 8 + 8): 38 each.
    state = finished([kinds(yellow=2, blue=1), kinds(black=1, white=1, red=2, orange=1)], [(1, 4), (46,)])
    result = ENGINE.result(state)
    assert result is not None
    assert [p.total for p in result.players] == [38, 38]
    assert result.winners == [0] and result.players[0].seat == 0


def test_r_cg_16_equal_totals_and_tickets_more_bonus_cards_wins() -> None:
    # Seat 0: tickets 1 and 4, two bonuses; seat 1: tickets 5 and 41 (7 + 19, New York shared): 38 each.
    state = finished([kinds(yellow=2, blue=1), kinds(yellow=1, blue=2, white=1, orange=1, purple=1)], [(1, 4), (5, 41)])
    result = ENGINE.result(state)
    assert result is not None
    assert [p.total for p in result.players] == [38, 38]
    assert result.winners == [0]
