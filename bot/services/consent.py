"""Undo by consent, and votes to pause, resume or end a running game: who may ask, who votes, what carries it.

An undo asks the other people in the game (bot players agree at once; one refusal refuses it); a pause, a resume or
an end asks everyone in it and carries with more than half of them (bot players do not vote). The asker's answer is
yes and cannot change. One vote is open in a game at a time, and a person whose vote of a kind was refused or lapsed
may not ask for that kind again in that game until `cooldown` seconds after it closed, so nobody can flood the
channel with votes. A vote lapses after `VOTE_SECONDS`, an undo also as soon as anyone moves, and every vote when its
game closes; none outlives a restart. Every vote, ballot and outcome is stored (`VoteStore`), and a move taken back
stays in the log, marked.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.i18n import escaped
from bot.services.errors import ServiceError, ServiceReason
from bot.services.games import GameListener, GameService, Outcome
from bot.services.moves import Moves
from bot.storage.games import GameRecord
from bot.storage.votes import Outcome as VoteOutcome
from bot.storage.votes import VoteKind, VoteRecord, VoteStore
from rules.engine import Message

log = logging.getLogger(__name__)

VOTE_SECONDS = 180.0
"""How long a vote stays open before it lapses."""
COOLDOWN_SECONDS = 300.0
"""How long after a refused or lapsed vote its asker may not ask for that kind again in that game (the bot passes
its setting, `vote_cooldown_minutes`)."""

Presenter = Callable[["Vote"], Awaitable[None]]
"""Show a vote that closed without a click (it lapsed): its message loses its buttons."""
Resync = Callable[[int], Awaitable[None]]
"""Match a game's turn timers to who is to act (the timer service's `sync`)."""


@dataclass
class Vote:
    """An open (or just closed) vote: what was asked, the game as it was then, the ballots and the outcome."""

    record: VoteRecord
    game: GameRecord
    opened: float
    """When it was opened, by the service's clock."""
    ballots: dict[int, bool] = field(default_factory=dict)
    outcome: VoteOutcome | None = None
    where: tuple[int, int] | None = None
    """(channel id, message id) of its public message, once posted."""

    @property
    def voters(self) -> list[int]:
        """The people whose ballots count, in seat order: the others for an undo, everyone for the rest."""
        people = [s.user_id for s in self.game.seats if s.user_id is not None]
        return [p for p in people if p != self.record.user_id] if self.record.kind == "undo" else people

    @property
    def needed(self) -> int:
        """Yes votes that carry it: every voter for an undo, else more than half."""
        voters = len(self.voters)
        return voters if self.record.kind == "undo" else voters // 2 + 1

    def count(self, yes: bool) -> list[int]:
        """The voters who voted yes (or no), in seat order."""
        return [voter for voter in self.voters if self.ballots.get(voter) is yes]

    def decided(self) -> VoteOutcome | None:
        """Carried once enough said yes; refused once that can no longer happen (one no refuses an undo)."""
        if len(self.count(True)) >= self.needed:
            return "carried"
        if len(self.voters) - len(self.count(False)) < self.needed:
            return "refused"
        return None


class ConsentService(GameListener):
    """Opens votes, counts ballots and carries out what a vote decides; listens to games for moves and closes."""

    def __init__(
        self,
        store: VoteStore,
        games: GameService,
        moves: Moves,
        *,
        clock: Callable[[], float],
        resync: Resync | None = None,
        lapse_after: float = VOTE_SECONDS,
        cooldown: float = COOLDOWN_SECONDS,
    ) -> None:
        self.store = store
        self.games = games
        self.moves = moves
        self.clock = clock
        self.resync = resync
        self.lapse_after = lapse_after
        self.cooldown = cooldown
        self.present: Presenter | None = None
        self._votes: dict[int, Vote] = {}
        """Vote id → an open vote."""
        self._lock = asyncio.Lock()
        """Ballots are counted and votes carried out one at a time."""
        self._timers: dict[int, asyncio.Task[None]] = {}

    async def load(self) -> None:
        """At start: pause the games paused by vote, and close the votes a restart interrupted as lapsed."""
        for game_id in await self.store.paused():
            self.moves.set_paused(game_id, True)
        await self.store.lapse_open()

    # ---- asking -------------------------------------------------------------------------------------------

    async def ask_undo(self, game_id: int, user_id: int) -> Vote:
        """Ask to take back this person's last move, if it may be (else ServiceError with the reason)."""
        move = await self.moves.take_back(game_id, user_id)
        return await self._open(game_id, "undo", user_id, move.version, move.seq)

    async def ask(self, game_id: int, user_id: int, kind: VoteKind) -> Vote:
        """Open a vote to pause, resume or end a running game (a person in it asks)."""
        record = await self.games.get(game_id)
        if record.status != "active":
            raise ServiceError(ServiceReason.NOT_RUNNING)
        if record.seat_of(user_id) is None:
            raise ServiceError(ServiceReason.NOT_A_PLAYER)
        paused = self.moves.paused(game_id)
        if kind == "pause" and paused:
            raise ServiceError(ServiceReason.ALREADY_PAUSED)
        if kind == "resume" and not paused:
            raise ServiceError(ServiceReason.NOT_PAUSED)
        return await self._open(game_id, kind, user_id, record.version)

    async def _open(self, game_id: int, kind: VoteKind, user_id: int, version: int, seq: int | None = None) -> Vote:
        async with self._lock:
            await self._check_may_open(game_id, kind, user_id)
            game = await self.games.get(game_id)
            record = await self.store.open(game_id, kind, user_id, version, seq)
            vote = Vote(record=record, game=game, opened=self.clock(), ballots={user_id: True})
            self._votes[record.id] = vote
            self._timers[record.id] = asyncio.create_task(self._lapse_later(record.id), name=f"vote-{record.id}")
            await self._settle(vote)
            return vote

    async def _check_may_open(self, game_id: int, kind: VoteKind, user_id: int) -> None:
        """Refuse a second open vote in a game (naming the open one), and a kind its asker saw fail too recently."""
        open_vote = next((v for v in self._votes.values() if v.record.game_id == game_id), None)
        if open_vote is not None:
            asker = next((s.name for s in open_vote.game.seats if s.user_id == open_vote.record.user_id), "?")
            asked = Message(key=f"undo.asked.{open_vote.record.kind}")
            raise ServiceError(ServiceReason.ALREADY_OPEN, player=escaped(asker), vote=asked)
        closed = await self.store.last_failed(game_id, user_id, kind)
        if closed is None:
            return
        again = datetime.fromisoformat(closed).timestamp() + self.cooldown
        if self.clock() < again:
            raise ServiceError(ServiceReason.COOLDOWN, at=math.ceil(again))

    def shown_at(self, vote: Vote, channel_id: int, message_id: int) -> Awaitable[None]:
        """Remember where a vote is shown."""
        vote.where = (channel_id, message_id)
        return self.store.shown_at(vote.record.id, channel_id, message_id)

    # ---- voting -------------------------------------------------------------------------------------------

    async def cast(self, vote_id: int, user_id: int, yes: bool) -> Vote:
        """Count a voter's ballot and carry out what it decides; refused to its asker (their yes stands) and to
        anyone who does not vote on it."""
        async with self._lock:
            vote = self._votes.get(vote_id)
            if vote is None:
                raise ServiceError(ServiceReason.VOTE_CLOSED)
            if self.clock() - vote.opened >= self.lapse_after:
                await self._close(vote, "lapsed")
                raise ServiceError(ServiceReason.VOTE_CLOSED)
            if user_id == vote.record.user_id:
                raise ServiceError(ServiceReason.OWN_VOTE)
            if user_id not in vote.voters:
                raise ServiceError(ServiceReason.NOT_A_VOTER)
            await self.store.cast(vote_id, user_id, yes)
            vote.ballots[user_id] = yes
            await self._settle(vote)
            return vote

    async def _settle(self, vote: Vote) -> None:
        """Close a vote its ballots decide, carrying it out if carried (an undo the game moved past lapses)."""
        outcome = vote.decided()
        if outcome == "carried":
            try:
                await self._carry(vote)
            except ServiceError:
                outcome = "lapsed"
        if outcome is not None:
            await self._close(vote, outcome)

    async def _carry(self, vote: Vote) -> None:
        record = vote.record
        game_id = record.game_id
        if record.kind == "undo":
            assert record.seq is not None
            vote.game = await self.moves.undo(game_id, record.user_id, record.seq, record.version)
        elif record.kind == "end":
            vote.game = await self.moves.end(game_id)
            return
        else:
            paused = record.kind == "pause"
            await self.store.database.write(self.store.pause_statements(game_id, paused))
            self.moves.set_paused(game_id, paused)
        if self.resync is not None:
            await self.resync(game_id)

    async def _close(self, vote: Vote, outcome: VoteOutcome) -> None:
        vote.outcome = outcome
        self._votes.pop(vote.record.id, None)
        timer = self._timers.pop(vote.record.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        await self.store.close(vote.record.id, outcome)

    # ---- lapsing ------------------------------------------------------------------------------------------

    async def _lapse_later(self, vote_id: int) -> None:
        await asyncio.sleep(self.lapse_after)
        await self._lapse(lambda vote: vote.record.id == vote_id)

    async def _lapse(self, which: Callable[[Vote], bool]) -> None:
        """Close the open votes `which` picks as lapsed, and show them so."""
        async with self._lock:
            lapsed = [vote for vote in self._votes.values() if which(vote)]
            for vote in lapsed:
                await self._close(vote, "lapsed")
        for vote in lapsed:
            if self.present is not None:
                try:
                    await self.present(vote)
                except Exception:
                    log.exception("could not show that vote %s lapsed", vote.record.id)

    async def on_moved(self, outcome: Outcome) -> None:
        """Anyone's move makes an undo asked before it lapse."""
        game_id, version = outcome.record.id, outcome.record.version
        await self._lapse(lambda vote: _asked_before(vote, game_id, version))

    async def on_closed(self, record: GameRecord) -> None:
        """A game that closed votes on nothing more."""
        await self._lapse(lambda vote: vote.record.game_id == record.id)

    async def close(self) -> None:
        """Stop the lapse timers (the votes still open lapse at the next start)."""
        for timer in self._timers.values():
            timer.cancel()
        await asyncio.gather(*self._timers.values(), return_exceptions=True)
        self._timers.clear()


def _asked_before(vote: Vote, game_id: int, version: int) -> bool:
    """Whether a vote is an undo of this game asked before it reached `version`."""
    return vote.record.game_id == game_id and vote.record.kind == "undo" and vote.record.version < version
