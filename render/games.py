"""What the shared pictures (a replay's frames, the score chart, the art drawn ahead) need of each game: one entry
its render package exports, so no shared module keeps a table by game id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.labels import Labels

RGB = tuple[int, int, int]
Frame = Callable[[Any, Labels, Sequence[str]], Image.Image]
"""(public view, labels, player names) -> the public table's picture, as the game posts it."""


@dataclass(frozen=True)
class GamePictures:
    """A game's pictures as the shared ones use them: its public table drawn from a public view (a replay's
    frame), its seats' colours (the chart's lines), and what draws its static art once in a language, if any."""

    frame: Frame
    colours: tuple[RGB, ...]
    warm: Callable[[Labels], None] | None = None

    def seat_colours(self, n_players: int) -> list[RGB]:
        """The colours of the seats of an `n_players` game (repeated past the palette's end)."""
        return [self.colours[seat % len(self.colours)] for seat in range(n_players)]
