"""Seeded randomness that lives inside a game state, so a game replays exactly from its seed and log."""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict


class Rng(BaseModel):
    """A seed and how many random streams were taken from it: the whole generator state, two integers."""

    model_config = ConfigDict(frozen=True)

    seed: int
    draws: int = 0

    def next(self) -> tuple[random.Random, Rng]:
        """Return a generator for one random event (a roll, a shuffle) and the advanced Rng to store."""
        # String seeds hash with SHA-512 in CPython: stable across runs, platforms and versions.
        return random.Random(f"{self.seed}/{self.draws}"), Rng(seed=self.seed, draws=self.draws + 1)
