"""Each watched game's page data, built again whenever its channel shows a newer version, and pushed to the game's
open event streams within moments.

A game is built only while someone looks: at a page's first read, then at each version shown while a stream of it
is open (a version shown while nobody follows it marks the data stale, built again at the next read). Its story is
told from the log once and then move by move (`rules.history.Telling`), off the event loop.

Bounded: at most `web_streams_per_game` streams of one game and `web_streams` in all are open (more are refused);
each stream has a queue of `STREAM_QUEUE` updates, and a client too slow to take them is dropped, not buffered for;
the data of `IDLE_GAMES` games nobody follows is kept for their next read, the rest forgotten.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field

from aiohttp import web
from pydantic import BaseModel

from bot.services.games import GameListener
from bot.settings import Settings
from bot.storage.games import GameRecord
from bot.ui.parts import Bot
from bot.web.board.page_data import as_json, page_data
from rules.history import Telling

log = logging.getLogger(__name__)

STREAM_QUEUE = 8
"""Updates one stream may have waiting to be sent: a client that falls this far behind is dropped (each update holds
the whole page data, so nothing is lost by a reload)."""
IDLE_GAMES = 32
"""Games whose data is kept while no stream follows them, for their next read."""
CLOSED = b""
"""Put in a stream's queue to end it (the server is stopping)."""


class NotOnBoard(Exception):
    """The game has no board to show: unknown, or a lobby not started."""


def event(data: bytes) -> bytes:
    """A state update as one Server-Sent Event."""
    return b"event: state\ndata: " + data + b"\n\n"


@dataclass(eq=False)
class Stream:
    """One open event stream of a game: the updates waiting to be sent to it."""

    game_id: int
    transport: asyncio.Transport | None
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(STREAM_QUEUE))
    dropped: bool = False

    def send(self, message: bytes) -> bool:
        """Queue a message; a client whose queue is full is too slow: its connection is cut (False, the first time)."""
        if self.dropped:
            return True
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.info("dropping a slow board stream of game %d", self.game_id)
            self.dropped = True
            if self.transport is not None:
                self.transport.abort()
            return False
        return True


class GameFeed:
    """One game's page data as last built, and its open streams."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.data: bytes | None = None
        self.version = 0
        """The game's version the data shows."""
        self.stale = True
        self.streams: set[Stream] = set()
        self.telling: Telling | None = None
        self.lock = asyncio.Lock()
        """Held while the data is built: one build at a time."""
        self.pushing: asyncio.Task[None] | None = None


class Board(GameListener):
    """The board pages' live side: the watched games' data, their streams, and the news of shown versions."""

    def __init__(self, bot: Bot, settings: Settings) -> None:
        self.bot = bot
        self.per_game = settings.web_streams_per_game
        self.in_all = settings.web_streams
        self._feeds: OrderedDict[int, GameFeed] = OrderedDict()
        """Game id → its feed, the least recently read first."""
        self._streams = 0
        self.dropped = 0
        """How many streams were cut for being too slow."""

    # ---- attached to the bot while the server runs ------------------------------------------------------------

    def attach(self) -> None:
        """Hear of every version a channel shows, and of games ended early."""
        self.bot.shown.watch(self.shown)
        self.bot.service.add_listener(self)

    def detach(self) -> None:
        """Undo `attach`."""
        self.bot.shown.unwatch(self.shown)
        self.bot.service.remove_listener(self)

    async def close(self) -> None:
        """End every open stream (the server is stopping)."""
        pushing = [feed.pushing for feed in self._feeds.values() if feed.pushing is not None]
        for feed in self._feeds.values():
            for stream in feed.streams:
                stream.send(CLOSED)
        for task in pushing:
            task.cancel()
        await asyncio.gather(*pushing, return_exceptions=True)

    # ---- what the pages read ---------------------------------------------------------------------------------

    async def data(self, game_id: int) -> bytes:
        """A game's page data as its channel last showed it (built now if stale); NotOnBoard if it has none."""
        feed = self._feed(game_id)
        async with feed.lock:
            if feed.stale or feed.data is None:
                feed.stale = False
                try:
                    feed.data, feed.version = await self._build(feed)
                except BaseException:
                    feed.stale = True
                    raise
            return feed.data

    def open(self, game_id: int, request: web.Request) -> Stream | None:
        """A new stream of a game, or None when the caps are reached."""
        feed = self._feed(game_id)
        if len(feed.streams) >= self.per_game or self._streams >= self.in_all:
            return None
        stream = Stream(game_id, request.transport)
        feed.streams.add(stream)
        self._streams += 1
        return stream

    def close_stream(self, stream: Stream) -> None:
        """Forget a stream that ended."""
        feed = self._feeds.get(stream.game_id)
        if feed is not None and stream in feed.streams:
            feed.streams.discard(stream)
            self._streams -= 1
            self._tidy()

    @property
    def open_streams(self) -> int:
        """How many streams are open in all."""
        return self._streams

    async def refresh(self, game_id: int) -> None:
        """Build a game's data again now and push it to its streams (as a newly shown version does)."""
        feed = self._feed(game_id)
        feed.stale = True
        await self._push(feed)

    # ---- the news ----------------------------------------------------------------------------------------------

    def shown(self, game_id: int, version: int) -> None:
        """A channel shows a newer version of a game: its data is stale, and is built and pushed at once if followed."""
        feed = self._feeds.get(game_id)
        if feed is None:
            return
        feed.stale = True
        if feed.streams and (feed.pushing is None or feed.pushing.done()):
            feed.pushing = asyncio.create_task(self._push(feed), name=f"board-push-{game_id}")

    async def on_closed(self, record: GameRecord) -> None:
        """A game ended early (or a lobby was cancelled): its page says so."""
        self.shown(record.id, record.version)

    # ---- building ------------------------------------------------------------------------------------------------

    async def _push(self, feed: GameFeed) -> None:
        """Build the data while it is stale and send each build to the game's streams."""
        while feed.stale and feed.streams:
            try:
                data = await self.data(feed.game_id)
            except NotOnBoard:
                return
            except Exception:
                log.exception("could not build the board data of game %d", feed.game_id)
                return
            message = event(data)
            self.dropped += sum(not stream.send(message) for stream in list(feed.streams))

    def _feed(self, game_id: int) -> GameFeed:
        """A game's feed, made if new, and marked as read now."""
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = GameFeed(game_id)
            self._tidy()
        self._feeds.move_to_end(game_id)
        return feed

    def _tidy(self) -> None:
        """Forget the least recently read games nobody follows beyond the `IDLE_GAMES` kept."""
        idle = [game_id for game_id, feed in self._feeds.items() if not feed.streams and not feed.lock.locked()]
        for game_id in idle[: max(0, len(idle) - IDLE_GAMES)]:
            del self._feeds[game_id]

    async def _build(self, feed: GameFeed) -> tuple[bytes, int]:
        """The game's page data as it stands, its story told on from where it was (from the start if a move was
        taken back), off the event loop."""
        record, state = await self._stored(feed.game_id)
        info = self.bot.games[record.game]
        engine = info.engine
        moves = await self.bot.records.actions(record.id)
        language = await self.bot.public_language(record.guild_id)
        telling = feed.telling
        if telling is None or not telling.follows(moves):
            start = engine.new_game(engine.load_options(record.options), len(record.seats), record.seed)
            telling = Telling(engine, start)

        def build() -> bytes:
            telling.extend(moves)
            return as_json(page_data(info, record, state, telling, language))

        data = await asyncio.to_thread(build)
        feed.telling = telling
        return data, record.version

    async def _stored(self, game_id: int) -> tuple[GameRecord, BaseModel]:
        """A game and its state: the running game in memory (record and state read together), else as stored."""
        table = self.bot.service.live.get(game_id)
        if table is not None and table.state is not None:
            return table.record, table.state
        record = await self.bot.records.get(game_id)
        if record is None or record.state is None or record.game not in self.bot.games:
            raise NotOnBoard(game_id)
        return record, self.bot.games[record.game].engine.load_state(record.state)
