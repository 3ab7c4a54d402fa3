"""What ratings and /stats read of Ticket to Ride: the map, longest trail, tickets and tracks of each seat, and the
stats card's best trail, tickets and favourite routes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import text
from bot.services.ratings import GameRatings
from bot.storage.ratings import SeatResult
from render.stats import Figure
from rules.engine import GameResult, Seat
from rules.ttr.board import board_for
from rules.ttr.scoring import final_scores
from rules.ttr.state import TtrState

ROUTES_SHOWN = 3


def facts(state: TtrState, result: GameResult) -> dict[Seat, dict[str, Any]]:
    """Per seat: the map, longest trail, tickets completed and failed, and the ids of the tracks claimed."""
    board = board_for(state.map_id)
    return {
        score.seat: {
            "map": state.map_id,
            "trail": score.trail_length,
            "tickets_done": score.completed,
            "tickets_failed": len(score.tickets) - score.completed,
            "tracks": [board.track_ids[i] for i, owner in enumerate(state.owners) if owner == score.seat],
        }
        for score in final_scores(state)
    }


def points_so_far(state: TtrState) -> dict[Seat, int]:
    """The route points on the board."""
    return dict(enumerate(state.route_points))


def summary(results: Sequence[SeatResult]) -> dict[str, Any]:
    """Tickets done and failed, the best trail, and the three tracks claimed most as (map, track id, times)."""
    routes = Counter((str(r.facts.get("map")), int(t)) for r in results for t in r.facts.get("tracks", ()))
    return {
        "tickets_done": sum(int(r.facts.get("tickets_done", 0)) for r in results),
        "tickets_failed": sum(int(r.facts.get("tickets_failed", 0)) for r in results),
        "best_trail": max((int(r.facts.get("trail", 0)) for r in results), default=0),
        "routes": [(m, t, n) for (m, t), n in sorted(routes.items(), key=lambda item: (-item[1], item[0]))][:3],
    }


def figures(language: str, facts: Mapping[str, Any]) -> tuple[tuple[Figure, ...], tuple[tuple[str, int], ...]]:
    """The stats card's best trail and tickets, and the favourite routes named in the reader's language."""
    failed = facts["tickets_failed"]
    shown = (
        Figure("best_trail", str(facts["best_trail"])),
        Figure("tickets_done", str(facts["tickets_done"]), "good"),
        Figure("tickets_failed", str(failed), "bad" if failed else "plain"),
    )
    return shown, tuple((route_name(language, m, t), n) for m, t, n in facts["routes"][:ROUTES_SHOWN])


def route_name(language: str, map_id: str, track_id: int) -> str:
    """A track as its two cities in the reader's language ("Calgary – Vancouver")."""
    board = board_for(map_id)
    index = board.track_index[track_id]
    cities = (board.city_messages[board.track_a[index]], board.city_messages[board.track_b[index]])
    return " – ".join(text(language, city.key) for city in cities)


RATINGS = GameRatings(family="ttr", facts=facts, points_so_far=points_so_far, summary=summary)
