"""What the bots guess about rivals from the board alone (R-V1: from public facts only): which tickets fit a rival's
routes, which claim cuts the way it is building, and how `hard` uses both."""

from __future__ import annotations

import random
from collections import Counter

from rules.engine import Budget
from rules.ttr.actions import BuildStation, Claim
from rules.ttr.board import board_for
from rules.ttr.bots import choose
from rules.ttr.bots.coach import reason
from rules.ttr.bots.heuristic import normal
from rules.ttr.bots.plan import cheapest_path, joint_plan
from rules.ttr.bots.rivals import best_cut, likely_tickets, ticket_weights
from rules.ttr.bots.search import candidate_moves, determinize, world_count
from rules.ttr.graph import components
from rules.ttr.moves import move_set
from rules.ttr.state import TtrState

from .ttr_support import ENGINE, hand, started, track_index


def _ticket(map_id: str, a: str, b: str) -> int:
    board = board_for(map_id)
    ends = {board.city_index[a], board.city_index[b]}
    return next(t for t, (x, y, _) in board.tickets.items() if {x, y} == ends)


def _west_coast() -> TtrState:
    """Two players on the USA map: seat 1 holds Seattle – Los Angeles and has built Seattle – Portland – San
    Francisco; seat 0 works in the east (New York – Atlanta) and holds three yellow cards."""
    state = started("usa", 2, 1)
    owners = list(state.owners)
    for a, b in (("seattle", "portland"), ("portland", "san_francisco")):
        owners[track_index("usa", a, b)] = 1
    seattle_la = _ticket("usa", "seattle", "los_angeles")
    return state.model_copy(
        update={
            "owners": tuple(owners),
            "tickets": ((_ticket("usa", "new_york", "atlanta"),), (seattle_la,)),
            "hands": (hand(yellow=3), state.hands[1]),
        }
    )


def test_r_v1_a_ticket_whose_cities_a_rivals_routes_touch_is_likelier_than_one_they_do_not() -> None:
    state = _west_coast()
    touched = _ticket("usa", "seattle", "los_angeles")
    far = _ticket("usa", "boston", "miami")
    weights = ticket_weights("usa", state.owners, 1, [touched, far])
    assert weights[0] > weights[1] == 1.0
    assert ticket_weights("usa", state.owners, 0, [touched, far]) == [1.0, 1.0], "seat 0 built nothing: no guess"


def test_r_v1_the_rival_nearest_to_finishing_a_touched_ticket_is_thought_to_aim_at_it() -> None:
    state = _west_coast()
    unseen = [t for t in board_for("usa").tickets if t not in state.tickets[0]]
    aims = likely_tickets("usa", state.owners, 2, state.options, 1, unseen)
    assert aims[0] == _ticket("usa", "seattle", "los_angeles"), "three cars from done: the likeliest aim"


def test_r_v1_sampled_worlds_give_a_rival_the_tickets_its_routes_fit_more_often() -> None:
    """Seat 0 cannot see seat 1's ticket, but its routes join Seattle to San Francisco: the worlds `hard` plays out
    give seat 1 a ticket from there far more often than one ticket in the unseen pool would get by chance."""
    state = _west_coast()
    rng = random.Random(5)
    counts = Counter(determinize(state, 0, rng).tickets[1][0] for _ in range(300))
    unseen = len(board_for("usa").tickets) - 1
    fitting = sum(n for t, n in counts.items() if _touches_west(t))
    fitting_share = sum(_touches_west(t) for t in board_for("usa").tickets) / unseen
    assert fitting / 300 > 2 * fitting_share


def _touches_west(ticket: int) -> bool:
    board = board_for("usa")
    west = {board.city_index[c] for c in ("seattle", "portland", "san_francisco")}
    a, b, _ = board.tickets[ticket]
    return a in west or b in west


def test_a_claim_that_forces_a_long_detour_on_a_rival_is_found_and_the_coach_says_whose_way_it_cuts() -> None:
    """San Francisco – Los Angeles is the last route seat 1 needs; with 2 players its double closes too, and going
    round by Salt Lake City and Las Vegas costs 10 cars instead of 3."""
    state = _west_coast()
    board = board_for("usa")
    cut = track_index("usa", "san_francisco", "los_angeles", "yellow")
    elsewhere = track_index("usa", "new_york", "washington")
    aims = [_ticket("usa", "seattle", "los_angeles")]
    found = best_cut("usa", state.owners, 2, state.options, 1, aims, [elsewhere, cut])
    assert found is not None and found[0] == cut and found[1] >= 7

    moves = move_set(state, 0)
    candidates = candidate_moves(state, 0, moves, board, normal(state, 0, moves, board, random.Random(1)))
    assert any(isinstance(c, Claim) and board.track_index[c.track] == cut for c in candidates)
    said = reason(state, 0, Claim(track=board.track_ids[cut], color="yellow", locomotives=0))
    assert said.key == "ttr_hint.claim_cuts" and said.params["seat"] == 1


def test_a_smaller_budget_plays_fewer_worlds_and_a_larger_one_no_more_than_the_calibrated_budget() -> None:
    state = started("europe", 4, 2)
    counts = [world_count(state, 4, Budget(seconds)) for seconds in (0.25, 0.5, 1.0, 5.0)]
    assert counts[0] < counts[1] < counts[2] == counts[3]
    assert counts[0] >= 2


def test_r_p1_r_p2_on_its_last_turn_hard_makes_the_claim_that_ends_with_its_own_score_highest() -> None:
    """The last round has begun: Santa Fe – El Paso (2 cars) completes Denver – El Paso (4 points), 2 + 4 + 4 more
    than leaving it lost; no 3- or 4-car route, 4 or 7 points, comes near. Cards drawn now would be worth nothing."""
    board = board_for("usa")
    state = started("usa", 2, 1)
    owners = list(state.owners)
    owners[track_index("usa", "denver", "santa_fe")] = 0
    state = state.model_copy(
        update={
            "owners": tuple(owners),
            "tickets": ((_ticket("usa", "denver", "el_paso"),), state.tickets[1]),
            "hands": (hand(locomotive=4), state.hands[1]),
            "final_turns": 2,
        }
    )
    action = choose(ENGINE, state, 0, random.Random(1), "hard", Budget(0.005))
    assert isinstance(action, Claim) and board.track_index[action.track] == track_index("usa", "santa_fe", "el_paso")


def test_r_eu_8_on_its_last_turn_hard_builds_the_station_that_saves_a_ticket_worth_more_than_its_4_points() -> None:
    """Seat 0 built half of a two-route ticket and seat 1 took the other half: a station at the city between them
    borrows seat 1's route (R-EU-8), winning the ticket's points twice over for the 4 an unused station gives."""
    board = board_for("europe")
    state = started("europe", 2, 1)
    ticket, first, second = _two_route_ticket()
    owners = list(state.owners)
    owners[first], owners[second] = 0, 1
    state = state.model_copy(
        update={
            "owners": tuple(owners),
            "tickets": ((ticket,), state.tickets[1]),
            "hands": (hand(red=1), state.hands[1]),
            "final_turns": 2,
        }
    )
    action = choose(ENGINE, state, 0, random.Random(1), "hard", Budget(0.005))
    ends = {board.track_a[second], board.track_b[second]}
    assert isinstance(action, BuildStation) and board.city_index[action.city] in ends
    said = reason(state, 0, action)
    assert said.key == "ttr_hint.station_saves" and said.params["ticket"] == board.ticket_message(ticket)


def _two_route_ticket() -> tuple[int, int, int]:
    """A Europe ticket worth more than 4 whose cheapest way is two routes: (ticket, the route from its first city,
    the other)."""
    board = board_for("europe")
    state = started("europe", 2, 1)
    for ticket, (a, b, points) in board.tickets.items():
        _, path = cheapest_path(state, 0, board, a, b)
        if points > 4 and path is not None and len(path) == 2 and not any(board.track_tunnel[t] for t in path):
            first, second = sorted(path, key=lambda t: a not in (board.track_a[t], board.track_b[t]))
            return ticket, first, second
    raise AssertionError("no such ticket")


def test_r_t6_a_plan_cut_by_a_rival_is_planned_again_around_the_cut() -> None:
    """Seat 0 plans Seattle – Los Angeles down the coast; once seat 1 takes San Francisco – Los Angeles (with 2
    players its double closes too), the plan goes round by another city and still joins the ticket's cities."""
    board = board_for("usa")
    state = _west_coast()
    ticket = _ticket("usa", "seattle", "los_angeles")
    state = state.model_copy(update={"owners": (-1,) * board.n_tracks, "tickets": ((ticket,), state.tickets[1])})
    cut = track_index("usa", "san_francisco", "los_angeles", "yellow")
    plan = joint_plan(state, 0, board)
    on_coast = {cut, board.track_partner[cut]} & set(plan)
    assert on_coast, "the cheapest way runs down the coast"
    owners = list(state.owners)
    owners[on_coast.pop()] = 1
    cut_state = state.model_copy(update={"owners": tuple(owners)})
    again = joint_plan(cut_state, 0, board)
    assert not {cut, board.track_partner[cut]} & set(again)
    pairs = [(board.track_a[t], board.track_b[t]) for t in again]
    labels = components(len(board.city_ids), pairs)
    assert labels[board.city_index["seattle"]] == labels[board.city_index["los_angeles"]]
