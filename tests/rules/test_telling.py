"""A game told move by move as it goes on (rules/history.py `Telling`, what the live board pages read): the same
whether told at once or a move at a time, its scores those of the score history, and a log that took a move back
no longer follows it."""

from __future__ import annotations

from typing import Any

import pytest

from rules.history import Telling, spectated, tell_log, tell_moves
from tests.rules.test_score_history import GAMES, engine_of, played

SEED = 13


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_game_told_a_move_at_a_time_is_told_as_at_once_and_as_its_score_history(
    game: str, players: int, options: dict[str, Any]
) -> None:
    engine = engine_of(game)
    log = played(game, players, options, seed=SEED)
    start = engine.new_game(engine.load_options(options), players, SEED)
    at_once = tell_moves(engine, start, log, keep_views=True)
    stepwise = Telling(engine, start)
    for moves in range(len(log) + 1):
        assert stepwise.follows(log[:moves])
        stepwise.extend(log[:moves])
    assert stepwise.state == at_once.state == engine.replay(engine.load_options(options), players, SEED, log)
    assert stepwise.moves == at_once.moves and stepwise.scores == at_once.scores
    history = tell_log(engine, options, players, SEED, log).history()
    assert stepwise.score_series() == [*history.scores, *([history.final] if history.final else [])]
    told = spectated(engine, options, players, SEED, log)
    assert [[e.model_dump(mode="json", include={"key", "params"}) for e in m.events] for m in at_once.moves] == [
        m["events"] for m in told["moves"]
    ], "each move's events are the public ones, as the spectator's log tells them"
    assert at_once.views is not None and len(at_once.views) == len(log) + 1
    assert at_once.views[-1].model_dump(mode="json") == told["end"]


def test_a_log_that_took_a_move_back_or_went_another_way_does_not_follow() -> None:
    game, players, options = GAMES[1]
    engine = engine_of(game)
    log = played(game, players, options, seed=SEED)
    telling = tell_moves(engine, engine.new_game(engine.load_options(options), players, SEED), log[:20])
    assert telling.follows(log[:20]) and telling.follows(log[:30])
    assert not telling.follows(log[:19]), "the last move was taken back"
    assert not telling.follows([*log[:19], log[25]]), "another move was made instead"
