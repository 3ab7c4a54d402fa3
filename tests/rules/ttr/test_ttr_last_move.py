"""The last finished turn in the public view (R-V1: every action is public, a blind card only as "from the deck",
R-V3: which tickets stay hidden) and closed double routes (R-T6), both for the board picture."""

from __future__ import annotations

import json

import pytest

from rules.ttr.state import LastMove, MoveKind, TtrState
from rules.ttr.view import PublicView

from .ttr_support import ENGINE, act, hand, started, track_id, track_index


def _public(state: TtrState) -> PublicView:
    view = ENGINE.view(state, None)
    assert isinstance(view, PublicView)
    return view


def test_r_v1_last_move_of_a_card_draw_shows_face_up_colours_and_counts_blind_cards() -> None:
    state = started().model_copy(update={"market": (0, 1, 2, 3, 4), "deck": (5, 6, 7, 6)})
    assert _public(state).last_move is None
    state, _ = act(state, 0, "draw:purple")
    assert _public(state).last_move is None  # a turn half done is not a move yet
    state, _ = act(state, 0, "draw:deck")  # green: the deck's top once red replaced the purple
    move = _public(state).last_move
    assert move is not None and (move.seat, move.kind, move.face_up, move.blind) == (0, "cards", ["purple"], 1)
    assert "green" not in json.dumps(move.model_dump())  # a blind card's colour is private (R-V2)
    state, _ = act(state, 1, "draw:deck")
    state, _ = act(state, 1, "draw:deck")
    move = _public(state).last_move
    assert move is not None and (move.seat, move.face_up, move.blind) == (1, [], 2)


def test_r_v1_last_move_of_a_claim_names_the_track_and_its_points() -> None:
    state = started().model_copy(update={"current": 0})
    state = state.model_copy(update={"hands": (hand(red=2), *state.hands[1:])})
    ny_boston = track_id("usa", "new_york", "boston", "red")
    state, _ = act(state, 0, f"claim:{ny_boston}:red:0")
    move = _public(state).last_move
    assert move is not None and (move.seat, move.kind, move.track, move.points) == (0, "claim", ny_boston, 2)


def test_r_v3_last_move_of_a_ticket_draw_counts_tickets_without_naming_them() -> None:
    state, _ = act(started(), 0, "tickets")
    offered = sorted(state.offers[0])
    state, _ = act(state, 0, f"keep:{offered[0]},{offered[1]}")
    move = _public(state).last_move
    assert move is not None and (move.kind, move.tickets_drawn, move.tickets_kept) == ("tickets", 3, 2)
    assert move.track is None and move.city is None
    fields = move.model_dump()
    assert set(fields) == {
        "seat",
        "kind",
        "face_up",
        "blind",
        "track",
        "points",
        "tickets_drawn",
        "tickets_kept",
        "city",
    }


def test_r_eu_4_last_move_of_a_station_names_its_city() -> None:
    state = started("europe")
    state = state.model_copy(update={"hands": (hand(red=1), *state.hands[1:])})
    state, _ = act(state, 0, "station:wien:red:0")
    move = _public(state).last_move
    assert move is not None and (move.kind, move.city) == ("station", "wien")


def test_r_eu_6_last_move_of_a_tunnel_tried_and_given_up_names_the_tunnel() -> None:
    tunnel = track_id("europe", "madrid", "pamplona", "black")
    state = started("europe")
    state = state.model_copy(update={"hands": (hand(black=4), *state.hands[1:]), "deck": (2, 5, 1, 1)})
    state, _ = act(state, 0, f"claim:{tunnel}:black:0")
    assert _public(state).last_move is None  # waiting for the payment
    withdrawn, _ = act(state, 0, "withdraw")
    move = _public(withdrawn).last_move
    assert move is not None and (move.kind, move.track, move.points) == ("tunnel_withdrawn", tunnel, 0)
    assert _public(withdrawn).last_claim is None
    paid, _ = act(state, 0, "pay:0")
    move = _public(paid).last_move
    assert move is not None and (move.kind, move.track, move.points) == ("claim", tunnel, 4)
    assert _public(paid).last_claim == tunnel


def test_a_state_stored_before_the_last_move_existed_still_loads() -> None:
    state, _ = act(started(), 0, "tickets")
    state, _ = act(state, 0, f"keep:{state.offers[0][0]}")
    data = json.loads(state.model_dump_json())
    assert data["last_move"]["kind"] == "tickets"
    del data["last_move"]
    old = TtrState.model_validate(data)
    assert old.last_move is None and _public(old).last_move is None
    assert TtrState.model_validate_json(state.model_dump_json()) == state
    assert state.last_move == LastMove(seat=0, kind=MoveKind.TICKETS, tickets_drawn=3, tickets_kept=1)


@pytest.mark.parametrize(("n_players", "closed"), [(2, True), (3, True), (4, False)])
def test_r_t6_the_twin_of_a_claimed_double_route_shows_closed_with_two_or_three_players(
    n_players: int, closed: bool
) -> None:
    state = started(n_players=n_players)
    state = state.model_copy(update={"hands": (hand(red=2), *state.hands[1:])})
    red, yellow = (track_id("usa", "new_york", "boston", c) for c in ("red", "yellow"))
    assert _public(state).closed == []
    state, _ = act(state, 0, f"claim:{red}:red:0")
    assert _public(state).closed == ([yellow] if closed else [])
    assert state.owners[track_index("usa", "new_york", "boston", "yellow")] == -1


def test_r_t6_open_doubles_variant_closes_nothing() -> None:
    state = started(n_players=2, open_doubles=True)
    state = state.model_copy(update={"hands": (hand(red=2), *state.hands[1:])})
    state, _ = act(state, 0, f"claim:{track_id('usa', 'new_york', 'boston', 'red')}:red:0")
    assert _public(state).closed == []
