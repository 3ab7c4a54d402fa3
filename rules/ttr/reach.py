"""Which tracks a seat's cards could claim now, read from that seat's own view (the hand picture highlights them).

On the seat's turn these are exactly the engine's legal claims. Between turns they are what the same rules would
allow with the cards in hand: R-T5 payment, R-EU-5 ferries, enough cars, and R-T6 doubles (never both tracks of one
route; the view's `closed` tracks, the twins shut with 2–3 players, are out).
"""

from __future__ import annotations

from rules.ttr.actions import Claim
from rules.ttr.board import CARD_NAMES, board_for
from rules.ttr.cards import payments
from rules.ttr.view import SeatView


def claimable_tracks(view: SeatView) -> frozenset[int]:
    """Ids of the free tracks this seat's cards and cars pay for: its legal claims on its turn, else by R-T5/R-T6."""
    if view.result is not None:
        return frozenset()
    if view.phase == "turn" and view.current == view.seat:
        return frozenset(choice.action.track for choice in view.legal if isinstance(choice.action, Claim))
    board = board_for(view.map)
    hand = tuple(view.hand.get(name, 0) for name in CARD_NAMES)
    cars = view.players[view.seat].cars
    owners = view.owners
    closed = set(view.closed)
    found = set()
    for i, track_id in enumerate(board.track_ids):
        if track_id in owners or track_id in closed or board.track_len[i] > cars:
            continue
        partner = board.track_partner[i]
        if partner >= 0 and owners.get(board.track_ids[partner]) == view.seat:
            continue
        if payments(board.track_color[i], board.track_len[i], board.track_ferry[i], hand):
            found.add(track_id)
    return frozenset(found)
