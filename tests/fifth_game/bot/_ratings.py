"""What ratings and /stats read of the coin race: each seat's steps; no figures of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.services.ratings import GameRatings
from bot.storage.ratings import SeatResult
from render.stats import Figure
from rules.engine import GameResult, Seat
from tests.fifth_game.rules import CoinState


def facts(state: CoinState, result: GameResult) -> dict[Seat, dict[str, Any]]:
    """Per seat: the steps made."""
    return {player.seat: {"steps": player.total} for player in result.players}


def points_so_far(state: CoinState) -> dict[Seat, int]:
    """Each seat's steps."""
    return dict(enumerate(state.steps))


def summary(results: Sequence[SeatResult]) -> dict[str, Any]:
    """Nothing beyond what every game sums."""
    return {}


def figures(language: str, facts: Mapping[str, Any]) -> tuple[tuple[Figure, ...], tuple[tuple[str, int], ...]]:
    """No figures of its own, no routes."""
    return (), ()


RATINGS = GameRatings(family="coin", facts=facts, points_so_far=points_so_far, summary=summary)
