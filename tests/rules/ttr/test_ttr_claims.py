"""Claiming routes, doubles, ferries, tunnels, stations and tickets (R-T5…7, R-EU-3…7, R-P1)."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction, Message
from rules.ttr.board import LOCO, board_for
from rules.ttr.cards import is_affordable, payments
from rules.ttr.state import Phase, TtrState

from .ttr_support import ENGINE, act, hand, keys, started, track_id, track_index

NY_BOSTON_RED = track_id("usa", "new_york", "boston", "red")
NY_BOSTON_YELLOW = track_id("usa", "new_york", "boston", "yellow")
RALEIGH_CHARLESTON = track_id("usa", "raleigh", "charleston")  # gray, 2


def _with_hand(state: TtrState, seat: int, cards: tuple[int, ...]) -> TtrState:
    hands = list(state.hands)
    hands[seat] = cards
    return state.model_copy(update={"hands": tuple(hands)})


def _claims(state: TtrState, seat: int, track: int) -> list[str]:
    prefix = f"claim:{track}:"
    return sorted(a.encode() for a in ENGINE.legal_actions(state, seat) if a.encode().startswith(prefix))


def test_r_t5_coloured_route_needs_its_colour_locomotives_wild() -> None:
    state = _with_hand(started(), 0, hand(red=1, blue=2, locomotive=2))
    assert _claims(state, 0, NY_BOSTON_RED) == [f"claim:{NY_BOSTON_RED}:locomotive:2", f"claim:{NY_BOSTON_RED}:red:1"]
    with pytest.raises(IllegalAction) as err:
        act(state, 0, f"claim:{NY_BOSTON_RED}:blue:0")
    assert err.value.reason.value == "ttr.reason.cannot_pay"
    after, events = act(state, 0, f"claim:{NY_BOSTON_RED}:red:1")
    assert after.hands[0] == hand(blue=2, locomotive=1)
    assert after.owners[track_index("usa", "new_york", "boston", "red")] == 0
    assert after.cars[0] == 43 and after.route_points[0] == 2
    assert sorted(after.discard[-2:]) == [6, LOCO]
    assert "ttr.event.claimed" in keys(events) and after.last_claim >= 0


def test_r_t5_gray_route_player_chooses_the_colour() -> None:
    state = _with_hand(started(), 0, hand(red=2, blue=1, green=3, locomotive=1))
    claims = _claims(state, 0, RALEIGH_CHARLESTON)
    expected = {"blue:1", "green:0", "green:1", "red:0", "red:1"}
    assert {c.split(":", 2)[2] for c in claims} == expected
    after, _ = act(state, 0, f"claim:{RALEIGH_CHARLESTON}:green:1")
    assert after.hands[0] == hand(red=2, blue=1, green=2)


def test_r_t5_needs_enough_cars_and_one_route_per_turn() -> None:
    state = _with_hand(started(), 0, hand(red=6)).model_copy(update={"cars": (1, 45, 45, 45)})
    with pytest.raises(IllegalAction) as err:
        act(state, 0, f"claim:{NY_BOSTON_RED}:red:0")
    assert err.value.reason.value == "ttr.reason.not_enough_cars"
    state = state.model_copy(update={"cars": (45,) * 4})
    after, _ = act(state, 0, f"claim:{NY_BOSTON_RED}:red:0")
    assert after.current == 1


def test_r_t5_payment_enumeration_matches_brute_force() -> None:
    rnd = random.Random(5)
    for _ in range(3000):
        cards = tuple(rnd.randrange(0, 5) for _ in range(9))
        color = rnd.randrange(-1, 8)
        length = rnd.randrange(1, 9)
        ferry = min(rnd.randrange(0, 3), length) if color < 0 else 0
        listed = payments(color, length, ferry, cards)
        brute = {(c, j) for c in range(9) for j in range(9) if is_affordable(color, length, ferry, cards, c, j)}
        assert set(listed) == brute and len(listed) == len(brute)
        for c, j in listed:
            used_colour = 0 if c == LOCO else length - j
            assert j >= ferry and cards[LOCO] >= j and (c == LOCO or cards[c] >= used_colour)


def test_r_t6_same_player_never_both_tracks() -> None:
    state = _with_hand(started(), 0, hand(red=2, yellow=2))
    state, _ = act(state, 0, f"claim:{NY_BOSTON_RED}:red:0")
    state = state.model_copy(update={"current": 0, "hands": (hand(yellow=2), *state.hands[1:])})
    assert _claims(state, 0, NY_BOSTON_YELLOW) == []
    with pytest.raises(IllegalAction) as err:
        act(state, 0, f"claim:{NY_BOSTON_YELLOW}:yellow:0")
    assert err.value.reason.value == "ttr.reason.double_own"
    other = state.model_copy(update={"current": 1, "hands": (state.hands[0], hand(yellow=2), *state.hands[2:])})
    after, _ = act(other, 1, f"claim:{NY_BOSTON_YELLOW}:yellow:0")
    assert after.owners[track_index("usa", "new_york", "boston", "yellow")] == 1


@pytest.mark.parametrize("n_players", [2, 3])
def test_r_t6_two_or_three_players_second_track_closed(n_players: int) -> None:
    state = _with_hand(started(n_players=n_players), 0, hand(red=2))
    state, _ = act(state, 0, f"claim:{NY_BOSTON_RED}:red:0")
    state = _with_hand(state, 1, hand(yellow=2))
    assert _claims(state, 1, NY_BOSTON_YELLOW) == []
    with pytest.raises(IllegalAction) as err:
        act(state, 1, f"claim:{NY_BOSTON_YELLOW}:yellow:0")
    assert err.value.reason.value == "ttr.reason.double_closed"


def test_r_t6_open_doubles_variant() -> None:
    state = _with_hand(started(n_players=2, open_doubles=True), 0, hand(red=2))
    state, _ = act(state, 0, f"claim:{NY_BOSTON_RED}:red:0")
    state = _with_hand(state, 1, hand(yellow=2))
    assert _claims(state, 1, NY_BOSTON_YELLOW) == [f"claim:{NY_BOSTON_YELLOW}:yellow:0"]


def test_r_p1_c3_route_points_by_length() -> None:
    board = board_for("europe")
    expected = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}
    for length, points in expected.items():
        plain = (i for i, n in enumerate(board.track_len) if n == length and not board.track_tunnel[i])
        track = next((i for i in plain if not board.track_ferry[i]), None)
        if track is None:  # Europe has no 5; its 6s and its 8 are tunnels or a ferry: checked below
            assert length in (5, 6, 8)
            continue
        state = _with_hand(started("europe"), 0, hand(locomotive=length))
        after, _ = act(state, 0, f"claim:{board.track_ids[track]}:locomotive:{length}")
        assert after.route_points[0] == points
    assert board.track_points[track_index("europe", "stockholm", "petrograd")] == 21
    assert board.track_points[track_index("europe", "palermo", "smyrna")] == 15
    usa = board_for("usa")
    assert {usa.track_len[i]: p for i, p in enumerate(usa.track_points)} == {k: expected[k] for k in range(1, 7)}


def test_r_eu_5_ferry_needs_its_locomotives() -> None:
    london_amsterdam = track_id("europe", "london", "amsterdam")  # ferry, 2 locomotives, length 2
    state = _with_hand(started("europe"), 0, hand(red=2, locomotive=1))
    assert _claims(state, 0, london_amsterdam) == []
    dieppe_london = track_id("europe", "dieppe", "london")  # ferry, 1 locomotive, length 2
    assert _claims(state, 0, dieppe_london) == [f"claim:{dieppe_london}:red:1"]
    with pytest.raises(IllegalAction):
        act(state, 0, f"claim:{dieppe_london}:red:0")


TUNNEL = track_id("europe", "madrid", "pamplona", "black")  # tunnel, black, 3


def _tunnel_state(cards: tuple[int, ...], deck: tuple[int, ...]) -> TtrState:
    return _with_hand(started("europe"), 0, cards).model_copy(update={"deck": deck, "discard": ()})


def test_r_eu_6_tunnel_reveals_three_and_waits_for_payment() -> None:
    state = _tunnel_state(hand(black=5, locomotive=1), (2, 2, 5, LOCO, 3))
    state, events = act(state, 0, f"claim:{TUNNEL}:black:0")
    reveal = next(e for e in events if e.key == "ttr.event.tunnel_revealed")
    assert reveal.to is None and reveal.params["extra"] == 2  # black and a locomotive match
    assert state.phase is Phase.TUNNEL and ENGINE.to_act(state) == {0}
    assert sorted(a.encode() for a in ENGINE.legal_actions(state, 0)) == ["pay:0", "pay:1", "withdraw"]
    paid, _ = act(state, 0, "pay:1")
    assert paid.hands[0] == hand(black=1) and paid.owners[track_index("europe", "madrid", "pamplona", "black")] == 0
    assert sorted(paid.discard) == sorted([5] * 4 + [LOCO] + [3, LOCO, 5])


def test_r_eu_6_withdraw_returns_cards_and_discards_the_revealed() -> None:
    state = _tunnel_state(hand(black=4), (2, 5, 1, 1))  # the deck's top is its end: 1, 1, 5 are revealed
    state, _ = act(state, 0, f"claim:{TUNNEL}:black:0")
    assert state.tunnel is not None and state.tunnel.extra == 1
    after, events = act(state, 0, "withdraw")
    assert after.hands[0] == hand(black=4) and after.current == 1 and after.owners.count(0) == 0
    assert sorted(after.discard) == [1, 1, 5] and "ttr.event.tunnel_withdrawn" in keys(events)


def test_r_eu_6_only_locomotives_laid_only_revealed_locomotives_count() -> None:
    state = _tunnel_state(hand(locomotive=5), (2, 5, LOCO, 5))
    state, _ = act(state, 0, f"claim:{TUNNEL}:locomotive:3")
    assert state.tunnel is not None and state.tunnel.extra == 1
    assert [a.encode() for a in ENGINE.legal_actions(state, 0)] == ["pay:1", "withdraw"]


def test_r_eu_6_cannot_pay_fails_at_once() -> None:
    state = _tunnel_state(hand(black=3), (2, 5, 5, LOCO))
    after, events = act(state, 0, f"claim:{TUNNEL}:black:0")
    assert "ttr.event.tunnel_failed" in keys(events)
    assert after.current == 1 and after.hands[0] == hand(black=3) and after.owners.count(0) == 0


def test_r_eu_6_no_match_builds_at_once() -> None:
    state = _tunnel_state(hand(black=3), (2, 1, 1, 1))
    after, events = act(state, 0, f"claim:{TUNNEL}:black:0")
    assert after.current == 1 and after.owners.count(0) == 1 and after.discard.count(1) == 3
    reveal = next(e for e in events if e.key == "ttr.event.tunnel_no_extra")  # not "0 more cards needed"
    assert "extra" not in reveal.params and len(reveal.params["cards"]) == 3  # type: ignore[arg-type]
    assert "ttr.event.tunnel_revealed" not in keys(events)


def test_r_eu_6_fewer_than_three_cards_reveal_what_there_is_and_none_builds_free() -> None:
    state = _tunnel_state(hand(black=3), (5,)).model_copy(update={"discard": (1,)})
    after, events = act(state, 0, f"claim:{TUNNEL}:black:0")
    reveal = next(e for e in events if e.key == "ttr.event.tunnel_revealed")
    assert len(reveal.params["cards"]) == 2  # type: ignore[arg-type]
    assert after.tunnel is None
    free = _tunnel_state(hand(black=3), ()).model_copy(update={"market": ()})
    after, events = act(free, 0, f"claim:{TUNNEL}:black:0")
    assert "ttr.event.tunnel_free" in keys(events) and after.owners.count(0) == 1


def test_r_eu_7_gray_tunnel_counts_as_the_colour_chosen() -> None:
    gray_tunnel = track_id("europe", "paris", "zurich")  # gray tunnel, 3
    state = _tunnel_state(hand(red=4, blue=3, locomotive=3), (2, 6, 2, 2))
    after, _ = act(state, 0, f"claim:{gray_tunnel}:blue:0")
    assert after.tunnel is not None and after.tunnel.extra == 2
    after, _ = act(state, 0, f"claim:{gray_tunnel}:red:0")
    assert after.tunnel is not None and after.tunnel.extra == 1


def test_r_eu_4_stations_cost_one_two_three_one_per_city() -> None:
    state = _with_hand(started("europe"), 0, hand(red=6, locomotive=1))
    legal = [a.encode() for a in ENGINE.legal_actions(state, 0) if a.encode().startswith("station:wien:")]
    assert sorted(legal) == ["station:wien:locomotive:1", "station:wien:red:0"]
    state, events = act(state, 0, "station:wien:red:0")
    assert state.stations_left[0] == 2 and state.hands[0] == hand(red=5, locomotive=1)
    assert "ttr.event.built_station" in keys(events)
    state = state.model_copy(update={"current": 0})
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "station:wien:red:0")
    assert err.value.reason.value == "ttr.reason.city_taken"
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "station:berlin:blue:1")  # the second costs 2 cards of one colour: no blue in hand
    assert err.value.reason.value == "ttr.reason.cannot_pay"
    assert {"station:berlin:red:0", "station:berlin:red:1"} <= {a.encode() for a in ENGINE.legal_actions(state, 0)}
    state, _ = act(state, 0, "station:berlin:red:0")
    assert state.hands[0] == hand(red=3, locomotive=1)
    state = state.model_copy(update={"current": 0})
    state, _ = act(state, 0, "station:roma:red:1")
    assert state.hands[0] == hand(red=1) and state.stations_left[0] == 0
    state = state.model_copy(update={"current": 0})
    assert not any(a.encode().startswith("station:") for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "station:madrid:red:0")
    assert err.value.reason.value == "ttr.reason.no_stations_left"


def test_usa_has_no_stations_and_says_the_map_has_none() -> None:
    state = _with_hand(started(), 0, hand(red=3))
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "station:denver:red:0")
    assert err.value.reason.value == "ttr.reason.no_stations_on_map", "not “You have no stations left”"
    assert err.value.params == {"map": Message(key="ttr.map.usa")}


def test_r_t7_draw_three_keep_at_least_one_returned_to_bottom() -> None:
    state = started()
    deck = state.ticket_deck
    state, events = act(state, 0, "tickets")
    assert state.offers[0] == deck[:3] and state.phase is Phase.TICKETS
    public = next(e for e in events if e.key == "ttr.event.drew_tickets")
    assert public.to is None and public.params == {"seat": 0, "count": 3}
    assert next(e for e in events if e.key == "ttr.event.tickets_offered").to == 0
    assert len(ENGINE.legal_actions(state, 0)) == 7
    kept = sorted(deck[:3])[:1]
    after, _ = act(state, 0, f"keep:{kept[0]}")
    assert after.ticket_deck == deck[3:] + tuple(t for t in deck[:3] if t != kept[0])
    assert after.tickets[0][-1] == kept[0] and after.current == 1


def test_r_t7_fewer_than_three_left_and_none_left() -> None:
    state = started().model_copy(update={"ticket_deck": (5, 9)})
    state, _ = act(state, 0, "tickets")
    assert state.offers[0] == (5, 9)
    state, _ = act(state, 0, "keep:5,9")
    state = state.model_copy(update={"current": 0})
    assert "tickets" not in [a.encode() for a in ENGINE.legal_actions(state, 0)]
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "tickets")
    assert err.value.reason.value == "ttr.reason.no_tickets_left"


def test_r_t7_keep_must_name_offered_tickets() -> None:
    state, _ = act(started(), 0, "tickets")
    missing = next(t for t in range(1, 31) if t not in state.offers[0])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, f"keep:{missing}")
    assert err.value.reason.value == "ttr.reason.not_offered"


def test_r_eu_3_returned_tickets_removed_variant() -> None:
    state = started("europe", returned_tickets="removed")
    deck = state.ticket_deck
    state, _ = act(state, 0, "tickets")
    after, _ = act(state, 0, f"keep:{min(deck[:3])}")
    assert after.ticket_deck == deck[3:]
    default = started("europe")
    state, _ = act(default, 0, "tickets")
    after, _ = act(state, 0, f"keep:{min(default.ticket_deck[:3])}")
    assert len(after.ticket_deck) == len(default.ticket_deck) - 1
