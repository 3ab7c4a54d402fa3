"""Seeded random playouts of whole games, checking invariants after every step (R-C1, R-V1…3, R-P1, replay).

The quick suite plays 2-, 3-, 4- and 5-player games on both maps with random and sensible players mixed;
`TTR_PLAYOUTS=<games per case>` raises the count (thousands in total for a long run).
"""

from __future__ import annotations

import json
import os

import pytest

from rules.engine import Event
from rules.ttr.board import board_for
from rules.ttr.cards import MARKET_SIZE, TOTAL_CARDS, market_needs_reset
from rules.ttr.scoring import final_scores
from rules.ttr.state import Phase, TtrState
from rules.ttr.view import PublicView, SeatView

from .ttr_support import ENGINE, playout, total_cards

GAMES = int(os.environ.get("TTR_PLAYOUTS", "24"))
CASES = [(m, n) for m in ("usa", "europe") for n in (2, 3, 4, 5)]
MIXES = [["random"], ["sensible", "random"], ["sensible"]]


def _check_step(before: TtrState, after: TtrState, events: list[Event]) -> None:
    board = board_for(after.map_id)
    rules = board.game_map.rules
    assert total_cards(after) == TOTAL_CARDS
    assert all(0 <= c <= rules.cars_per_player for c in after.cars)
    assert all(0 <= s <= rules.stations_per_player for s in after.stations_left)
    assert all(min(h) >= 0 for h in after.hands)
    if (after.owners, after.cars, after.route_points, after.stations, after.stations_left) != (
        before.owners,
        before.cars,
        before.route_points,
        before.stations,
        before.stations_left,
    ):
        _check_building(before, after)  # only a claim or a station changes what these follow from
    tickets = [t for row in (*after.tickets, *after.offers) for t in row] + list(after.ticket_deck)
    assert len(tickets) == len(set(tickets))
    assert len(after.market) <= MARKET_SIZE
    # R-T4: a short row only while deck and discards are empty; R-T3: 3 locomotives face up only when no row with
    # fewer can be made (a reset possible at any moment has been made)
    assert len(after.market) == MARKET_SIZE or not (after.deck or after.discard)
    assert not market_needs_reset(after.deck, after.discard, after.market)
    for event in events:
        assert event.key.startswith("ttr.")
        if event.to is None:
            assert "tickets" not in event.params or event.key not in {"ttr.event.tickets_offered", "ttr.event.you_kept"}


def _check_building(before: TtrState, after: TtrState) -> None:
    """Each seat's cars, route points and stations match what it built; R-T6 holds; no claim changed hands."""
    board = board_for(after.map_id)
    rules = board.game_map.rules
    for seat in range(after.n_players):
        owned = [i for i, o in enumerate(after.owners) if o == seat]
        assert after.route_points[seat] == sum(board.track_points[i] for i in owned)
        assert after.cars[seat] == rules.cars_per_player - sum(board.track_len[i] for i in owned)
        assert rules.stations_per_player - after.stations_left[seat] == after.stations.count(seat)
        for i in owned:  # R-T6: never both tracks of a double; with 2-3 players only one at all
            partner = board.track_partner[i]
            if partner >= 0:
                assert after.owners[partner] != seat
                if after.n_players < rules.double_min_players and not after.options.open_doubles:
                    assert after.owners[partner] < 0
    for i, owner in enumerate(before.owners):  # a claimed track never changes hands
        if owner >= 0:
            assert after.owners[i] == owner


def _check_views(state: TtrState) -> None:
    public = ENGINE.view(state, None)
    assert isinstance(public, PublicView) and not isinstance(public, SeatView)
    data = json.loads(public.model_dump_json())
    names = _keys(data)
    hidden = {"deck", "hand", "hands", "offers", "offered", "seed", "rng", "draws", "ticket_deck", "discard", "legal"}
    assert not names & hidden
    assert data["deck_size"] == len(state.deck) and data["discard_size"] == len(state.discard)
    if state.phase is not Phase.OVER:
        assert data["final"] is None and data["result"] is None and "tickets" not in names
        assert [p["hand_size"] for p in data["players"]] == [sum(h) for h in state.hands]
        # no list in the public view is as long as the deck or holds ticket ids: nothing hidden can be rebuilt
        assert all(len(v) <= 5 for v in (data["market"], data["to_act"]))
    for seat in range(state.n_players):
        view = ENGINE.view(state, seat)
        assert isinstance(view, SeatView)
        assert view.model_dump(exclude={"seat", "hand", "tickets", "offered", "legal"}) == public.model_dump()
        assert sum(view.hand.values()) == sum(state.hands[seat])
        assert [t.id for t in view.tickets] == list(state.tickets[seat])
        assert [t.id for t in view.offered] == list(state.offers[seat])
        assert [c.action for c in view.legal] == ENGINE.legal_actions(state, seat)


def _keys(data: object) -> set[str]:
    """Every dictionary key anywhere in a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


@pytest.mark.parametrize(("map_id", "n_players"), CASES)
def test_playouts_keep_every_invariant(map_id: str, n_players: int) -> None:
    for game in range(GAMES):
        kinds = MIXES[game % len(MIXES)]
        log: list[tuple[int, str]] = []
        seed = 1000 * n_players + game
        last: TtrState | None = None
        for before, seat, text, after, events in playout(map_id, n_players, seed, kinds):
            assert len(text) < 40
            log.append((seat, text))
            _check_step(before, after, events)
            if game == 0 and len(log) % 7 == 0:
                _check_views(after)
                assert ENGINE.load_state(after.model_dump_json()) == after
            last = after
        assert last is not None and ENGINE.is_over(last)
        _check_views(last)
        assert ENGINE.load_state(last.model_dump_json()) == last
        opts = last.options
        assert ENGINE.replay(opts, n_players, seed, log) == last
        result = ENGINE.result(last)
        assert result is not None and result.winners
        scores = {s.seat: s for s in final_scores(last)}
        for player in result.players:
            assert player.total == sum(line.points for line in player.breakdown)
            routes = sum(line.points for line in player.breakdown if line.label.key == "ttr.score.routes")
            assert routes == last.route_points[player.seat] == scores[player.seat].route_points


def test_every_legal_action_applies_and_encodes_short() -> None:
    for before, seat, _, _, _ in playout("europe", 3, 77, ["random"]):
        for action in ENGINE.legal_actions(before, seat):
            text = action.encode()
            assert len(text) < 40 and ENGINE.parse_action(text) == action
        if before.turn > 40:
            break


def test_variants_play_to_the_end() -> None:
    for options in ({"open_doubles": True}, {"returned_tickets": "removed"}, {"longest_bonus": False}):
        steps = list(playout("europe", 2, 5, ["sensible", "random"], **options))
        assert ENGINE.is_over(steps[-1][3])
