"""Seeded random playouts of whole games, checking the engine's promises after every step (OpenSpiel style)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from rules.dice import Add, DiceAction, DiceOptions, DiceState, Freight, GameMode, Roll, Stop, TieRule
from rules.dice.faces import FACES
from rules.engine import IllegalAction

from .helpers import ENGINE

GAMES = 300
MAX_STEPS = 5_000
VALID_TRAIN = re.compile(r"^(|E|EC[THB]*K?|EEC[THB]*K?)$")
EVERY_MOVE: list[DiceAction] = [Roll(), Stop(), Freight(), *(Add(faces=(face,)) for face in FACES)]


def options_for(game: int) -> DiceOptions:
    """Vary the options across games: modes, tie rules and short targets so games stay quick."""
    mode = GameMode.ELIMINATION if game % 3 == 0 else GameMode.RACE
    tie = TieRule.PLAY_ON if game % 2 else TieRule.SHARED
    return DiceOptions(target=10 + (game * 7) % 30, mode=mode, tie=tie)


def check_state(state: DiceState, before: DiceState | None) -> str:
    """Check the invariants every reachable state keeps; return its JSON snapshot."""
    snapshot = state.model_dump_json()
    assert ENGINE.load_state(snapshot) == state
    if state.turn is not None:
        assert len(state.turn.showing) + len(state.turn.train) == 6
        assert VALID_TRAIN.match("".join(state.turn.train)), state.turn.train
        assert len(ENGINE.legal_actions(state, state.turn.seat)) >= 2, "one-choice moves are made by the engine"
    if before is not None and state.options.mode is GameMode.RACE:
        assert all(state.total(s) >= before.total(s) for s in range(state.n_players))
    return snapshot


@pytest.mark.slow
def test_random_and_bot_playouts_keep_every_invariant() -> None:
    chooser = random.Random(2024)
    seen: Counter[str] = Counter()
    for game in range(GAMES):
        options, players, seed = options_for(game), 2 + game % 5, 1000 + game
        state = ENGINE.new_game(options, players, seed)
        bots = {seat for seat in range(players) if chooser.random() < 0.6}
        log: list[tuple[int, str]] = []
        snapshot = check_state(state, None)
        for _ in range(MAX_STEPS):
            if ENGINE.is_over(state):
                break
            (seat,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot_action(state, seat, chooser) if seat in bots else chooser.choice(legal)
            assert action in legal
            illegal = [move for move in EVERY_MOVE if move not in legal]
            if illegal:
                try:
                    ENGINE.apply(state, seat, chooser.choice(illegal))
                    raise AssertionError("a move outside legal_actions was accepted")
                except IllegalAction:
                    pass
            after, events = ENGINE.apply(state, seat, action)
            assert state.model_dump_json() == snapshot, "apply mutated its input"
            assert events and all(event.public for event in events)
            seen.update(event.key.removeprefix("dice.event.") for event in events)
            log.append((seat, action.encode()))
            snapshot = check_state(after, state)
            state = after
        else:
            raise AssertionError(f"game {game} did not end in {MAX_STEPS} moves")
        result = ENGINE.result(state)
        assert result is not None and result.winners
        assert ENGINE.replay(options, players, seed, log) == state
    wanted = {"crashed", "freight_banked", "eliminated", "new_bar", "tie_break", "last_round", "out_of_rolls"}
    assert wanted | {"train_full", "incomplete", "won"} <= set(seen), f"playouts never reached {wanted - set(seen)}"
