"""Scoring (R-CG-13 … R-CG-16): stacks against tickets, big-city majorities, totals and tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.cardgame.assignment import best_assignment
from rules.cardgame.state import CardGameState, ScoringRecord, TicketScore
from rules.cardgame.tickets import city_message, load_data
from rules.engine import GameResult, Message, PlayerResult, ScoreLine


class BigCityResult(BaseModel):
    """One big city's bonus card: completed tickets naming it per seat, and who takes the bonus (R-CG-15)."""

    model_config = ConfigDict(frozen=True)

    city: str
    bonus: int
    counts: tuple[int, ...]
    winners: tuple[int, ...]


def score_stack(seat: int, stack: Sequence[int], tickets: Sequence[int]) -> ScoringRecord:
    """Reveal one player's stack and score it against their tickets with the exact best assignment."""
    data = load_data()
    assignment = best_assignment(stack, [data.ticket(t) for t in tickets])
    completed = tuple(TicketScore(ticket=t, cards=assignment.cards[t]) for t in assignment.completed)
    unfinished = tuple(sorted(t for t in tickets if t not in assignment.cards))
    return ScoringRecord(
        seat=seat, stack=tuple(stack), completed=completed, unfinished=unfinished, unused=assignment.unused
    )


def completed_tickets(state: CardGameState, seat: int) -> list[int]:
    """Every ticket `seat` completed, at the first scoring (4 players) and the final one."""
    return [
        score.ticket
        for scoring in (state.first_scoring, state.final_scoring)
        if scoring is not None
        for score in scoring[seat].completed
    ]


def big_cities(state: CardGameState) -> list[BigCityResult]:
    """Return each big city's majority: most completed tickets naming it wins, ties all win, at least 1."""
    data = load_data()
    completed = [completed_tickets(state, seat) for seat in range(state.n_players)]
    results = []
    for city, bonus in data.big_city_bonus.items():
        counts = tuple(sum(city in data.ticket(t).big_cities for t in tickets) for tickets in completed)
        most = max(counts)
        winners = tuple(seat for seat, count in enumerate(counts) if most and count == most)
        results.append(BigCityResult(city=city, bonus=bonus, counts=counts, winners=winners))
    return results


def game_result(state: CardGameState) -> GameResult:
    """Final totals with a line per ticket and bonus, ordered best first; winners after the tie-breaks."""
    assert state.final_scoring is not None
    cities = big_cities(state)
    players = []
    keys = {}
    for seat in range(state.n_players):
        lines: list[ScoreLine] = []
        if state.first_scoring is not None:
            lines += _ticket_lines(state.first_scoring[seat], "cardgame.score.ticket_completed_first", False)
        lines += _ticket_lines(state.final_scoring[seat], "cardgame.score.ticket_completed", True)
        bonuses = [c for c in cities if seat in c.winners]
        lines += [
            ScoreLine(
                label=Message(key="cardgame.score.big_city", params={"city": city_message(c.city)}), points=c.bonus
            )
            for c in bonuses
        ]
        total = sum(line.points for line in lines)
        keys[seat] = (total, len(completed_tickets(state, seat)), len(bonuses))
        players.append(PlayerResult(seat=seat, total=total, breakdown=lines))
    players.sort(key=lambda p: (keys[p.seat], -p.seat), reverse=True)
    best = keys[players[0].seat]
    winners = [p.seat for p in players if keys[p.seat] == best]
    return GameResult(players=players, winners=sorted(winners))


def _ticket_lines(record: ScoringRecord, completed_key: str, final: bool) -> list[ScoreLine]:
    """Score lines of one scoring: completed tickets add; at the final scoring unfinished ones subtract."""
    data = load_data()
    lines = [
        ScoreLine(
            label=Message(key=completed_key, params={"ticket": data.ticket(s.ticket).message()}),
            points=data.ticket(s.ticket).points,
        )
        for s in record.completed
    ]
    if final:
        lines += [
            ScoreLine(
                label=Message(key="cardgame.score.ticket_unfinished", params={"ticket": data.ticket(t).message()}),
                points=-data.ticket(t).points,
            )
            for t in record.unfinished
        ]
    return lines
