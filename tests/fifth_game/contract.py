"""The coin race's part of the engine contract: its invariant; it hides nothing but the coin's future."""

from __future__ import annotations

from tests.fifth_game.rules import CoinState
from tests.rules.contract import ContractCase, only_the_future


def invariant(state: CoinState) -> None:
    """No token past the target, no more steps than flips, at most one token home."""
    assert all(0 <= n <= state.options.target for n in state.steps)
    assert sum(state.steps) <= state.flips
    assert sum(n == state.options.target for n in state.steps) <= 1


CASE = ContractCase(invariant=invariant, scramble=only_the_future, configs=[(2, {}), (2, {"target": 8})])
