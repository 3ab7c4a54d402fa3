"""The bot levels play the whole rule book: stations (R-EU-4, R-EU-8), tunnels (R-EU-6), ferries (R-EU-5), late
tickets (R-T7, R-E1), in hand-made Europe states."""

from __future__ import annotations

import random

from rules.engine import Budget
from rules.ttr.actions import BuildStation, Claim, DrawCard, DrawTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import CARD_CODES, CARD_NAMES, LOCO, board_for
from rules.ttr.bots.heuristic import easy, normal
from rules.ttr.bots.plan import cheapest_path, joint_plan, tunnel_risk, unseen_cards
from rules.ttr.moves import move_set
from rules.ttr.scoring import final_scores
from rules.ttr.state import Phase, TtrState

from .ttr_support import ENGINE, hand, started, stocked

BOARD = board_for("europe")


def _decide(kind: str, state: TtrState, seat: int = 0) -> TtrAction:
    """What a level plays now."""
    player = normal if kind == "normal" else easy
    return player(state, seat, move_set(state, seat), BOARD, random.Random(5))


def _path(ticket: int) -> list[int]:
    """The tracks of the ticket's cheapest path on an empty board."""
    a, b, _ = BOARD.tickets[ticket]
    _, path = cheapest_path(started("europe", 2), 0, BOARD, a, b)
    assert path is not None
    return path


def _cut(cars: int = 45) -> tuple[TtrState, int, int]:
    """Seat 0 holds one ticket and owns all of its cheapest path but a middle track, which seat 1 owns; returns
    the state, the ticket and that track."""
    ticket = next(t for t in sorted(BOARD.tickets) if BOARD.tickets[t][2] > 4 and len(_path(t)) >= 3)
    path = _path(ticket)
    middle = path[len(path) // 2]
    owners = list(started("europe", 2).owners)
    for track in path:
        owners[track] = 1 if track == middle else 0
    state = stocked(started("europe", 2), market=(0, 1, 2, 3, 4), deck=(5, 6, 7) * 5, hand0=hand(red=2, blue=1))
    cars = (cars, 30)
    return state.model_copy(update={"owners": tuple(owners), "tickets": ((ticket,), ()), "cars": cars}), ticket, middle


def _cars_detour(state: TtrState, ticket: int) -> int:
    """Cars the ticket needs without a station."""
    a, b, _ = BOARD.tickets[ticket]
    return cheapest_path(state, 0, BOARD, a, b)[0]


def test_r_eu_4_normal_builds_a_station_that_saves_a_cut_ticket_worth_more_than_4() -> None:
    state, ticket, middle = _cut()
    state = state.model_copy(update={"cars": (_cars_detour(state, ticket) - 1, 30)})
    action = _decide("normal", state)
    assert isinstance(action, BuildStation)
    assert BOARD.city_index[action.city] in (BOARD.track_a[middle], BOARD.track_b[middle])
    assert action.color in ("red", "blue") and action.locomotives == 0
    after, _ = ENGINE.apply(state, 0, action)
    assert final_scores(after)[0].tickets == ((ticket, True),), "the station's borrowed route completes the ticket"


def test_r_eu_4_hard_builds_the_station_that_saves_a_cut_ticket_worth_more_than_4_too() -> None:
    """`hard` plays the station out against its other moves: drawing instead leaves the ticket lost."""
    state, ticket, middle = _cut()
    state = state.model_copy(update={"cars": (_cars_detour(state, ticket) - 1, 30)})
    action = ENGINE.bot_action(state, 0, random.Random(5), "hard", Budget(seconds=60))
    assert isinstance(action, BuildStation)
    assert BOARD.city_index[action.city] in (BOARD.track_a[middle], BOARD.track_b[middle])


def test_r_eu_8_a_station_built_counts_its_bridge_so_no_second_one_is_built_for_the_ticket() -> None:
    state, ticket, _ = _cut()
    state = state.model_copy(update={"cars": (_cars_detour(state, ticket) - 1, 30)})
    after, _ = ENGINE.apply(state, 0, _decide("normal", state))
    after = after.model_copy(
        update={"current": 0, "phase": Phase.TURN, "hands": (hand(red=5, blue=5), *after.hands[1:])}
    )
    assert joint_plan(after, 0, BOARD) == []
    assert not isinstance(_decide("normal", after), BuildStation)


def test_r_eu_8_no_station_is_built_that_saves_nothing() -> None:
    state, ticket, _ = _cut()
    assert _cars_detour(state, ticket) <= 30, "a detour the cars can pay for"
    assert not isinstance(_decide("normal", state), BuildStation)
    done = state.model_copy(update={"tickets": ((), ())})
    assert not isinstance(_decide("normal", done), BuildStation)


def test_r_eu_4_in_the_last_round_normal_builds_the_station_that_completes_a_ticket_now() -> None:
    state, _, middle = _cut()
    assert not isinstance(_decide("normal", state), BuildStation)
    last = state.model_copy(update={"final_turns": 1})
    action = _decide("normal", last)
    assert isinstance(action, BuildStation)
    assert BOARD.city_index[action.city] in (BOARD.track_a[middle], BOARD.track_b[middle])


def test_r_eu_4_easy_builds_a_station_only_for_its_cut_ticket() -> None:
    state, ticket, middle = _cut()
    assert not isinstance(_decide("easy", state), BuildStation)
    cut = state.model_copy(update={"cars": (_cars_detour(state, ticket) - 1, 30)})
    action = _decide("easy", cut)
    assert isinstance(action, BuildStation)
    assert BOARD.city_index[action.city] in (BOARD.track_a[middle], BOARD.track_b[middle])


def _tunnel_ahead(discard: tuple[int, ...], extra: dict[str, int] | None = None) -> tuple[TtrState, int]:
    """Seat 0's ticket lacks only a coloured tunnel, paid exactly by its hand; `discard` is what it has seen."""
    ticket, tunnel = next(
        (t, track)
        for t in sorted(BOARD.tickets)
        for track in _path(t)
        if BOARD.track_tunnel[track] and BOARD.track_color[track] >= 0 and BOARD.track_ferry[track] == 0
    )
    color = BOARD.track_color[tunnel]
    owners = list(started("europe", 2).owners)
    for track in _path(ticket):
        if track != tunnel:
            owners[track] = 0
    cards = {CARD_NAMES[color]: BOARD.track_len[tunnel], **(extra or {})}
    market = tuple(c for c in range(LOCO) if c != color)[:5]
    state = stocked(started("europe", 2), market=market, deck=(), discard=discard, hand0=hand(**cards))
    state = state.model_copy(update={"owners": tuple(owners), "tickets": ((ticket,), ())})
    assert joint_plan(state, 0, BOARD) == [tunnel]
    return state, tunnel


def test_r_eu_6_normal_tries_a_tunnel_without_a_spare_card_only_when_the_cards_seen_make_the_reveal_safe() -> None:
    state, tunnel = _tunnel_ahead(discard=())
    color = BOARD.track_color[tunnel]
    pay = (color, 0)
    assert tunnel_risk(BOARD, tunnel, pay, state.hands[0], unseen_cards(state, 0)) > 0.25
    assert isinstance(_decide("normal", state), DrawCard)
    have = state.hands[0][color]
    seen = (color,) * (12 - have - 1) + (LOCO,) * 13
    safe, _ = _tunnel_ahead(discard=seen)
    assert tunnel_risk(BOARD, tunnel, pay, safe.hands[0], unseen_cards(safe, 0)) < 0.25
    action = _decide("normal", safe)
    assert isinstance(action, Claim) and BOARD.track_index[action.track] == tunnel
    last = state.model_copy(update={"final_turns": 1})
    assert isinstance(_decide("normal", last), Claim), "in the last round the tunnel is worth the try"


def _pending(on_plan: bool) -> TtrState:
    """Seat 0 tried the tunnel with a locomotive to spare and the reveal asks one more card."""
    state, tunnel = _tunnel_ahead(discard=(), extra={"locomotive": 1})
    color = BOARD.track_color[tunnel]
    deck = (CARD_CODES["white"] if color != CARD_CODES["white"] else 0,) * 2 + (color,)
    state = stocked(state, market=state.market, deck=deck, hand0=state.hands[0])
    if not on_plan:
        state = state.model_copy(update={"tickets": ((), ())})
    claim = Claim(track=BOARD.track_ids[tunnel], color=CARD_NAMES[color], locomotives=0)
    after, _ = ENGINE.apply(state, 0, claim)
    assert after.phase is Phase.TUNNEL and after.tunnel is not None and after.tunnel.extra == 1
    return after


def test_r_eu_6_normal_pays_a_revealed_tunnel_on_its_plan_and_withdraws_from_one_off_it() -> None:
    assert _decide("normal", _pending(on_plan=True)) == PayTunnel(locomotives=1)
    assert isinstance(_decide("normal", _pending(on_plan=False)), Withdraw)


def test_r_eu_5_normal_takes_no_face_up_locomotive_first_even_for_a_ferry_on_its_plan() -> None:
    ticket, ferry = next((t, track) for t in sorted(BOARD.tickets) for track in _path(t) if BOARD.track_ferry[track])
    owners = list(started("europe", 2).owners)
    for track in _path(ticket):
        if track != ferry:
            owners[track] = 0
    cards = hand(red=BOARD.track_len[ferry])
    state = stocked(started("europe", 2), market=(LOCO, 0, 1, 2, 3), deck=(4,) * 10, hand0=cards)
    state = state.model_copy(update={"owners": tuple(owners), "tickets": ((ticket,), ())})
    assert ferry in joint_plan(state, 0, BOARD)
    action = _decide("normal", state)
    assert action != DrawCard(source=CARD_NAMES[LOCO])


def test_r_t7_r_e1_normal_draws_late_tickets_only_while_every_player_has_cars_for_the_turns_they_need() -> None:
    state = started("europe", 2).model_copy(update={"tickets": ((), ())})
    assert _decide("normal", state.model_copy(update={"cars": (30, 30)})) == DrawTickets()
    assert _decide("normal", state.model_copy(update={"cars": (30, 8)})) != DrawTickets()
    assert _decide("normal", state.model_copy(update={"cars": (10, 30)})) != DrawTickets()
