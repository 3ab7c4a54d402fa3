"""Ticket to Ride's part of the engine contract: its invariant, its scramble and the tables to play out."""

from __future__ import annotations

import random
from collections import Counter

from rules.engine import Seat
from rules.ttr.cards import DECK_COMPOSITION
from rules.ttr.state import TtrState
from tests.rules.contract import ContractCase, cards, counts, deal, new_rng


def invariant(state: TtrState) -> None:
    """Every train card is somewhere exactly once; tickets are never duplicated; cars and stations never go negative."""
    found = Counter((*state.deck, *state.discard, *(c for c in state.market if c >= 0)))
    if state.tunnel is not None:
        found.update(state.tunnel.revealed)
    for hand in state.hands:
        assert min(hand) >= 0
        found.update({code: n for code, n in enumerate(hand)})
    assert tuple(found[code] for code in range(len(DECK_COMPOSITION))) == DECK_COMPOSITION, found
    tickets = [*state.ticket_deck, *(t for held in state.tickets for t in held), *(t for o in state.offers for t in o)]
    assert len(tickets) == len(set(tickets))
    assert min(state.cars) >= 0 and min(state.stations_left) >= 0
    assert all(-1 <= owner < state.n_players for owner in state.owners)


def scramble(state: TtrState, seat: Seat | None, rng: random.Random) -> TtrState:
    """Others' hands, tickets and offers, the deck's order and the ticket deck's, reshuffled among them."""
    others = [s for s in range(state.n_players) if s != seat]
    kinds = len(DECK_COMPOSITION)
    pool = [*state.deck, *(c for s in others for c in cards(state.hands[s]))]
    parts = deal(pool, [*(sum(state.hands[s]) for s in others), len(state.deck)], rng)
    hands = list(state.hands)
    for i, s in enumerate(others):
        hands[s] = counts(parts[i], kinds)
    tickets = [*state.ticket_deck, *(t for s in others for t in (*state.tickets[s], *state.offers[s]))]
    sizes = [n for s in others for n in (len(state.tickets[s]), len(state.offers[s]))]
    dealt = deal(tickets, [*sizes, len(state.ticket_deck)], rng)
    held, offers = list(state.tickets), list(state.offers)
    for i, s in enumerate(others):
        held[s], offers[s] = tuple(dealt[2 * i]), tuple(dealt[2 * i + 1])
    update = {"hands": tuple(hands), "deck": tuple(parts[-1]), "tickets": tuple(held), "offers": tuple(offers)}
    return state.model_copy(update={**update, "ticket_deck": tuple(dealt[-1]), "rng": new_rng(rng)})


CASE = ContractCase(
    invariant=invariant,
    scramble=scramble,
    configs=[
        (2, {"map": "usa"}),
        (3, {"map": "europe", "returned_tickets": "removed"}),
        (4, {"map": "usa", "open_doubles": True, "first_player": "seat_order"}),
        (5, {"map": "europe", "longest_bonus": False}),
    ],
)
