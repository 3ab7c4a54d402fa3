"""The coin race keeps the engine contract: every check the listed games' playouts pass, on its own playouts."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.fifth_game.bot import GAME
from tests.fifth_game.contract import CASE
from tests.rules.test_engine_contract import CHECKS, Game, cases_of, play


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_the_coin_race_keeps_the_engine_contract(check: Callable[[Game], None]) -> None:
    for case in cases_of(GAME.engine, CASE):
        check(play(case))
