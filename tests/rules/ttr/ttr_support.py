"""Helpers for Ticket to Ride tests: hand-made states on top of a real opening."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules.engine import Event
from rules.ttr.board import CARD_CODES, board_for
from rules.ttr.cards import DECK_COMPOSITION
from rules.ttr.engine import TicketToRideEngine
from rules.ttr.options import FirstPlayer, TtrOptions
from rules.ttr.state import Phase, TtrState

ENGINE = TicketToRideEngine()


def hand(**counts: int) -> tuple[int, ...]:
    """A 9-count hand from colour names, e.g. hand(red=3, locomotive=1)."""
    cards = [0] * 9
    for name, n in counts.items():
        cards[CARD_CODES[name]] = n
    return tuple(cards)


def started(map_id: str = "usa", n_players: int = 4, seed: int = 1, **options: object) -> TtrState:
    """A game past the opening: every seat kept all its tickets, seat 0 to play."""
    opts = TtrOptions.model_validate({"map": map_id, "first_player": FirstPlayer.SEAT_ORDER, **options})
    state = ENGINE.new_game(opts, n_players, seed)
    for seat in range(n_players):
        state, _ = ENGINE.apply(
            state, seat, ENGINE.parse_action("keep:" + ",".join(map(str, sorted(state.offers[seat]))))
        )
    assert state.phase is Phase.TURN and state.current == 0
    return state


def stocked(
    state: TtrState,
    market: tuple[int, ...],
    deck: tuple[int, ...],
    discard: tuple[int, ...] = (),
    hand0: tuple[int, ...] = (0,) * 9,
) -> TtrState:
    """`state` with these piles and seat 0's hand; every other card of the 110 goes to seat 1 (cards conserved)."""
    rest = list(DECK_COMPOSITION)
    for card in (*market, *deck, *discard):
        rest[card] -= 1
    rest = [n - h for n, h in zip(rest, hand0, strict=True)]
    assert min(rest) >= 0, "more cards of a colour than the game has"
    hands = (hand0, tuple(rest)) + ((0,) * 9,) * (state.n_players - 2)
    return state.model_copy(update={"market": market, "deck": deck, "discard": discard, "hands": hands})


def track_index(map_id: str, a: str, b: str, color: str | None = None) -> int:
    """Index of the (first) track between two cities, optionally of a given colour."""
    board = board_for(map_id)
    for i, t in enumerate(board.game_map.tracks):
        if {t.a, t.b} == {a, b} and (color is None or t.color == color):
            return i
    raise KeyError((a, b, color))


def track_id(map_id: str, a: str, b: str, color: str | None = None) -> int:
    """Id of the (first) track between two cities, optionally of a given colour."""
    return board_for(map_id).track_ids[track_index(map_id, a, b, color)]


def act(state: TtrState, seat: int, text: str) -> tuple[TtrState, list[Event]]:
    """Apply a move given as text."""
    return ENGINE.apply(state, seat, ENGINE.parse_action(text))


def keys(events: list[Event]) -> list[str]:
    """The message keys of events, in order."""
    return [e.key for e in events]


def total_cards(state: TtrState) -> int:
    """Every train card wherever it is: deck, discards, market, hands, revealed tunnel cards."""
    revealed = len(state.tunnel.revealed) if state.tunnel else 0
    return len(state.deck) + len(state.discard) + len(state.market) + sum(map(sum, state.hands)) + revealed


def playout(
    map_id: str, n_players: int, seed: int, kinds: list[str], **options: object
) -> Iterator[tuple[TtrState, int, str, TtrState, list[Event]]]:
    """Play a whole seeded game with bots, yielding (before, seat, action text, after, events) per move."""
    opts = TtrOptions.model_validate({"map": map_id, **options})
    state = ENGINE.new_game(opts, n_players, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, kinds[seat % len(kinds)])
            after, events = ENGINE.apply(state, seat, action)
            yield state, seat, action.encode(), after, events
            state = after
