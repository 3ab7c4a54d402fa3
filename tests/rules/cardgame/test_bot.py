"""The sensible bot: always legal, never stalls, and plays better than chance."""

from __future__ import annotations

import random

from rules.cardgame.options import CardGameOptions
from rules.cardgame.state import Phase

from .support import ENGINE


def test_sensible_bot_is_always_legal_and_every_game_ends() -> None:
    for n in (2, 3, 4):
        for seed in range(4):
            state = ENGINE.new_game(CardGameOptions(), n, seed)
            rng = random.Random(seed)
            steps = 0
            while state.phase is not Phase.OVER:
                for seat in sorted(ENGINE.to_act(state)):
                    action = ENGINE.bot_action(state, seat, rng)
                    assert action.encode() in {a.encode() for a in ENGINE.legal_actions(state, seat)}
                    state, _ = ENGINE.apply(state, seat, action)
                    steps += 1
                    break
                assert steps < 2000


def test_sensible_bot_beats_random_players() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        state = ENGINE.new_game(CardGameOptions(), 2, seed)
        rng = random.Random(seed)
        sensible = seed % 2
        while state.phase is not Phase.OVER:
            seat = min(ENGINE.to_act(state))
            kind = "sensible" if seat == sensible else "random"
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, kind))
        result = ENGINE.result(state)
        assert result is not None
        wins += sensible in result.winners
    assert wins >= games * 0.8


def test_sensible_bot_robs_when_it_pays() -> None:
    from .support import colors, kinds, started, with_player

    state = started(2, seed=4)
    me, other = state.current, 1 - state.current
    state = with_player(state, me, hand=kinds(blue=4), tickets=(2,))  # New York–Chicago needs blue
    state = with_player(state, other, yard=colors(blue=3))
    action = ENGINE.bot_action(state, me, random.Random(0))
    assert action.encode() == "play:blue:4:0"
