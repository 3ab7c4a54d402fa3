"""What ratings and /stats read of the card game: each seat's tickets and big cities from its score lines, the
points of its public scorings, and the stats card's big cities and tickets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.services.ratings import GameRatings
from bot.storage.ratings import SeatResult
from render.stats import Figure
from rules.cardgame.state import CardGameState
from rules.cardgame.tickets import load_data
from rules.engine import GameResult, Seat


def facts(state: CardGameState, result: GameResult) -> dict[Seat, dict[str, Any]]:
    """Per seat: tickets completed and unfinished, and big cities, counted from its score lines."""
    found = {}
    for player in result.players:
        keys = [line.label.key for line in player.breakdown]
        found[player.seat] = {
            "tickets_done": sum(key.startswith("cardgame.score.ticket_completed") for key in keys),
            "tickets_failed": keys.count("cardgame.score.ticket_unfinished"),
            "big_cities": keys.count("cardgame.score.big_city"),
        }
    return found


def points_so_far(state: CardGameState) -> dict[Seat, int]:
    """The tickets scored at a public scoring (none before its end with fewer than four players)."""
    tickets = load_data().ticket
    scored = {r.seat: sum(tickets(t.ticket).points for t in r.completed) for r in state.first_scoring or ()}
    return {seat: scored.get(seat, 0) for seat in range(state.n_players)}


def summary(results: Sequence[SeatResult]) -> dict[str, Any]:
    """Tickets done and failed, and big cities."""
    return {
        "tickets_done": sum(int(r.facts.get("tickets_done", 0)) for r in results),
        "tickets_failed": sum(int(r.facts.get("tickets_failed", 0)) for r in results),
        "big_cities": sum(int(r.facts.get("big_cities", 0)) for r in results),
    }


def figures(language: str, facts: Mapping[str, Any]) -> tuple[tuple[Figure, ...], tuple[tuple[str, int], ...]]:
    """The stats card's big cities and tickets (no routes)."""
    failed = facts["tickets_failed"]
    shown = (
        Figure("big_cities", str(facts["big_cities"])),
        Figure("tickets_done", str(facts["tickets_done"]), "good"),
        Figure("tickets_failed", str(failed), "bad" if failed else "plain"),
    )
    return shown, ()


RATINGS = GameRatings(family="cards", facts=facts, points_so_far=points_so_far, summary=summary)
