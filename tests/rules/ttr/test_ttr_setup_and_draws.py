"""Components, setup, the opening ticket choice and drawing train cards (R-C1/2, R-USA-1/2, R-EU-1/2, R-S1, R-T1…4)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.engine import CommonReason, IllegalAction
from rules.ttr.actions import DrawCard
from rules.ttr.board import COLOR_MESSAGES, LOCO, board_for
from rules.ttr.cards import TOTAL_CARDS, new_deck
from rules.ttr.options import FirstPlayer, TtrOptions
from rules.ttr.state import Phase

from .ttr_support import ENGINE, act, hand, keys, started, stocked, total_cards, track_id


def test_r_c1_deck_has_110_cards_12_per_colour_14_locomotives() -> None:
    counts = Counter(new_deck())
    assert TOTAL_CARDS == 110
    assert [counts[c] for c in range(8)] == [12] * 8 and counts[LOCO] == 14
    state = ENGINE.new_game(TtrOptions(), 5, 3)
    assert total_cards(state) == 110


@pytest.mark.parametrize(("map_id", "stations"), [("usa", 0), ("europe", 3)])
def test_r_c2_cars_and_stations(map_id: str, stations: int) -> None:
    state = ENGINE.new_game(TtrOptions(map=map_id), 3, 1)
    assert state.cars == (45,) * 3 and state.stations_left == (stations,) * 3


def test_r_usa_1_four_cards_each_and_five_face_up() -> None:
    state = ENGINE.new_game(TtrOptions(), 4, 7)
    assert [sum(h) for h in state.hands] == [4] * 4
    assert len(state.market) == 5 and len(state.deck) == 110 - 16 - 5 + len(state.discard)


def test_r_usa_2_opening_choice_is_simultaneous_keep_at_least_two_returned_to_bottom() -> None:
    state = ENGINE.new_game(TtrOptions(), 3, 5)
    assert ENGINE.to_act(state) == {0, 1, 2}
    assert all(len(o) == 3 for o in state.offers)
    keeps = ENGINE.legal_actions(state, 1)
    assert sorted(len(a.tickets) for a in keeps) == [2, 2, 2, 3]  # type: ignore[attr-defined]
    offer = sorted(state.offers[1])
    with pytest.raises(IllegalAction) as err:
        act(state, 1, f"keep:{offer[0]}")
    assert err.value.reason.value == "ttr.reason.keep_more"
    deck_before = state.ticket_deck
    state, events = act(state, 1, f"keep:{offer[0]},{offer[1]}")
    assert state.ticket_deck == (*deck_before, offer[2])
    assert ENGINE.to_act(state) == {0, 2} and state.phase is Phase.OPENING
    assert "ttr.event.opening_chosen" in keys(events)
    private = [e for e in events if e.to == 1]
    assert private and all(e.to == 1 for e in private)
    with pytest.raises(IllegalAction):
        act(state, 1, f"keep:{offer[0]},{offer[1]}")
    for seat in (2, 0):
        state, events = act(state, seat, "keep:" + ",".join(map(str, sorted(state.offers[seat]))))
    assert state.phase is Phase.TURN and "ttr.event.play_begins" in keys(events)


def test_r_eu_1_r_eu_2_long_ticket_each_returns_removed() -> None:
    state = ENGINE.new_game(TtrOptions(map="europe"), 2, 9)
    board = board_for("europe")
    assert [sum(h) for h in state.hands] == [4, 4] and len(state.market) == 5
    for offer in state.offers:
        assert len(offer) == 4 and sum(t in board.long_ticket_ids for t in offer) == 1
    assert not set(state.ticket_deck) & set(board.long_ticket_ids)
    assert len(state.ticket_deck) == 40 - 6
    long_ticket = next(t for t in state.offers[0] if t in board.long_ticket_ids)
    regular = sorted(t for t in state.offers[0] if t != long_ticket)
    state, _ = act(state, 0, f"keep:{regular[0]},{regular[1]}")
    assert long_ticket not in state.ticket_deck and regular[2] not in state.ticket_deck
    assert len(state.ticket_deck) == 34


def test_r_s1_first_player_random_or_seat_order() -> None:
    firsts = {ENGINE.new_game(TtrOptions(), 5, seed).current for seed in range(40)}
    assert len(firsts) > 1
    fixed = {ENGINE.new_game(TtrOptions(first_player=FirstPlayer.SEAT_ORDER), 5, s).current for s in range(10)}
    assert fixed == {0}


def test_r_t1_two_picks_face_up_replaced_at_once() -> None:
    state = started()
    state = state.model_copy(update={"market": (0, 1, 2, 3, 4), "deck": (5, 6, 7), "hands": ((0,) * 9,) * 4})
    state, events = act(state, 0, "draw:purple")
    assert state.phase is Phase.SECOND_PICK and state.market == (7, 1, 2, 3, 4)
    assert state.hands[0][0] == 1
    state, events = act(state, 0, "draw:deck")
    assert state.hands[0][6] == 1 and state.current == 1 and state.phase is Phase.TURN
    summary = next(e for e in events if e.key == "ttr.event.drew_face_up_and_blind")
    assert summary.to is None and summary.params == {"seat": 0, "colors": [COLOR_MESSAGES[0]]}
    private = [e for e in events if not e.public]
    assert [(e.key, e.to, e.params) for e in private] == [("ttr.event.you_drew", 0, {"color": COLOR_MESSAGES[6]})]


def test_r_t2_face_up_locomotive_only_first_pick_and_ends_turn() -> None:
    state = started()
    state = state.model_copy(update={"market": (LOCO, 1, 2, 3, 4), "deck": (5, 6, LOCO, 7)})
    after, _ = act(state, 0, "draw:locomotive")
    assert after.current == 1 and after.phase is Phase.TURN
    state, _ = act(state, 0, "draw:white")  # replaced by green (7)
    assert DrawCard(source="locomotive") not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "draw:locomotive")
    assert err.value.reason.value == "ttr.reason.locomotive_second"


def test_r_t2_blind_locomotive_counts_as_one_card() -> None:
    state = started().model_copy(update={"market": (0, 1, 2, 3, 4), "deck": (5, 6, LOCO)})
    state, events = act(state, 0, "draw:deck")
    assert state.phase is Phase.SECOND_PICK and state.hands[0][LOCO] >= 1
    assert [e.to for e in events if e.key == "ttr.event.you_drew"] == [0]
    state, events = act(state, 0, "draw:deck")
    assert "ttr.event.drew_two_blind" in keys(events) and state.current == 1
    private = [e for e in events if not e.public]  # the blind card just drawn; the first was told as it was drawn
    assert [(e.key, e.to, e.params) for e in private] == [("ttr.event.you_drew", 0, {"color": COLOR_MESSAGES[6]})]


def test_r_t3_three_face_up_locomotives_reset_the_market() -> None:
    before = started().model_copy(update={"market": (LOCO, LOCO, 1, 2, 3), "deck": (0, 0, 0, 0, 4, LOCO)})
    # white taken, replaced by the locomotive on top of the deck: 3 locomotives, so all 5 go and 5 new are turned
    state, events = act(before, 0, "draw:white")
    assert "ttr.event.market_reset" in keys(events)
    assert sorted(state.market) == [0, 0, 0, 0, 4] and len(state.deck) == 0
    assert sorted(state.discard[-5:]) == [2, 3, LOCO, LOCO, LOCO]
    assert total_cards(state) == total_cards(before)


def test_r_t3_no_endless_loop_when_only_locomotives_remain() -> None:
    base = started()
    rest = 110 - 8
    state = base.model_copy(
        update={
            "hands": ((rest // 4,) + (0,) * 7 + (0,),) * 3 + ((rest - 3 * (rest // 4) - 2, 0, 0, 0, 0, 0, 0, 0, 0),),
            "market": (LOCO, LOCO, LOCO, 1, 2),
            "deck": (LOCO, LOCO, LOCO),
            "discard": (),
        }
    )
    state, events = act(state, 0, "draw:white")
    assert state.market.count(LOCO) >= 3  # cannot be helped: no reset loop
    assert "ttr.event.market_reset" not in keys(events)


L = LOCO
WHITE, BLUE, RED = 1, 2, 6


@pytest.mark.parametrize(
    ("map_id", "move"),
    [("usa", f"claim:{track_id('usa', 'boston', 'new_york', 'red')}:red:0"), ("europe", "station:paris:red:0")],
)
def test_r_t3_row_left_with_three_locomotives_is_reset_at_end_of_turn_once_cards_come_back(
    map_id: str, move: str
) -> None:
    # Deck + discards + row hold 4 locomotives and only 2 other cards: no row with < 3 locomotives can be made, so
    # the row was left as it is. Paying red cards into the discards makes one possible: reset at the end of the turn.
    before = stocked(started(map_id), market=(L, L, L, WHITE, BLUE), deck=(L,), hand0=hand(red=2))
    state, events = act(before, 0, move)
    assert state.current == 1 and "ttr.event.market_reset" in keys(events)
    assert len(state.market) == 5 and state.market.count(LOCO) <= 2
    assert total_cards(state) == total_cards(before) == 110
    assert ENGINE.apply(before, 0, ENGINE.parse_action(move)) == (state, events)  # deterministic from the state


def test_r_t3_no_reset_while_it_cannot_be_fixed_then_reset_when_it_can() -> None:
    # 5 locomotives and 1 other card outside the hands. One red card back makes 2 others: still no row of 5 with at
    # most 2 locomotives, so the row stays. A second red card (next turn) makes 3: the row is reset.
    one_car = track_id("usa", "dallas", "houston")
    other_one_car = track_id("usa", "portland", "seattle")
    before = stocked(started(), market=(L, L, L, L, WHITE), deck=(L,), hand0=hand(red=1))
    state, events = act(before, 0, f"claim:{one_car}:red:0")
    assert "ttr.event.market_reset" not in keys(events) and "ttr.event.reshuffled" not in keys(events)
    assert state.market == before.market and state.deck == before.deck and state.discard == (RED,)
    assert state.rng == before.rng and state.current == 1
    state, events = act(state, 1, f"claim:{other_one_car}:red:0")
    assert "ttr.event.market_reset" in keys(events)
    # the only legal row: the 3 cards that are not locomotives and 2 locomotives
    assert sorted(state.market) == [WHITE, RED, RED, L, L]


def test_r_t3_end_of_turn_reset_repeats_while_three_locomotives_come_up_again() -> None:
    # After the claim, the first new row turns up the deck's 3 locomotives again (top is last): reset once more,
    # from the reshuffled discards, until the row holds at most 2; the shuffles come from the state's seed.
    before = stocked(started(), market=(L, L, L, L, WHITE), deck=(BLUE, L, L, L), hand0=hand(red=2))
    move = f"claim:{track_id('usa', 'boston', 'new_york', 'red')}:red:0"
    state, events = act(before, 0, move)
    assert keys(events).count("ttr.event.market_reset") >= 2 and "ttr.event.reshuffled" in keys(events)
    assert len(state.market) == 5 and state.market.count(LOCO) <= 2
    assert state.rng.seed == before.rng.seed and state.rng.draws > before.rng.draws
    assert total_cards(state) == 110
    assert act(before, 0, move) == (state, events)


def test_r_t4_discards_reshuffled_when_deck_empty() -> None:
    state = started().model_copy(update={"deck": (), "discard": (0, 1, 2, 3)})
    state, events = act(state, 0, "draw:deck")
    assert "ttr.event.reshuffled" in keys(events)
    assert state.discard == () and len(state.deck) == 3


def test_r_t4_no_draw_when_nothing_to_draw() -> None:
    state = started().model_copy(update={"deck": (), "discard": (), "market": ()})
    legal = [a.encode() for a in ENGINE.legal_actions(state, 0)]
    assert not any(text.startswith("draw:") for text in legal)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "draw:deck")
    assert err.value.reason.value == "ttr.reason.nothing_to_draw"


def test_r_t4_only_one_card_drawable_ends_the_turn() -> None:
    state = started().model_copy(update={"deck": (), "discard": (), "market": (3,)})
    state, events = act(state, 0, "draw:yellow")
    assert state.current == 1 and state.market == ()
    assert "ttr.event.drew_face_up" in keys(events)


def test_r_t4_second_pick_with_only_a_face_up_locomotive_left_ends_turn() -> None:
    state = started().model_copy(update={"deck": (), "discard": (), "market": (3, LOCO)})
    state, _ = act(state, 0, "draw:yellow")
    assert state.current == 1


def test_not_your_turn_and_game_over_rejected() -> None:
    state = started()
    with pytest.raises(IllegalAction) as err:
        act(state, 2, "draw:deck")
    assert err.value.reason is CommonReason.NOT_YOUR_TURN
    over = state.model_copy(update={"phase": Phase.OVER})
    with pytest.raises(IllegalAction) as err:
        act(over, 0, "draw:deck")
    assert err.value.reason is CommonReason.GAME_OVER
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "pay:1")
    assert err.value.reason is CommonReason.NOT_LEGAL_NOW


def test_apply_never_mutates_its_input() -> None:
    state = started()
    snapshot = state.model_dump_json()
    act(state, 0, "draw:deck")
    act(state, 0, "tickets")
    assert state.model_dump_json() == snapshot


def test_hand_helper() -> None:
    assert hand(red=2, locomotive=1)[6] == 2 and hand(red=2, locomotive=1)[8] == 1
