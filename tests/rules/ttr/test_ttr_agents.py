"""The playstyle agents' documented behaviour, each in a scenario state (docs/playstyle-agents.md)."""

from __future__ import annotations

import random

import pytest

from rules.ttr.actions import Claim, DrawCard, DrawTickets, KeepTickets, TtrAction
from rules.ttr.board import CARD_CODES, board_for
from rules.ttr.bots.agents import AGENTS
from rules.ttr.bots.plan import cheapest_path, target_tracks
from rules.ttr.moves import move_set
from rules.ttr.state import Phase, TtrState

from .ttr_support import hand, started, stocked, track_index

EVERY_COLOR = hand(purple=6, white=6, blue=6, yellow=6, orange=6, black=6, red=6, green=6, locomotive=2)
"""A hand that pays for any track of the USA map."""


def _ticket(map_id: str, a: str, b: str) -> int:
    """The id of the ticket between these two cities."""
    board = board_for(map_id)
    return next(t for t, (x, y, _) in board.tickets.items() if {board.city_ids[x], board.city_ids[y]} == {a, b})


def _move(kind: str, state: TtrState, seat: int = 0) -> TtrAction:
    """What the agent of this kind plays in `seat`."""
    return AGENTS[kind](state, seat, move_set(state, seat), board_for(state.map_id), random.Random(1))


def _owning(state: TtrState, seat: int, tracks: list[int]) -> TtrState:
    """`state` with these tracks claimed by `seat`."""
    owners = list(state.owners)
    for track in tracks:
        owners[track] = seat
    return state.model_copy(update={"owners": tuple(owners)})


def _with_tickets(state: TtrState, tickets: tuple[int, ...], **update: object) -> TtrState:
    """`state` with seat 0 holding these tickets (and any other fields given)."""
    return state.model_copy(update={"tickets": (tickets, *state.tickets[1:]), **update})


def _built(state: TtrState, ticket: int) -> TtrState:
    """`state` with seat 0 holding this ticket, already connected by its own routes."""
    board = board_for(state.map_id)
    a, b, _ = board.tickets[ticket]
    _, path = cheapest_path(state, 0, board, a, b)
    assert path is not None
    return _with_tickets(_owning(state, 0, path), (ticket,), cars=(45 - sum(board.track_len[t] for t in path), 45))


def test_route_focus_draws_tickets_once_its_own_are_done() -> None:
    state = _built(started("usa", 2, 1), _ticket("usa", "denver", "el_paso"))
    assert _move("route_focus", state) == DrawTickets()
    few_cars = state.model_copy(update={"cars": (10, 45)})
    assert not isinstance(_move("route_focus", few_cars), DrawTickets)


@pytest.mark.parametrize("kind", sorted(AGENTS))
@pytest.mark.parametrize("needed_face_up", [True, False])
def test_r_t2_no_agent_spends_a_first_pick_on_a_face_up_locomotive_without_a_ferry_to_pay(
    kind: str, needed_face_up: bool
) -> None:
    """A face-up locomotive ends the turn (R-T2): with a coloured card it needs face up, or only the deck beside
    it, an agent with tickets to build and an empty hand draws those instead."""
    codes = CARD_CODES
    colors = ("red", "blue", "green", "yellow") if needed_face_up else ("purple", "purple", "white", "white")
    market = (codes["locomotive"], *(codes[c] for c in colors))
    deck = (codes["orange"],) * 10
    state = stocked(started("usa", 2, 1), market, deck)
    action = _move(kind, state)
    assert isinstance(action, DrawCard)
    assert action.source != "locomotive"


def test_r_eu_5_an_agent_takes_a_face_up_locomotive_for_a_ferry_it_cannot_pay() -> None:
    """A ferry needs its locomotives (R-EU-5) and no other card stands in for one: with the ferry's colour in hand
    and the rest of the ticket built, the face-up locomotive is worth the whole turn."""
    board = board_for("europe")
    state = started("europe", 2, 1)
    ferry = next(t for t in range(board.n_tracks) if board.track_ferry[t] == 1 and board.track_len[t] == 2)
    ticket = next(t for t in board.tickets if ferry in target_tracks(_with_tickets(state, (t,)), 0, board))
    state = _with_tickets(state, (ticket,))
    state = _owning(state, 0, [t for t in target_tracks(state, 0, board) if t != ferry])
    codes = CARD_CODES
    market = (codes["locomotive"], codes["white"], codes["white"], codes["blue"], codes["blue"])
    state = stocked(state, market, (codes["orange"],) * 10, hand0=hand(red=3))
    for kind in ("route_focus", "one_step_thinker", "ticket_planner", "blocker"):
        assert _move(kind, state) == DrawCard(source="locomotive"), kind


def test_long_route_claims_a_long_track_on_its_path_before_a_longer_one_elsewhere() -> None:
    board = board_for("usa")
    state = _with_tickets(started("usa", 2, 1), (_ticket("usa", "dallas", "new_york"),))
    state = state.model_copy(update={"hands": (EVERY_COLOR, state.hands[1])})
    action = _move("long_route", state)
    assert isinstance(action, Claim)
    track = board.track_index[action.track]
    assert board.track_len[track] == 5
    assert track in target_tracks(state, 0, board)
    done = _built(state, _ticket("usa", "dallas", "new_york")).model_copy(update={"cars": (30, 45)})
    done = done.model_copy(update={"hands": (EVERY_COLOR, state.hands[1])})
    elsewhere = _move("long_route", done)
    assert isinstance(elsewhere, Claim)
    assert board.track_len[board.track_index[elsewhere.track]] == 6


def test_destination_hungry_takes_tickets_early_and_declines_them_late() -> None:
    state = _built(started("usa", 2, 1), _ticket("usa", "denver", "el_paso"))
    assert _move("destination_hungry", state) == DrawTickets()
    rival_near_the_end = state.model_copy(update={"cars": (state.cars[0], 8)})
    assert not isinstance(_move("destination_hungry", rival_near_the_end), DrawTickets)
    few_cars = state.model_copy(update={"cars": (16, 45)})
    assert not isinstance(_move("destination_hungry", few_cars), DrawTickets)
    unbuilt = _with_tickets(state, (_ticket("usa", "seattle", "new_york"), _ticket("usa", "los_angeles", "miami")))
    assert not isinstance(_move("destination_hungry", unbuilt), DrawTickets)


def test_the_blocker_cuts_the_one_short_track_left_on_a_rival_s_obvious_path() -> None:
    """The rival owns Helena – Salt Lake City – Las Vegas: Helena – Los Angeles is its likely ticket, and taking
    Las Vegas – Los Angeles (2 cars) sends it round by far more."""
    board = board_for("usa")
    gap = track_index("usa", "las_vegas", "los_angeles")
    state = stocked(started("usa", 2, 1), (CARD_CODES["purple"],) * 5, (CARD_CODES["orange"],) * 10)
    state = state.model_copy(update={"hands": (hand(red=2), state.hands[1])})
    assert _move("blocker", state) != Claim(track=board.track_ids[gap], color="red", locomotives=0)
    rival = [track_index("usa", "helena", "salt_lake_city"), track_index("usa", "salt_lake_city", "las_vegas")]
    cut = _move("blocker", _owning(state, 1, rival))
    assert cut == Claim(track=board.track_ids[gap], color="red", locomotives=0)


def test_the_ticket_planner_keeps_a_ticket_that_shares_its_network() -> None:
    """Holding Seattle – New York, Vancouver – Montreal runs beside it for a few cars more; Los Angeles – Miami and
    San Francisco – Atlanta would add a whole second network."""
    state = started("usa", 2, 1)
    shared = _ticket("usa", "vancouver", "montreal")
    far = (_ticket("usa", "los_angeles", "miami"), _ticket("usa", "san_francisco", "atlanta"))
    state = state.model_copy(
        update={
            "phase": Phase.TICKETS,
            "tickets": ((_ticket("usa", "seattle", "new_york"),), *state.tickets[1:]),
            "offers": (tuple(sorted((shared, *far))), *state.offers[1:]),
        }
    )
    assert _move("ticket_planner", state) == KeepTickets(tickets=(shared,))
