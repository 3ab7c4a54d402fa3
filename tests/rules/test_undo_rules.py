"""Undo by consent at the rules level: which moves may be taken back, and that taking one back is a replay without it.

Each game is played out at random from several seeds. After every move, the engine's `undo_refusal` is asked: a
move it allows must have shown nothing new (same generator, same hidden piles), and rewinding (replaying the log
without it) gives the state it was made from, with the same seat to act and the same moves on offer; a move of a
revealing kind must be refused with its typed reason.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.cardgame import CardGameEngine, CardGameOptions
from rules.cardgame import DrawCard as CardDraw
from rules.cardgame import DrawTickets as CardTickets
from rules.dice import DiceEngine, DiceOptions, Freight, Roll, Stop
from rules.engine import GameEngine, Options, UndoReason
from rules.ttr import TicketToRideEngine, TtrOptions
from rules.ttr.actions import DECK, Claim, DrawCard, DrawTickets, PayTunnel, Withdraw

Engine = GameEngine[Any, Any, Any]


def playout(engine: Engine, options: Options, players: int, seed: int, moves: int) -> list[tuple[Any, int, Any]]:
    """Play `moves` random legal moves; return (state before, seat, action) of each, checking every rewind."""
    rng = random.Random(seed)
    state = engine.new_game(options, players, seed)
    log: list[tuple[int, str]] = []
    made = []
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        made.append((state, seat, action))
        after, _ = engine.apply(state, seat, action)
        if engine.undo_refusal(state, seat, action) is None and not engine.is_over(after):
            rewound = engine.replay(options, players, seed, log)
            assert rewound == state
            assert seat in engine.to_act(rewound)
            assert engine.legal_actions(rewound, seat) == engine.legal_actions(state, seat)
            assert after.rng == state.rng
        log.append((seat, action.encode()))
        state = after
    assert engine.replay(options, players, seed, log) == state
    return made


def reasons(engine: Engine, made: list[tuple[Any, int, Any]]) -> Counter[tuple[str, UndoReason | None]]:
    """How often each kind of move was allowed or refused, and why."""
    return Counter((type(action).__name__, engine.undo_refusal(state, seat, action)) for state, seat, action in made)


@pytest.mark.parametrize("map_name", ["usa", "europe"])
def test_ttr_claims_and_stations_undo_draws_and_tunnels_do_not(map_name: str) -> None:
    engine = TicketToRideEngine()
    options = TtrOptions.model_validate({"map": map_name})
    made = [m for seed in range(3) for m in playout(engine, options, 3, seed, 160)]
    seen = reasons(engine, made)
    for state, seat, action in made:
        refusal = engine.undo_refusal(state, seat, action)
        if isinstance(action, DrawTickets) or (isinstance(action, DrawCard) and action.source == DECK):
            assert refusal is UndoReason.SAW_HIDDEN
        elif isinstance(action, PayTunnel | Withdraw):
            assert refusal is UndoReason.TURNED_UP
        elif isinstance(action, DrawCard):  # face up: the row is refilled from the deck while it holds cards
            assert (refusal is UndoReason.TURNED_UP) == bool(state.deck or any(state.discard))
        elif isinstance(action, Claim) and refusal is None:
            assert state.tunnel is None
    assert seen[("Claim", None)] > 0, seen
    if map_name == "europe":
        assert seen[("Claim", UndoReason.TURNED_UP)] > 0, "a tunnel's reveal is never taken back"


def test_card_game_plays_undo_draws_do_not() -> None:
    engine = CardGameEngine()
    made = [m for seed in range(3) for m in playout(engine, CardGameOptions(), 3, seed, 150)]
    seen = reasons(engine, made)
    for state, seat, action in made:
        refusal = engine.undo_refusal(state, seat, action)
        if isinstance(action, CardTickets) or (isinstance(action, CardDraw) and action.kind is None):
            assert refusal is UndoReason.SAW_HIDDEN
        elif isinstance(action, CardDraw):
            assert refusal is UndoReason.TURNED_UP, "a face-up card is replaced from the deck at once"
    assert seen[("PlayGroup", None)] + seen[("PlayThree", None)] > 0, seen
    assert seen[("KeepTickets", UndoReason.TURNED_UP)] > 0, "opening tickets are shuffled back"


def test_dice_adds_undo_rolls_do_not() -> None:
    engine = DiceEngine()
    made = [m for seed in range(4) for m in playout(engine, DiceOptions(), 2, seed, 120)]
    seen = reasons(engine, made)
    for state, seat, action in made:
        ends = engine.is_over(engine.apply(state, seat, action)[0])
        if isinstance(action, Roll | Freight) or (isinstance(action, Stop) and not ends):
            assert engine.undo_refusal(state, seat, action) is UndoReason.TURNED_UP
    assert seen[("Add", None)] > 0, seen
