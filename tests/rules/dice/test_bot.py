"""The sensible bot: legal, reasonable moves, and clearly better than clicking at random."""

from __future__ import annotations

import random

from rules.dice import DiceOptions, DiceState, GameMode

from .helpers import ENGINE, game, turn


def bot_move(state: DiceState) -> str:
    """Return the bot's encoded move for the player in turn."""
    assert state.turn is not None
    return ENGINE.bot_action(state, state.turn.seat, random.Random(0)).encode()


def test_bot_builds_the_train_in_order() -> None:
    assert bot_move(game(turn(showing="TCEHBB"))) == "add:E"
    assert bot_move(game(turn(showing="TCHBB", train="E"))) == "add:C"
    assert bot_move(game(turn(showing="BHT", train="ECH"))) == "add:T"


def test_bot_takes_the_caboose_when_the_train_is_worth_it() -> None:
    assert bot_move(game(turn(showing="K", train="ECTTH"))) == "add:K"
    assert bot_move(game(turn(showing="KEE", train="ECB", rolls=1))) == "roll"
    assert bot_move(game(turn(showing="KCC", train="ECB", rolls=3))) == "add:K", "last chance: double it"


def test_bot_keeps_the_bonus_train_in_reach() -> None:
    assert bot_move(game(turn(showing="TTE", train="ECH", rolls=1))) == "add:T"
    assert bot_move(game(turn(showing="TE", train="ECHT", rolls=1))) in {"roll", "add:E"}


def test_bot_freights_a_small_train_and_banks_a_big_one() -> None:
    assert bot_move(game(turn(train="EECBBH"))) == "freight"
    assert bot_move(game(turn(train="EECTTT", freight=True, banked=40))) == "stop"


def test_bot_in_elimination_rolls_rather_than_fall_short_of_the_bar() -> None:
    options = DiceOptions(mode=GameMode.ELIMINATION)
    assert bot_move(game(turn(showing="KEE", train="ECT", rolls=1), options=options, bar=30)) == "roll"
    assert bot_move(game(turn(train="EECTTT"), options=options, bar=30)) == "freight"
    assert bot_move(game(turn(train="EECTTT", freight=True, banked=20), options=options, bar=30)) == "stop"


def test_bot_beats_random_clicking() -> None:
    chooser = random.Random(7)
    wins = 0
    for seed in range(40):
        state = ENGINE.new_game(DiceOptions(target=60), 2, seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot_action(state, seat, chooser) if seat == 0 else chooser.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
        result = ENGINE.result(state)
        wins += result is not None and result.winners == [0]
    assert wins >= 34
