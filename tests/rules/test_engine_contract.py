"""The contract every registered engine keeps, checked on seeded random playouts (issue 12, item 6).

Each engine in `bot.games.GAMES` is played out with several player counts and option sets, by a policy written
here (a seeded uniform choice of seat and legal move), so the checks hold whatever the bot players become. A new
engine is covered by registering it; it must then give this module an invariant function and a scramble.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from bot.games import GAMES
from rules.cardgame.cards import LOCOMOTIVE, LOCOMOTIVES, N_COLORS, N_KINDS, PER_COLOR
from rules.cardgame.state import CardGameState
from rules.cardgame.tickets import load_data
from rules.dice.state import MAX_ROLLS, DiceState
from rules.engine import Action, CommonReason, GameEngine, IllegalAction, Seat
from rules.rng import Rng
from rules.ttr.cards import DECK_COMPOSITION
from rules.ttr.state import TtrState

Engine = GameEngine[Any, Any, Any]

# Player counts and options per game; a game missing here is played with its fewest and most players.
CONFIGS: dict[str, list[tuple[int, dict[str, object]]]] = {
    "ticket-to-ride-cards": [
        (2, {}),
        (3, {"three_locomotive_reset": False}),
        (4, {}),
        (4, {"stack_visible_to_owner": True}),
    ],
    "dice": [
        (2, {"target": 30}),
        (3, {"mode": "elimination"}),
        (4, {"target": 10, "tie": "play_on"}),
        (6, {"target": 20}),
    ],
    "ticket-to-ride": [
        (2, {"map": "usa"}),
        (3, {"map": "europe", "returned_tickets": "removed"}),
        (4, {"map": "usa", "open_doubles": True, "first_player": "seat_order"}),
        (5, {"map": "europe", "longest_bonus": False}),
    ],
}
POSITIONS = 10
"""Positions per game where the expensive checks run (every legal move, illegal samples, hidden views)."""
ILLEGAL_SAMPLE = 30
"""Moves seen elsewhere in the game tried at each of those positions by each seat to act."""


# Invariants: each checks one state and fails with a message ------------------------------------------------------


def cardgame_invariant(state: CardGameState) -> None:
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


def dice_invariant(state: DiceState) -> None:
    """Six dice per turn, at most three ordinary rolls, no negative score, each seat knocked out once at most."""
    turn = state.turn
    if turn is not None:
        assert len(turn.train) + len(turn.showing) <= 6
        assert 1 <= turn.rolls <= MAX_ROLLS and turn.banked >= 0
        assert turn.seat not in state.eliminated
    assert all(record.points >= 0 for record in state.history)
    assert len(set(state.eliminated)) == len(state.eliminated) < state.n_players
    assert set(state.tie_break) <= set(range(state.n_players))


def ttr_invariant(state: TtrState) -> None:
    """Every train card is somewhere exactly once; tickets are never duplicated; cars and stations never go negative."""
    counts = Counter((*state.deck, *state.discard, *(c for c in state.market if c >= 0)))
    if state.tunnel is not None:
        counts.update(state.tunnel.revealed)
    for hand in state.hands:
        assert min(hand) >= 0
        counts.update({code: n for code, n in enumerate(hand)})
    assert tuple(counts[code] for code in range(len(DECK_COMPOSITION))) == DECK_COMPOSITION, counts
    tickets = [*state.ticket_deck, *(t for held in state.tickets for t in held), *(t for o in state.offers for t in o)]
    assert len(tickets) == len(set(tickets))
    assert min(state.cars) >= 0 and min(state.stations_left) >= 0
    assert all(-1 <= owner < state.n_players for owner in state.owners)


INVARIANTS: dict[str, Callable[[Any], None]] = {
    "ticket-to-ride-cards": cardgame_invariant,
    "dice": dice_invariant,
    "ticket-to-ride": ttr_invariant,
}


# Scrambles: what `seat` (None: nobody) cannot see, shuffled, with every size it can see kept ----------------------


def _deal(pool: list[int], sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Shuffle `pool` and cut it into parts of `sizes` (which add up to its length)."""
    rng.shuffle(pool)
    parts, start = [], 0
    for size in sizes:
        parts.append(pool[start : start + size])
        start += size
    return parts


def _cards(counts: Sequence[int]) -> list[int]:
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def _counts(cards: Iterable[int], kinds: int) -> tuple[int, ...]:
    found = Counter(cards)
    return tuple(found[kind] for kind in range(kinds))


def _new_rng(rng: random.Random) -> Rng:
    """A different future: the stored generator is hidden from everyone."""
    return Rng(seed=rng.randrange(1 << 30))


def cardgame_scramble(state: CardGameState, seat: Seat | None, rng: random.Random) -> CardGameState:
    """Others' hands, stacks, tickets and offers, the deck's order and the ticket deck's, reshuffled among them."""
    others = [s for s in range(state.n_players) if s != seat]
    players = list(state.players)
    cards = [*state.deck, *(c for s in others for c in (*_cards(players[s].hand), *_cards(players[s].stack)))]
    sizes = [sum(players[s].hand) for s in others] + [sum(players[s].stack) for s in others] + [len(state.deck)]
    parts = _deal(cards, sizes, rng)
    tickets = [*state.ticket_deck, *(t for s in others for t in (*players[s].tickets, *players[s].offered))]
    ticket_sizes = [n for s in others for n in (len(players[s].tickets), len(players[s].offered))]
    dealt = _deal(tickets, [*ticket_sizes, len(state.ticket_deck)], rng)
    for i, s in enumerate(others):
        players[s] = players[s].model_copy(
            update={
                "hand": _counts(parts[i], N_KINDS),
                "stack": _counts(parts[len(others) + i], N_KINDS),
                "tickets": tuple(dealt[2 * i]),
                "offered": tuple(dealt[2 * i + 1]),
            }
        )
    update = {"players": tuple(players), "deck": tuple(parts[-1]), "ticket_deck": tuple(dealt[-1])}
    return state.model_copy(update={**update, "rng": _new_rng(rng)})


def dice_scramble(state: DiceState, seat: Seat | None, rng: random.Random) -> DiceState:
    """Nothing in «Поезд» is hidden from anyone but the dice still to be rolled: only the generator changes."""
    return state.model_copy(update={"rng": _new_rng(rng)})


def ttr_scramble(state: TtrState, seat: Seat | None, rng: random.Random) -> TtrState:
    """Others' hands, tickets and offers, the deck's order and the ticket deck's, reshuffled among them."""
    others = [s for s in range(state.n_players) if s != seat]
    kinds = len(DECK_COMPOSITION)
    cards = [*state.deck, *(c for s in others for c in _cards(state.hands[s]))]
    parts = _deal(cards, [*(sum(state.hands[s]) for s in others), len(state.deck)], rng)
    hands = list(state.hands)
    for i, s in enumerate(others):
        hands[s] = _counts(parts[i], kinds)
    tickets = [*state.ticket_deck, *(t for s in others for t in (*state.tickets[s], *state.offers[s]))]
    sizes = [n for s in others for n in (len(state.tickets[s]), len(state.offers[s]))]
    dealt = _deal(tickets, [*sizes, len(state.ticket_deck)], rng)
    held, offers = list(state.tickets), list(state.offers)
    for i, s in enumerate(others):
        held[s], offers[s] = tuple(dealt[2 * i]), tuple(dealt[2 * i + 1])
    update = {"hands": tuple(hands), "deck": tuple(parts[-1]), "tickets": tuple(held), "offers": tuple(offers)}
    return state.model_copy(update={**update, "ticket_deck": tuple(dealt[-1]), "rng": _new_rng(rng)})


SCRAMBLES: dict[str, Callable[[Any, Seat | None, random.Random], Any]] = {
    "ticket-to-ride-cards": cardgame_scramble,
    "dice": dice_scramble,
    "ticket-to-ride": ttr_scramble,
}


# Seeded playouts ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A finished playout: every state before a move, the moves made, and the final state."""

    engine: Engine
    options: Any
    n_players: int
    seed: int
    states: list[Any]
    moves: list[tuple[Seat, Action]]
    final: Any


def _cases() -> list[tuple[str, int, dict[str, object]]]:
    cases = []
    for game_id, info in sorted(GAMES.items()):
        engine = info.engine
        for n, options in CONFIGS.get(game_id, [(engine.min_players, {}), (engine.max_players, {})]):
            cases.append((game_id, n, options))
    return cases


CASES = _cases()
IDS = [
    f"{game_id}-{n}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")
    for game_id, n, options in CASES
]


@cache
def playout(case: int) -> Game:
    """Play case `case` to the end: a seeded uniform choice of the seat to act and of its legal move."""
    game_id, n, options_dict = CASES[case]
    engine = GAMES[game_id].engine
    seed = 1000 + case
    options = engine.load_options(dict(options_dict))
    state = engine.new_game(options, n, seed)
    rng = random.Random(seed)
    states, moves = [], []
    while not engine.is_over(state):
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        states.append(state)
        moves.append((seat, action))
        state, _ = engine.apply(state, seat, action)
        assert len(states) < 5000, "the playout does not end"
    return Game(engine, options, n, seed, states, moves, state)


def positions(game: Game) -> list[int]:
    """Indices of the states where the expensive checks run: the first, the last, and some evenly between."""
    last = len(game.states) - 1
    return sorted({round(i * last / (POSITIONS - 1)) for i in range(POSITIONS)})


def json(state: Any) -> str:
    return str(state.model_dump_json())


case_params = pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)


def test_every_registered_engine_has_an_invariant_a_scramble_and_cases() -> None:
    for game_id in GAMES:
        assert game_id in INVARIANTS, f"{game_id}: give this module an invariant function for it"
        assert game_id in SCRAMBLES, f"{game_id}: give this module a scramble of what a seat cannot see"
        assert any(case[0] == game_id for case in CASES)


@case_params
def test_invariants_hold_and_turns_are_consistent_after_every_move(case: int) -> None:
    game = playout(case)
    engine, invariant = game.engine, INVARIANTS[CASES[case][0]]
    for state in game.states:
        invariant(state)
        to_act = engine.to_act(state)
        assert to_act and to_act <= set(range(game.n_players))
        assert engine.result(state) is None and not engine.is_over(state)
        for seat in set(range(game.n_players)) - to_act:
            assert engine.legal_actions(state, seat) == []
        for seat in to_act:
            assert engine.legal_actions(state, seat), f"seat {seat} must act but has no legal move"
    invariant(game.final)
    assert engine.is_over(game.final) and engine.to_act(game.final) == frozenset()
    assert all(engine.legal_actions(game.final, seat) == [] for seat in range(game.n_players))
    result = engine.result(game.final)
    assert result is not None and result.winners
    assert sorted(player.seat for player in result.players) == list(range(game.n_players))


@case_params
def test_replay_and_json_snapshots_give_the_same_state(case: int) -> None:
    game = playout(case)
    engine = game.engine
    log = [(seat, action.encode()) for seat, action in game.moves]
    assert json(engine.replay(game.options, game.n_players, game.seed, log)) == json(game.final)
    for index in positions(game):
        state = game.states[index]
        assert json(engine.load_state(json(state))) == json(state)
        assert engine.load_state(json(state)) == state
    assert engine.load_state(json(game.final)) == game.final
    assert engine.load_options(game.options.model_dump_json()) == game.options


@case_params
def test_every_legal_move_is_accepted(case: int) -> None:
    game = playout(case)
    engine, invariant = game.engine, INVARIANTS[CASES[case][0]]
    for index in positions(game):
        state = game.states[index]
        for seat in sorted(engine.to_act(state)):
            for action in engine.legal_actions(state, seat):
                assert engine.parse_action(action.encode()) == action
                after, _ = engine.apply(state, seat, action)
                invariant(after)


def _refused(engine: Engine, state: Any, seat: Seat, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, seat, action)
    return refused.value


MALFORMED = ["", ":", "::", "nonsense", "draw", "keep:", "play:", "add:", "claim:", "x" * 120, "🚂", "roll:stop"]


def _mangled(text: str) -> list[str]:
    """Texts near a legal one: truncated, extended, with a part doubled, a number bumped, a letter changed."""
    bumped = "".join(str((int(c) + 1) % 10) if c.isdigit() else c for c in text)
    return [text[:-1], text + ":1", text + ",0", text.replace(":", "::", 1), bumped, text.upper(), text[::-1]]


@case_params
def test_illegal_moves_are_refused_and_change_nothing(case: int) -> None:
    game = playout(case)
    engine = game.engine
    rng = random.Random(game.seed)
    seen = list({action.encode(): action for _, action in game.moves}.values())
    for index in positions(game):
        state = game.states[index]
        before = json(state)
        to_act = engine.to_act(state)
        legal = {seat: {a.encode() for a in engine.legal_actions(state, seat)} for seat in to_act}
        some_legal = next(iter(engine.legal_actions(state, min(to_act))))
        for seat in [-1, game.n_players, *(s for s in range(game.n_players) if s not in to_act)]:
            reason = _refused(engine, state, seat, some_legal).reason
            expected = CommonReason.NOT_YOUR_TURN if 0 <= seat < game.n_players else CommonReason.NOT_A_SEAT
            assert reason is expected
        for seat in to_act:
            others = [a for a in seen if a.encode() not in legal[seat]]
            for action in rng.sample(others, min(ILLEGAL_SAMPLE, len(others))):
                _refused(engine, state, seat, action)
            texts = MALFORMED + [
                t for code in rng.sample(sorted(legal[seat]), min(5, len(legal[seat]))) for t in _mangled(code)
            ]
            for text in texts:
                try:
                    action = engine.parse_action(text)
                except IllegalAction as refused:
                    assert refused.reason is CommonReason.MALFORMED_ACTION
                    continue
                if action.encode() in legal[seat]:
                    engine.apply(state, seat, action)
                else:
                    _refused(engine, state, seat, action)
        assert json(state) == before
    final = json(game.final)
    for seat, action in game.moves[-ILLEGAL_SAMPLE:]:
        assert _refused(engine, game.final, seat, action).reason is CommonReason.GAME_OVER
    assert json(game.final) == final


@case_params
def test_views_do_not_show_what_a_seat_cannot_see(case: int) -> None:
    game = playout(case)
    engine, scramble = game.engine, SCRAMBLES[CASES[case][0]]
    rng = random.Random(game.seed)
    for index in positions(game):
        state = game.states[index]
        for seat in [None, *range(game.n_players)]:
            seen = engine.view(state, seat).model_dump()
            for _ in range(2):
                scrambled = scramble(state, seat, rng)
                assert engine.view(scrambled, seat).model_dump() == seen, f"seat {seat} sees a hidden change"


@case_params
def test_the_random_bot_plays_legal_moves(case: int) -> None:
    game = playout(case)
    engine = game.engine
    rng = random.Random(game.seed)
    for index in positions(game):
        state = game.states[index]
        for seat in sorted(engine.to_act(state)):
            assert engine.bot_action(state, seat, rng, "random") in engine.legal_actions(state, seat)
