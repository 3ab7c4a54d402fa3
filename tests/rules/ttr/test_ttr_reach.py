"""What a seat's cards could claim now, read from its view (rules/ttr/reach.py), against the engine's legal claims."""

from __future__ import annotations

import random

import pytest

from rules.ttr.maps import load_map
from rules.ttr.reach import claimable_tracks
from rules.ttr.state import Phase, TtrState
from rules.ttr.view import SeatView

from .ttr_support import ENGINE, hand, started, track_id


def _seat_view(state: TtrState, seat: int) -> SeatView:
    view = ENGINE.view(state, seat)
    assert isinstance(view, SeatView)
    return view


def _between_turns(view: SeatView) -> SeatView:
    """The same view as if it were not this seat's turn: the rules are worked out from the cards, not the moves."""
    return view.model_copy(update={"phase": "second_pick", "legal": []})


@pytest.mark.parametrize(
    ("map_id", "n_players", "open_doubles"),
    [("usa", 2, False), ("usa", 2, True), ("usa", 4, False), ("europe", 3, False), ("europe", 5, False)],
)
def test_r_t5_r_t6_between_turns_the_cards_reach_what_the_legal_claims_reach(
    map_id: str, n_players: int, open_doubles: bool
) -> None:
    options = ENGINE.load_options({"map": map_id, "open_doubles": open_doubles})
    state = ENGINE.new_game(options, n_players, seed=4)
    rng = random.Random(4)
    checked = 0
    while not ENGINE.is_over(state) and checked < 60:
        if state.phase is Phase.TURN:
            view = _seat_view(state, state.current)
            on_turn = claimable_tracks(view)
            assert claimable_tracks(_between_turns(view)) == on_turn
            checked += 1
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "sensible"))
    assert checked == 60


def test_r_t6_the_twin_of_an_own_double_is_out_of_reach() -> None:
    state = started("usa", 4)
    red, yellow = track_id("usa", "new_york", "boston", "red"), track_id("usa", "new_york", "boston", "yellow")
    hands = (hand(red=2, yellow=2), *state.hands[1:])
    free = _seat_view(state.model_copy(update={"hands": hands}), 1)
    view = free.model_copy(update={"seat": 0, "hand": {"red": 2, "yellow": 2}, "legal": [], "phase": "second_pick"})
    assert {red, yellow} <= claimable_tracks(view)
    owned = view.model_copy(update={"owners": {**view.owners, red: 0}})
    assert yellow not in claimable_tracks(owned) and red not in claimable_tracks(owned)


def test_the_cards_reach_nothing_once_the_game_is_over() -> None:
    state = ENGINE.new_game(ENGINE.load_options({"map": "usa"}), 2, seed=3)
    rng = random.Random(3)
    while not ENGINE.is_over(state):
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "sensible"))
    rich = _seat_view(state, 0).model_copy(update={"hand": {"locomotive": 14}})
    assert claimable_tracks(rich) == frozenset()


def test_r_t5_a_route_longer_than_the_cars_left_is_out_of_reach() -> None:
    view = _between_turns(_seat_view(started("usa", 4), 0)).model_copy(update={"hand": {"locomotive": 6}})
    lengths = {t.id: t.length for t in load_map("usa").tracks}
    players = list(view.players)
    players[0] = players[0].model_copy(update={"cars": 2})
    short = claimable_tracks(view.model_copy(update={"players": players}))
    assert short and all(lengths[t] <= 2 for t in short)
    assert any(lengths[t] > 2 for t in claimable_tracks(view))
