"""Fixtures of the dice rule tests: scripted rolls."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from rules.dice import Face
from rules.dice import engine as engine_module
from rules.rng import Rng

from .helpers import faces


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Script the next rolls: `dice("HBK", "T")` makes the next two rolls show those faces; later ones are random."""
    queue: list[str] = []
    real_roll = engine_module._roll_dice

    def roll(rng: Rng, count: int) -> tuple[tuple[Face, ...], Rng]:
        if not queue:
            return real_roll(rng, count)
        shown = faces(queue.pop(0))
        assert len(shown) == count, f"scripted {len(shown)} dice for a roll of {count}"
        return shown, Rng(seed=rng.seed, draws=rng.draws + 1)

    def script(*rolls: str) -> None:
        queue.extend(rolls)
        monkeypatch.setattr(engine_module, "_roll_dice", roll)

    yield script
    assert not queue, f"scripted rolls never made: {queue}"
