"""What ratings and /stats read of the dice game: each seat's mode, scoring turns and best turn from its score
lines, its standing, and the stats card's best turn and scoring turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.services.ratings import GameRatings
from bot.storage.ratings import SeatResult
from render.stats import Figure
from rules.dice.state import DiceState
from rules.engine import GameResult, Seat


def facts(state: DiceState, result: GameResult) -> dict[Seat, dict[str, Any]]:
    """Per seat: the mode, how many turns scored (one score line each) and the best of them."""
    return {
        player.seat: {
            "mode": state.options.mode.value,
            "scoring_turns": len(player.breakdown),
            "best_turn": max((line.points for line in player.breakdown), default=0),
        }
        for player in result.players
    }


def points_so_far(state: DiceState) -> dict[Seat, int]:
    """Each seat's standing."""
    return {seat: state.standing(seat) for seat in range(state.n_players)}


def summary(results: Sequence[SeatResult]) -> dict[str, Any]:
    """The best turn and how many turns scored."""
    return {
        "best_turn": max((int(r.facts.get("best_turn", 0)) for r in results), default=0),
        "scoring_turns": sum(int(r.facts.get("scoring_turns", 0)) for r in results),
    }


def figures(language: str, facts: Mapping[str, Any]) -> tuple[tuple[Figure, ...], tuple[tuple[str, int], ...]]:
    """The stats card's best turn and scoring turns (no routes)."""
    return (Figure("best_turn", str(facts["best_turn"])), Figure("scoring_turns", str(facts["scoring_turns"]))), ()


RATINGS = GameRatings(family="dice", facts=facts, points_so_far=points_so_far, summary=summary)
