"""Setup (R-CG-1 … R-CG-4) and drawing tickets (R-CG-10)."""

from __future__ import annotations

import pytest

from rules.cardgame.cards import LOCOMOTIVE
from rules.cardgame.options import CardGameOptions
from rules.cardgame.reasons import CardGameReason
from rules.cardgame.state import Phase
from rules.engine import CommonReason, IllegalAction

from .support import ENGINE, FULL_DECK, act, card_totals, keys, started, with_player


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r_cg_1_ninety_six_train_cards_and_forty_six_tickets(n: int) -> None:
    state = ENGINE.new_game(CardGameOptions(), n, seed=7)
    assert card_totals(state) == FULL_DECK
    assert sum(FULL_DECK) == 96
    tickets = [t for p in state.players for t in p.offered] + list(state.ticket_deck)
    assert sorted(tickets) == list(range(1, 47))


def test_r_cg_1_two_to_four_players() -> None:
    for n in (1, 5):
        with pytest.raises(ValueError):
            ENGINE.new_game(CardGameOptions(), n, seed=1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r_cg_2_one_locomotive_plus_seven_cards_and_five_face_up(n: int) -> None:
    for seed in range(20):
        state = ENGINE.new_game(CardGameOptions(), n, seed)
        assert all(sum(p.hand) == 8 and p.hand[LOCOMOTIVE] >= 1 for p in state.players)
        assert len(state.face_up) == 5
        assert len(state.deck) + sum(state.discard) == 96 - 8 * n - 5


def test_r_cg_3_six_tickets_each_chosen_simultaneously_keep_at_least_one() -> None:
    state = ENGINE.new_game(CardGameOptions(), 3, seed=3)
    assert state.phase is Phase.OPENING
    assert ENGINE.to_act(state) == {0, 1, 2}
    assert all(len(p.offered) == 6 for p in state.players)
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, "keep:none")
    assert refused.value.reason is CardGameReason.MUST_KEEP_ONE
    stranger = next(t for t in range(1, 47) if t not in state.players[1].offered)
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, f"keep:{stranger}")
    assert refused.value.reason is CardGameReason.TICKET_NOT_OFFERED
    six = state.players[1].offered
    state, _ = act(state, 1, "keep:" + ",".join(map(str, sorted(six))))
    assert ENGINE.to_act(state) == {0, 2}
    assert state.players[1].tickets == tuple(sorted(six)) and state.players[1].offered == ()
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, "keep:none")
    assert refused.value.reason is CommonReason.NOT_YOUR_TURN
    before = len(state.ticket_deck)
    offered = state.players[0].offered
    state, _ = act(state, 0, f"keep:{offered[0]}")
    assert len(state.ticket_deck) == before + 5
    assert set(offered[1:]) <= set(state.ticket_deck)
    assert state.phase is Phase.OPENING
    state, _ = act(state, 2, f"keep:{state.players[2].offered[0]}")
    assert state.phase is Phase.TURN and ENGINE.to_act(state) == {state.first_player}


def test_r_cg_3_returned_tickets_are_shuffled_into_the_deck() -> None:
    orders = set()
    for seed in range(6):
        state = ENGINE.new_game(CardGameOptions(), 2, seed)
        offered = state.players[0].offered
        state, _ = act(state, 0, f"keep:{offered[0]}")
        orders.add(tuple(state.ticket_deck.index(t) for t in offered[1:]))
    assert len(orders) > 1


def test_r_cg_4_first_player_random_then_seat_order() -> None:
    firsts = {started(4, seed).current for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    state = started(3, seed=5)
    first = state.current
    state, _ = act(state, first, "tickets")
    state, _ = act(state, first, "keep:none")
    assert state.current == (first + 1) % 3


def test_r_cg_10_draw_four_keep_any_rest_to_the_bottom() -> None:
    state = started(2, seed=2)
    seat = state.current
    top4 = state.ticket_deck[:4]
    state, events = act(state, seat, "tickets")
    assert state.phase is Phase.TICKETS and state.players[seat].offered == top4
    assert keys(events) == ["drew_tickets", "tickets_offered"]
    assert events[0].public and events[1].to == seat and "tickets" not in events[0].params
    kept = sorted(top4[1:3])
    state, events = act(state, seat, f"keep:{kept[0]},{kept[1]}")
    assert set(kept) <= set(state.players[seat].tickets)
    assert state.ticket_deck[-2:] == (top4[0], top4[3])
    assert state.current != seat


def test_r_cg_10_keep_none_and_fewer_than_four_left() -> None:
    state = started(2, seed=2)
    seat = state.current
    state = state.model_copy(update={"ticket_deck": (5, 9)})
    state, _ = act(state, seat, "tickets")
    assert state.players[seat].offered == (5, 9)
    state, _ = act(state, seat, "keep:none")
    assert state.ticket_deck == (5, 9)
    empty = with_player(state.model_copy(update={"ticket_deck": ()}), state.current)
    with pytest.raises(IllegalAction) as refused:
        act(empty, empty.current, "tickets")
    assert refused.value.reason is CardGameReason.TICKET_DECK_EMPTY
