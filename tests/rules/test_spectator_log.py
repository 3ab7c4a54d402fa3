"""The public log of a game (rules/history.py `spectate`): what the table showed, move by move, and nothing hidden.

Its start and each move's changes rebuild every public view, its events are the public ones; two Ticket to Ride
games that differ only in what the table never showed (hands, a returned ticket) give the very same log."""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest

from rules.engine import GameEngine, Seat
from rules.history import spectate, spectated
from rules.ttr import TicketToRideEngine
from rules.ttr.actions import KeepTickets
from rules.ttr.state import TtrState, replace_row
from tests.rules.test_score_history import GAMES, engine_of, played

SEED = 7


def states(engine: GameEngine[Any, Any, Any], start: Any, log: list[tuple[Seat, str]]) -> list[Any]:
    """The state at the start and after each action of the log."""
    found = [start]
    for seat, text in log:
        found.append(engine.apply(found[-1], seat, engine.parse_action(text))[0])
    return found


def rebuilt_views(told: dict[str, Any]) -> list[dict[str, Any]]:
    """The public view at the start and after each move, as a reader of the log rebuilds them."""
    views = [told["start"]]
    for move in told["moves"]:
        views.append({**views[-1], **move["table"]})
    return views


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_log_rebuilds_every_public_view_and_tells_only_the_public_events(
    game: str, players: int, options: dict[str, Any]
) -> None:
    log = played(game, players, options, seed=SEED)
    engine = engine_of(game)
    told = spectated(engine_of(game), options, players, SEED, log)
    state = engine.new_game(engine.load_options(options), players, SEED)
    views = [engine.view(state, None).model_dump(mode="json")]
    public: list[list[dict[str, Any]]] = []
    private: set[str] = set()
    for seat, text in log:
        state, events = engine.apply(state, seat, engine.parse_action(text))
        views.append(engine.view(state, None).model_dump(mode="json"))
        public.append([e.model_dump(mode="json", exclude={"to"}) for e in events if e.public])
        private |= {e.key for e in events if not e.public}
    assert rebuilt_views(told) == views
    assert told["end"] == views[-1] and engine.is_over(state)
    assert [m["seat"] for m in told["moves"]] == [seat for seat, _ in log]
    assert [m["events"] for m in told["moves"]] == public
    text = json.dumps(told)
    assert not [key for key in private if f'"{key}"' in text], "no event told to one seat alone"
    assert '"seed"' not in text and '"rng"' not in text
    assert not [a for _, a in log if ":" in a and f'"{a}"' in text], "moves as the table told them, not as made"


def kept_blind(honest: list[TtrState], log: list[tuple[Seat, str]], seat: Seat) -> list[tuple[int, int]]:
    """(place in the starting deck, colour) of each card `seat` drew blind, before any reshuffle, and held a card of
    that colour from then to the end (so a claim never needed that very card)."""
    found = []
    for step, (mover, text) in enumerate(log):
        before = honest[step]
        if mover != seat or text != "draw:deck" or before.deck != honest[0].deck[: len(before.deck)]:
            continue
        color = before.deck[-1]
        if all(state.hands[seat][color] for state in honest[step + 1 :]):
            found.append((len(before.deck) - 1, color))
    return found


def hidden_swapped(engine: TicketToRideEngine, honest: list[TtrState], log: list[tuple[Seat, str]]) -> TtrState:
    """The start of `honest` with two cards of the deck that each seat draws blind and keeps swapped (each then holds
    a card of another colour), and the opening ticket seat 0 returns swapped for the ticket deck's last."""
    start = honest[0]
    mine, theirs = kept_blind(honest, log, 0), kept_blind(honest, log, 1)
    first, second = next((a, b) for a, b in product(mine, theirs) if a[1] != b[1])
    deck = list(start.deck)
    deck[first[0]], deck[second[0]] = deck[second[0]], deck[first[0]]
    kept = next(
        action.tickets
        for seat, text in log
        if seat == 0 and isinstance(action := engine.parse_action(text), KeepTickets)
    )
    returned = next(t for t in start.offers[0] if t not in kept)
    last = start.ticket_deck[-1]
    offers = replace_row(start.offers, 0, tuple(last if t == returned else t for t in start.offers[0]))
    tickets = (*start.ticket_deck[:-1], returned)
    return start.model_copy(update={"deck": tuple(deck), "offers": offers, "ticket_deck": tickets})


def test_games_that_differ_only_in_hidden_hands_and_returned_tickets_give_the_same_log() -> None:
    engine = TicketToRideEngine()
    log = played("ticket-to-ride", 2, {"map": "usa"}, seed=SEED)
    start = engine.new_game(engine.load_options({"map": "usa"}), 2, SEED)
    honest = states(engine, start, log)
    scrambled = hidden_swapped(engine, honest, log)
    other = states(engine, scrambled, log)
    assert engine.is_over(honest[-1]) and engine.is_over(other[-1])
    assert honest[-1].hands != other[-1].hands, "both seats' hands differ, from the swapped draws to the end"
    assert honest[1].ticket_deck != other[1].ticket_deck, "a different ticket was returned"
    assert spectate(engine, start, log) == spectate(engine, scrambled, log)
