"""Views (public, seat, revealed end) and the action encodings."""

from __future__ import annotations

import pickle

import pytest

from rules.cardgame.actions import (
    CardGameAction,
    DrawCard,
    DrawTickets,
    KeepTickets,
    PlayGroup,
    PlayThree,
    parse_action,
)
from rules.cardgame.state import Phase
from rules.engine import CommonReason, IllegalAction

from .support import ENGINE, colors, kind, kinds, playout, started, with_player


def test_public_view_holds_sizes_yards_face_up_and_plays() -> None:
    state = started(3, seed=4)
    state = with_player(state, 1, yard=colors(red=3), yard_locomotives=colors(red=1), stack=kinds(blue=2))
    view = ENGINE.view(state, None)
    assert view.seat is None and view.phase is Phase.TURN and view.to_act == [state.current]
    assert view.deck_size == len(state.deck) and len(view.face_up) == 5
    assert view.players[1].yard[0].model_dump() == {"color": "red", "cards": 3, "locomotives": 1}
    assert view.players[1].stack_size == 2 and view.players[1].hand_size == 8
    assert view.players[1].ticket_count == 1
    assert view.big_city_bonus["new_york"] == 15
    text = view.model_dump_json()
    assert '"hand":null' in text and '"tickets":null' in text


def test_seat_view_adds_hand_tickets_offered_and_legal_moves_with_robberies() -> None:
    state = started(2, seed=4)
    me, other = state.current, 1 - state.current
    state = with_player(state, me, hand=kinds(blue=3, locomotive=1))
    state = with_player(state, other, yard=colors(blue=2))
    view = ENGINE.view(state, me)
    assert view.hand == {"blue": 3, "locomotive": 1}
    assert view.tickets is not None and len(view.tickets) == 1 and view.offered == []
    assert view.stack is None
    legal = {o.action: o for o in view.legal or []}
    assert [o.action for o in view.legal or []] == ENGINE.legal_actions(state, me)
    blue = kind("blue")
    three, two = PlayGroup(color=blue, cards=3), PlayGroup(color=blue, cards=2)
    assert legal[three].robs_seat == other and legal[three].robs_cards == 2
    assert two not in legal and legal[PlayGroup(color=blue, cards=2, locomotives=1)].robs_seat == other
    assert legal[DrawCard()].robs_seat is None
    assert legal[three].description.key == "cardgame.action.play_group"


def test_seat_views_carry_the_engines_actions_in_every_phase() -> None:
    """Legal moves cross the seam as the engine's own actions (never their texts), in the engine's order; a view's
    dump keeps each move's fields and a pickled view (pictures are drawn in workers) is equal."""
    phases = set()
    for before, seat, _, _, _ in playout(3, 5, "sensible"):
        view = ENGINE.view(before, seat)
        assert [o.action for o in view.legal or []] == ENGINE.legal_actions(before, seat)
        phases.add(view.phase)
        plays = [o for o in view.legal or [] if isinstance(o.action, PlayGroup)]
        if plays:
            dumped = view.model_dump()["legal"][(view.legal or []).index(plays[0])]["action"]
            assert dumped == plays[0].action.model_dump() and "locomotives" in dumped
            assert pickle.loads(pickle.dumps(view)) == view
    assert phases == {Phase.OPENING, Phase.TURN, Phase.SECOND_PICK, Phase.TICKETS}


def test_the_end_reveals_everything_with_the_assignment_and_big_cities() -> None:
    *_, (_, _, _, final, _) = playout(2, 11, "sensible")
    assert final.phase is Phase.OVER
    view = ENGINE.view(final, None)
    assert view.final is not None
    assert [s.seat for s in view.final.scoring] == [0, 1]
    for scoring, player in zip(view.final.scoring, final.players, strict=True):
        assert sum(scoring.stack.values()) == sum(player.stack)
        assert {t.ticket.id for t in scoring.tickets} == set(player.tickets)
        used = sum(len(t.cards) for t in scoring.tickets) + sum(scoring.unused.values())
        assert used == sum(player.stack)
    assert len(view.final.big_cities) == 6
    result = ENGINE.result(final)
    assert result is not None and view.final.result == result
    assert {p.seat for p in result.players} == {0, 1}
    for line_items in result.players:
        assert line_items.total == sum(line.points for line in line_items.breakdown)
    assert ENGINE.view(final, 0).stack is not None


@pytest.mark.parametrize(
    "action",
    [
        DrawCard(),
        DrawCard(kind=8),
        DrawCard(kind=3),
        PlayGroup(color=4, cards=3, locomotives=0),
        PlayGroup(color=7, cards=10, locomotives=16),
        PlayThree(colors=(1, 2, 5)),
        DrawTickets(),
        KeepTickets(tickets=()),
        KeepTickets(tickets=(1, 12, 40, 41, 45, 46)),
    ],
)
def test_actions_encode_short_and_round_trip(action: CardGameAction) -> None:
    text = action.encode()
    assert len(text) < 40
    assert parse_action(text) == action
    assert action.describe().key.startswith("cardgame.action.")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw",
        "draw:pink",
        "play:red:2",
        "play:locomotive:2:0",
        "play:red:-1:0",
        "play3:red",
        "keep:1,1",
        "keep:x",
        "tickets:4",
        "pass",
    ],
)
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_action(text)
    assert refused.value.reason is CommonReason.MALFORMED_ACTION


def test_out_of_turn_unknown_seat_and_game_over_are_refused() -> None:
    state = started(2, seed=4)
    other = 1 - state.current
    for seat, reason in ((other, CommonReason.NOT_YOUR_TURN), (5, CommonReason.NOT_A_SEAT)):
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(state, seat, DrawCard())
        assert refused.value.reason is reason
    *_, (_, _, _, final, _) = playout(2, 12)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(final, 0, DrawCard())
    assert refused.value.reason is CommonReason.GAME_OVER
    assert ENGINE.legal_actions(final, 0) == []
