"""Ratings and stats: every finished game's results are stored once and move its people's OpenSkill ratings.

The rule (docs/ratings.md): finished server games only, bot seats left out of the rating (people are ranked among
themselves; fewer than two people rate nobody), a shared win is a shared place, games are rated in finish order.
A running game its host (not a server admin) ends while others still play it is rated too, as the host's loss
(`forfeited_game`), so ending a game one is losing escapes nothing.
The listener only wakes a background loop once a game's final message is out; the loop stores every finished game
without results, oldest first, so the games finished before ratings existed are backfilled the same way and the
order never depends on which came in live.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import PlackettLuce

from bot.services.background import BackgroundLoop
from bot.services.games import AnyEngine, GameListener, GameService, Outcome
from bot.storage.database import now_iso
from bot.storage.games import GameRecord
from bot.storage.ratings import FinishedGame, Rating, RatingStore, SeatResult, Standing
from rules.engine import GameResult, Seat

log = logging.getLogger(__name__)

SHOWN_BASE = 1000
SHOWN_SCALE = 20
"""The rating shown is round(SHOWN_BASE + SHOWN_SCALE × (mu − 3 sigma)): a newcomer shows 1000."""
BATCH = 50
"""Games read per look at the store while backfilling."""
IDLE_SECONDS = 3600.0
"""How long the loop sleeps when not woken by a finished game (a safety net: each finish wakes it)."""

MODEL = PlackettLuce()


@dataclass(frozen=True)
class GameRatings:
    """What ratings and /stats read of one game (its package's entry holds it): the family it is rated in (both
    Ticket to Ride maps are one), each seat's facts from a finished state and its result, the points a game stopped
    short shows, and a person's facts summed over their results (`Summary.facts`)."""

    family: str
    facts: Callable[[Any, GameResult], Mapping[Seat, dict[str, Any]]]
    points_so_far: Callable[[Any], dict[Seat, int]]
    summary: Callable[[Sequence[SeatResult]], dict[str, Any]]


def shown(rating: Rating) -> int:
    """The friendly number a rating is shown as."""
    return round(SHOWN_BASE + SHOWN_SCALE * rating.ordinal)


def places(result: GameResult) -> dict[int, int]:
    """Seat → place: every winner is first; the others follow in the result's order (after two winners, third)."""
    winners = set(result.winners)
    return {p.seat: 1 if p.seat in winners else index + 1 for index, p in enumerate(result.players)}


def finished_game(engine: AnyEngine, ratings: GameRatings, record: GameRecord, finished_at: str) -> FinishedGame:
    """A finished game's results per seat, with its game's facts, read from its final snapshot."""
    result = None
    if record.state is not None and record.guild_id is not None:
        state = engine.load_state(record.state)
        result = engine.result(state)
    if result is None or record.guild_id is None:
        raise ValueError(f"game {record.id} is stored as finished without a finished snapshot in a server")
    scores = {p.seat: p.total for p in result.players}
    facts = ratings.facts(state, result)
    at = places(result)
    seats = tuple(
        SeatResult(
            seat=s.seat,
            name=s.name,
            place=at[s.seat],
            score=scores[s.seat],
            won=s.seat in result.winners,
            user_id=s.user_id,
            bot_kind=s.bot_kind,
            facts=dict(facts.get(s.seat, {})),
            left_user_id=s.left_user_id,
        )
        for s in record.seats
    )
    return FinishedGame(record.id, record.guild_id, ratings.family, finished_at, seats)


def rated_as_loss(record: GameRecord, user_id: int) -> bool:
    """Whether a person ending this running game counts as their loss: another person still plays in it."""
    return any(s.user_id is not None and s.user_id != user_id for s in record.seats)


def forfeited_game(
    engine: AnyEngine, ratings: GameRatings, record: GameRecord, user_id: int, ended_at: str
) -> FinishedGame:
    """A running game this person ended, as the ratings see it: they are last with no win, the other seats are placed
    by the points everyone could see (equal points share a place), and the first place wins. Its facts are empty:
    trails and tickets of an unfinished game say nothing."""
    if record.state is None or record.guild_id is None:
        raise ValueError(f"game {record.id} has no running snapshot in a server")
    points = ratings.points_so_far(engine.load_state(record.state))
    others = [s.seat for s in record.seats if s.user_id != user_id]
    at = {seat: 1 + sum(points[other] > points[seat] for other in others) for seat in others}
    last = len(record.seats)
    seats = tuple(
        SeatResult(
            seat=s.seat,
            name=s.name,
            place=at.get(s.seat, last),
            score=points[s.seat],
            won=at.get(s.seat) == 1,
            user_id=s.user_id,
            bot_kind=s.bot_kind,
            left_user_id=s.left_user_id,
        )
        for s in record.seats
    )
    return FinishedGame(record.id, record.guild_id, ratings.family, ended_at, seats)


def rate_game(current: Mapping[int, Rating], game: FinishedGame) -> dict[int, Rating]:
    """The ratings a finished game gives its people (empty when fewer than two people played it).

    Bots are left out and the people ranked among themselves; a person whose seat a bot player took over (they
    left, or timed out for good) is ranked below everyone who stayed, so leaving never escapes a loss. OpenSkill's
    Plackett-Luce update mishandles ties in 6.x (a tie for first also lifts the next place to the winners' gain:
    openskill.py issues #155, #201), so a game with tied places is rated once for every order of the tied people
    and each person's new mu and sigma are the mean of those: tied people with equal ratings move equally, and the
    places below are not lifted."""
    last = max((s.place for s in game.seats), default=0) + 1
    people = [(s.user_id, s.place, s.won, s.name) for s in game.seats if s.user_id is not None]
    people += [(s.left_user_id, last, False, s.name) for s in game.seats if s.left_user_id is not None and s.is_bot]
    if len(people) < 2:
        return {}
    before = [current.get(user_id) or Rating(MODEL.mu, MODEL.sigma) for user_id, _, _, _ in people]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    placed = [place for _, place, _, _ in people]
    orders = list(_untied(sorted(set(placed)), placed))
    mus, sigmas = [0.0] * len(people), [0.0] * len(people)
    for ranks in orders:
        for index, (after,) in enumerate(MODEL.rate(teams, ranks=ranks)):
            mus[index] += after.mu / len(orders)
            sigmas[index] += after.sigma / len(orders)
    return {
        user_id: Rating(mus[i], sigmas[i], before[i].games + 1, before[i].wins + int(won), name)
        for i, (user_id, _, won, name) in enumerate(people)
    }


def _untied(distinct: list[int], placed: list[int]) -> Iterator[list[float]]:
    """Every way to break the ties of `placed` (each tied group in every order), as distinct ranks 1, 2, 3 …"""
    groups = [[i for i, p in enumerate(placed) if p == place] for place in distinct]
    for orders in itertools.product(*(itertools.permutations(group) for group in groups)):
        ranks = [0.0] * len(placed)
        for rank, index in enumerate(itertools.chain.from_iterable(orders), start=1):
            ranks[index] = float(rank)
        yield ranks


@dataclass(frozen=True)
class Summary:
    """What /stats shows of a person in one family: totals, scores, and the family's own figures."""

    games: int
    wins: int
    average: float
    best: int
    facts: dict[str, Any]
    """The game's own figures (`GameRatings.summary`), e.g. Ticket to Ride's best trail and favourite routes."""

    @property
    def win_percent(self) -> int:
        """Wins as a whole percentage of the games."""
        return round(100 * self.wins / self.games) if self.games else 0


def summarize(ratings: GameRatings, results: Sequence[SeatResult]) -> Summary:
    """Sum up a person's results in one game's family."""
    games = len(results)
    facts = ratings.summary(results)
    return Summary(
        games=games,
        wins=sum(r.won for r in results),
        average=sum(r.score for r in results) / games if games else 0.0,
        best=max((r.score for r in results), default=0),
        facts=facts,
    )


class RatingService(BackgroundLoop, GameListener):
    """Stores each finished game's results and rates its people, after its final message is out, in finish order.

    Woken by every finished game (`on_moved`); each round stores every finished game of this process's servers
    that has no results yet, oldest first: at start that backfills the games finished before ratings existed."""

    task_name = "ratings"

    def __init__(self, store: RatingStore, service: GameService, games: Mapping[str, GameRatings]) -> None:
        super().__init__()
        self.store = store
        self.service = service
        self.games = games
        """Game id → what ratings read of that game."""
        self.recorded = 0
        """Games stored since start."""
        self._round_done = asyncio.Condition()
        self._rating = asyncio.Lock()
        """One round or forfeit at a time, so games are rated in the order they ended."""

    async def on_moved(self, outcome: Outcome) -> None:
        """A move was shown: if it ended the game, store and rate it soon (never on the move's own path)."""
        if outcome.finished:
            self.poke()

    async def seconds_to_next(self) -> float:
        """Sleep until a finished game wakes the loop."""
        return IDLE_SECONDS

    async def run_due(self) -> int:
        """Store and rate every finished game without results, oldest first; return how many were stored."""
        async with self._rating:
            stored = await self._record_finished()
        await self._count(stored)
        return stored

    async def forfeit(self, record: GameRecord, user_id: int) -> bool:
        """Store and rate a running game this person just ended as their loss (`forfeited_game`), after the finished
        games still waiting; False when it was stored already or has no running snapshot."""
        ended_at = now_iso()
        engine = self.service.engine(record.game)
        try:
            game = await asyncio.to_thread(forfeited_game, engine, self.games[record.game], record, user_id, ended_at)
        except ValueError:
            log.warning("game %s cannot be rated as ended by %s: no running snapshot in a server", record.id, user_id)
            return False
        async with self._rating:
            stored = await self._record_finished()
            recorded = await self.store.record(game, rate_game)
        await self._count(stored + recorded)
        return recorded

    async def _record_finished(self) -> int:
        """Store and rate every finished game without results, oldest first (under `_rating`)."""
        stored = 0
        after = ("", 0)
        while not self._closing:
            todo = await self.store.unrecorded(list(self.games), after=after, limit=BATCH)
            if not todo:
                break
            for game_id, finished_at in todo:
                after = (finished_at, game_id)
                record = await self.service.store.get(game_id)
                if record is None or not self.service.drives(record):
                    continue  # another process's server: it rates its own games
                engine = self.service.engine(record.game)
                try:
                    ratings = self.games[record.game]
                    game = await asyncio.to_thread(finished_game, engine, ratings, record, finished_at)
                except ValueError:
                    log.warning("game %s cannot be rated: its stored snapshot is not a finished game", game_id)
                    continue
                stored += await self.store.record(game, rate_game)
        return stored

    async def _count(self, stored: int) -> None:
        """Add to the games stored since start and wake whoever waits on that count."""
        async with self._round_done:
            self.recorded += stored
            self._round_done.notify_all()

    async def until_recorded(self, count: int) -> None:
        """Wait until `count` games were stored since start (what a test or a bench waits on, never a sleep)."""
        async with self._round_done:
            await self._round_done.wait_for(lambda: self.recorded >= count)


class RatingRecords(Protocol):
    """The stored results and ratings as /stats, /leaderboard and /stats-reset ask for them; the ratings' store
    fulfils it."""

    async def results_of(
        self, guild_id: int, family: str, user_id: int, *, places: Sequence[int] | None = None
    ) -> list[SeatResult]:
        """A person's stored results in a family of games on a server (seen from `places`, if given)."""

    async def families_of(self, guild_id: int, user_id: int, *, places: Sequence[int] | None = None) -> dict[str, int]:
        """The families of games a person played on a server, with how many games of each."""

    async def standing(self, guild_id: int, family: str, user_id: int) -> Standing | None:
        """A person's rating in a family of games on a server, or None before their first rated game."""

    async def top(self, guild_id: int, family: str, limit: int) -> list[Standing]:
        """A server's best rated people in a family of games."""

    async def reset(self, guild_id: int) -> int:
        """Forget a server's ratings: games finished from now on rate anew; how many ratings were dropped."""
