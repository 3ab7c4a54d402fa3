"""The move set's fast claim count (bitmasks, memos keyed by hand and by the owners tuple) against the rules read
track by track (R-T5, R-T6, R-EU-5) over whole random games, and `pick` against the listed order."""

from __future__ import annotations

import random

import pytest

from rules.ttr import moves
from rules.ttr.actions import Claim
from rules.ttr.board import CARD_NAMES, Board, board_for
from rules.ttr.cards import Payment, payments
from rules.ttr.moves import doubles_closed, move_set
from rules.ttr.state import Phase, TtrState

from .ttr_support import playout


def _claims_by_rule(state: TtrState, seat: int, board: Board) -> list[tuple[int, tuple[Payment, ...]]]:
    """Every (track, payments) the seat may claim, checked one track at a time."""
    hand, cars, owners = state.hands[seat], state.cars[seat], state.owners
    closed = doubles_closed(state.n_players, state.options, board)
    found = []
    for i in range(board.n_tracks):
        partner = board.track_partner[i]
        if owners[i] >= 0 or board.track_len[i] > cars:
            continue
        if partner >= 0 and (owners[partner] == seat or (owners[partner] >= 0 and closed)):
            continue
        pays = payments(board.track_color[i], board.track_len[i], board.track_ferry[i], hand)
        if pays:
            found.append((i, pays))
    return found


@pytest.mark.parametrize(("map_id", "n_players"), [("usa", 2), ("usa", 4), ("europe", 3), ("europe", 5)])
def test_the_fast_claims_are_the_rules_claims_in_every_turn_of_random_games(map_id: str, n_players: int) -> None:
    board = board_for(map_id)
    rnd = random.Random(3)
    for seed in range(4):
        moves._OWNER_MASKS.clear()  # the first game starts cold; the next ones reuse what the earlier left
        for before, seat, _, _, _ in playout(map_id, n_players, 100 + seed, ["random"]):
            if before.phase is not Phase.TURN:
                continue
            found = move_set(before, seat)
            expected = _claims_by_rule(before, seat, board)
            assert found.claims == expected
            assert found.claim_count == sum(len(pays) for _, pays in expected)
            listed = [a for a in found.actions(board) if isinstance(a, Claim)]
            assert [(a.track, a.color, a.locomotives) for a in listed] == [
                (board.track_ids[t], CARD_NAMES[color], locos) for t, pays in expected for color, locos in pays
            ]
            if listed:  # pick straight into the claims, without listing the moves before them
                first = len(found.draws) + found.tickets
                index = rnd.randrange(len(listed))
                assert found.pick(first + index, board) == listed[index]


@pytest.mark.parametrize(("map_id", "n_players"), [("usa", 3), ("europe", 4)])
def test_the_listed_moves_are_the_moves_picked_one_by_one_in_every_phase(map_id: str, n_players: int) -> None:
    board = board_for(map_id)
    kinds = set()
    for seed in range(3):
        for before, seat, _, _, _ in playout(map_id, n_players, 200 + seed, ["sensible", "random"]):
            found = move_set(before, seat)
            listed = found.actions(board)
            assert listed == [found.pick(index, board) for index in range(found.count())]
            kinds |= {type(action).__name__ for action in listed}
    expected = {"DrawCard", "DrawTickets", "Claim", "KeepTickets"} | (
        {"BuildStation", "PayTunnel"} if map_id == "europe" else set()
    )
    assert expected <= kinds
