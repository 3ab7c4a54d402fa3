"""Ticket to Ride: The Card Game's part of the engine contract: its invariant, its scramble and the tables to play
out."""

from __future__ import annotations

import random

from rules.cardgame.cards import LOCOMOTIVE, LOCOMOTIVES, N_COLORS, N_KINDS, PER_COLOR
from rules.cardgame.state import CardGameState
from rules.cardgame.tickets import load_data
from rules.engine import Seat
from tests.rules.contract import ContractCase, cards, counts, deal, new_rng


def invariant(state: CardGameState) -> None:
    """Every train card and ticket is somewhere exactly once; counts never go negative; robbery keeps colours unique."""
    totals = list(state.discard)
    for card in (*state.deck, *state.face_up):
        totals[card] += 1
    for player in state.players:
        assert min(player.hand) >= 0 and min(player.stack) >= 0 and min(player.yard) >= 0
        assert all(0 <= loco <= size for loco, size in zip(player.yard_locomotives, player.yard, strict=True))
        for kind in range(N_KINDS):
            totals[kind] += player.hand[kind] + player.stack[kind]
        for color in range(N_COLORS):
            totals[color] += player.yard[color] - player.yard_locomotives[color]
            totals[LOCOMOTIVE] += player.yard_locomotives[color]
    assert tuple(totals) == (PER_COLOR,) * N_COLORS + (LOCOMOTIVES,), totals
    for color in range(N_COLORS):
        assert sum(bool(player.yard[color]) for player in state.players) <= 1, f"two yards hold colour {color}"
    scored = [s.ticket for record in state.first_scoring or () for s in record.completed]
    tickets = [*state.ticket_deck, *scored, *(t for p in state.players for t in (*p.tickets, *p.offered))]
    assert sorted(tickets) == sorted(t.id for t in load_data().tickets)
    assert len(state.face_up) <= 5
    assert state.last_turns_left is None or 0 < state.last_turns_left <= state.n_players


def scramble(state: CardGameState, seat: Seat | None, rng: random.Random) -> CardGameState:
    """Others' hands, stacks, tickets and offers, the deck's order and the ticket deck's, reshuffled among them."""
    others = [s for s in range(state.n_players) if s != seat]
    players = list(state.players)
    pool = [*state.deck, *(c for s in others for c in (*cards(players[s].hand), *cards(players[s].stack)))]
    sizes = [sum(players[s].hand) for s in others] + [sum(players[s].stack) for s in others] + [len(state.deck)]
    parts = deal(pool, sizes, rng)
    tickets = [*state.ticket_deck, *(t for s in others for t in (*players[s].tickets, *players[s].offered))]
    ticket_sizes = [n for s in others for n in (len(players[s].tickets), len(players[s].offered))]
    dealt = deal(tickets, [*ticket_sizes, len(state.ticket_deck)], rng)
    for i, s in enumerate(others):
        players[s] = players[s].model_copy(
            update={
                "hand": counts(parts[i], N_KINDS),
                "stack": counts(parts[len(others) + i], N_KINDS),
                "tickets": tuple(dealt[2 * i]),
                "offered": tuple(dealt[2 * i + 1]),
            }
        )
    update = {"players": tuple(players), "deck": tuple(parts[-1]), "ticket_deck": tuple(dealt[-1])}
    return state.model_copy(update={**update, "rng": new_rng(rng)})


CASE = ContractCase(
    invariant=invariant,
    scramble=scramble,
    configs=[
        (2, {}),
        (3, {"three_locomotive_reset": False}),
        (4, {}),
        (4, {"stack_visible_to_owner": True}),
    ],
)
