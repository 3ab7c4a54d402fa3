"""What players see (R-V1, R-V2, R-V3): the public view, a seat's view, and what stays hidden."""

from __future__ import annotations

import json
import pickle

import pytest

from rules.ttr.actions import BuildStation, Claim
from rules.ttr.board import LOCO, board_for
from rules.ttr.options import TtrOptions
from rules.ttr.view import PublicView, SeatView

from .ttr_support import ENGINE, act, hand, playout, started, track_id


def test_r_v1_public_view_shows_the_board_and_counts() -> None:
    state = started()
    state = state.model_copy(update={"hands": (hand(red=2, blue=1), *state.hands[1:])})
    ny_boston = track_id("usa", "new_york", "boston", "red")
    state, _ = act(state, 0, f"claim:{ny_boston}:red:0")
    view = ENGINE.view(state, None)
    assert isinstance(view, PublicView) and not isinstance(view, SeatView)
    assert view.owners == {ny_boston: 0} and view.last_claim == ny_boston
    assert view.players[0].route_points == 2 and view.players[0].cars == 43 and view.players[0].hand_size == 1
    assert view.players[0].ticket_count == len(state.tickets[0]) and view.players[1].color == 1
    assert view.deck_size == len(state.deck) and view.discard_size == len(state.discard) == 2
    assert view.current == 1 and view.pick == "first" and view.phase == "turn" and not view.last_round
    after, _ = act(state, 1, "draw:deck")
    assert ENGINE.view(after, None).pick == "second" and ENGINE.view(after, None).last_claim == ny_boston


def test_r_v1_opening_tunnel_and_ticket_choice_are_public_only_as_counts() -> None:
    state = ENGINE.new_game(TtrOptions(map="europe"), 3, 4)
    state, _ = act(state, 1, "keep:" + ",".join(map(str, sorted(state.offers[1]))))
    view = ENGINE.view(state, None)
    assert [p.chosen for p in view.players] == [False, True, False] and view.to_act == [0, 2]
    state = started("europe")
    tunnel = track_id("europe", "madrid", "pamplona", "black")
    state = state.model_copy(update={"hands": (hand(black=6), *state.hands[1:]), "deck": (1, 1, 5, LOCO, 5)})
    state, _ = act(state, 0, f"claim:{tunnel}:black:0")
    pending = ENGINE.view(state, None).tunnel
    assert pending is not None and pending.track == tunnel and pending.extra == 3
    assert pending.revealed == ["black", "locomotive", "black"] and pending.color == "black"
    state = started()
    state, _ = act(state, 0, "tickets")
    assert ENGINE.view(state, None).tickets_offered == 3


def test_r_v2_seat_view_adds_only_its_own_hand_tickets_offer_and_moves() -> None:
    state = started()
    state, _ = act(state, 0, "tickets")
    view = ENGINE.view(state, 0)
    assert isinstance(view, SeatView) and view.seat == 0
    assert view.hand == {name: n for name, n in zip(view.hand, state.hands[0], strict=True)}
    assert [t.id for t in view.tickets] == list(state.tickets[0])
    assert [t.id for t in view.offered] == list(state.offers[0])
    assert [c.action for c in view.legal] == ENGINE.legal_actions(state, 0)
    assert all(c.label.key.startswith("ttr.action.") for c in view.legal)
    other = ENGINE.view(state, 2)
    assert isinstance(other, SeatView) and other.offered == [] and other.legal == []
    public = ENGINE.view(state, None).model_dump()
    assert other.model_dump(exclude={"seat", "hand", "tickets", "offered", "legal"}) == public


def test_r_v3_nothing_hidden_in_public_views_until_the_end() -> None:
    secret_tickets: set[int] = set()
    last = None
    for _, _, _, after, events in playout("europe", 3, 31, ["sensible", "random"]):
        text = ENGINE.view(after, None).model_dump_json()
        data = json.loads(text)
        assert "seed" not in text and '"deck"' not in text and '"hand"' not in text
        if after.phase.value != "over":
            assert data["final"] is None
        for event in events:
            if event.to is None:
                assert event.key not in {"ttr.event.you_drew", "ttr.event.you_kept"}
                assert event.key != "ttr.event.tickets_offered"
        secret_tickets |= {t for row in after.tickets for t in row}
        last = after
    assert last is not None and secret_tickets
    final = ENGINE.view(last, None)
    assert final.final is not None and final.result is not None
    assert {t.id for p in final.final for t in p.tickets} == secret_tickets
    board = board_for("europe")
    for player in final.final:
        lengths = [board.track_len[board.track_index[t]] for t in player.longest_trail]
        assert player.longest_length == sum(lengths) and all(
            last.owners[board.track_index[t]] == player.seat for t in player.longest_trail
        )


@pytest.mark.slow
def test_seat_views_carry_the_engines_actions_in_every_phase() -> None:
    """Legal moves cross the seam as the engine's own actions (never their texts), in the engine's order, with
    their words; a view's dump keeps each move's fields and a pickled view (pictures are drawn in workers) is
    equal."""
    phases = set()
    for before, seat, _, _, _ in playout("europe", 3, 7, ["sensible", "random"]):
        view = ENGINE.view(before, seat)
        assert isinstance(view, SeatView)
        assert [c.action for c in view.legal] == ENGINE.legal_actions(before, seat)
        phases.add(view.phase)
        claims = [c for c in view.legal if isinstance(c.action, Claim | BuildStation)]
        if claims:
            dumped = view.model_dump()["legal"][view.legal.index(claims[0])]["action"]
            assert dumped == claims[0].action.model_dump() and "color" in dumped
            assert pickle.loads(pickle.dumps(view)) == view
    assert phases == {"opening", "turn", "second_pick", "tunnel", "tickets"}
