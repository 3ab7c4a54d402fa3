"""The dice view carries the engine's own actions for the player to act (issue 12: typed moves across the seam)."""

from __future__ import annotations

import pickle
import random

from rules.dice import Add, DiceOptions, Roll, Stop

from .helpers import ENGINE, faces, game, turn


def test_the_view_lists_the_engines_actions_not_their_texts() -> None:
    state = game(turn(0, showing="THBKEC", train="", rolls=1))
    view = ENGINE.view(state, None)
    assert list(view.legal) == ENGINE.legal_actions(state, 0)
    assert view.legal == (Add(faces=faces("E")), Roll(), Stop())
    assert pickle.loads(pickle.dumps(view)) == view
    assert view.model_dump()["legal"][0] == {"faces": ("E",)}


def test_every_view_of_a_game_holds_the_legal_moves_of_the_player_to_act() -> None:
    state = ENGINE.new_game(DiceOptions(), 3, 9)
    rng = random.Random(9)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        assert list(ENGINE.view(state, None).legal) == legal
        state, _ = ENGINE.apply(state, seat, rng.choice(legal))
    assert ENGINE.view(state, None).legal == ()
