"""The board pages' routes: a game's page, its data, its live updates and its replay behind a signed token, and the
maps and files every page shares.

- `GET /b/{token}`: the page (static/page.html, nothing filled in: it reads its token from its own address);
- `GET /b/{token}/state.json`: the game's page data as its channel last showed it (page_data.py);
- `GET /b/{token}/events`: Server-Sent Events, `event: state` with the same data at once and at every version shown
  in Discord, `: ping` every `PING_SECONDS`;
- `GET /b/{token}/replay.json`: a finished game's replay;
- `GET /web/maps/{map}.json`: a Ticket to Ride map's geometry (maps.py); `GET /web/static/{file}`: the page's files.

A token that opens nothing is refused with a short page (the page) or a JSON error (`{"error": reason, "message":
words}`, the data): 404 for a token that is not one of ours, 403 for one whose time is up; the words are in the
reader's language (Accept-Language), as the game's is not theirs to learn from a bad link.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
from functools import cache

from aiohttp import web

from bot.i18n import language_of, text
from bot.settings import Settings
from bot.ui.parts import Bot
from bot.web.board import tokens
from bot.web.board.live import CLOSED, Board, NotOnBoard, event
from bot.web.board.maps import map_data
from bot.web.board.page_data import as_json
from bot.web.board.replays import Replays
from bot.web.board.static_files import StaticFiles

PING_SECONDS = 15.0
"""How often an idle event stream says it is alive (and finds out whether its reader still is)."""
RETRY_MS = 5000
"""How long a browser waits before reconnecting a stream that broke."""
BUSY_RETRY = "30"
"""Seconds a reader refused for the caps is told to wait."""
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}
"""What answers behind a token carry: never kept by a cache, and the token never sent on as a referrer."""
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page runs only its own files, fetches only from here, and is framed nowhere."""
MAP_KEPT = "public, max-age=86400"
"""A map's geometry changes only with a new version of the bot."""

STATUS = {
    tokens.Refusal.UNKNOWN.value: 404,
    tokens.Refusal.EXPIRED.value: 403,
    "no_board": 404,
    "not_finished": 409,
    "no_map": 404,
    "busy": 503,
}


class Refused(Exception):
    """A request answered with a refusal (`web.refused.<reason>`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BoardRoutes:
    """The handlers of the board routes."""

    def __init__(self, bot: Bot, settings: Settings, board: Board) -> None:
        assert settings.web_secret is not None, "the settings refuse web_listen without web_secret"
        self.bot = bot
        self.board = board
        self.replays = Replays(bot)
        self.static = StaticFiles()
        self._secret = settings.web_secret.get_secret_value().encode("utf-8")

    def add_to(self, app: web.Application) -> None:
        """Add the routes to an application."""
        app.router.add_get("/b/{token}", self.page)
        app.router.add_get("/b/{token}/state.json", self.state)
        app.router.add_get("/b/{token}/events", self.events)
        app.router.add_get("/b/{token}/replay.json", self.replay)
        app.router.add_get("/web/maps/{map}.json", self.map)
        app.router.add_get("/web/static/{name}", self.static.serve)

    async def page(self, request: web.Request) -> web.Response:
        """The board page of the game the token opens."""
        try:
            self._game_id(request)
            page = self.static.page()
            if page is None:
                raise Refused("no_board")
        except Refused as refusal:
            return self._refused_page(request, refusal.reason)
        headers = PRIVATE | {"Content-Security-Policy": PAGE_POLICY}
        response = web.Response(body=page, content_type="text/html", charset="utf-8", headers=headers)
        response.enable_compression()
        return response

    async def state(self, request: web.Request) -> web.Response:
        """The page data of the game the token opens."""
        try:
            data = await self._data(self._game_id(request))
        except Refused as refusal:
            return self._refused_json(request, refusal.reason)
        return _json(data)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The game's page data now and at every version shown, as Server-Sent Events, until the reader leaves (or
        falls too far behind, or the server stops)."""
        try:
            game_id = self._game_id(request)
            await self._data(game_id)  # a game with no board opens no stream
            stream = self.board.open(game_id, request)
            if stream is None:
                raise Refused("busy")
        except Refused as refusal:
            return self._refused_json(request, refusal.reason)
        response = web.StreamResponse(
            headers=PRIVATE | {"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
        )
        try:
            await response.prepare(request)
            data = await self._data(game_id)  # after opening: an update meanwhile is queued, never missed
            await response.write(f"retry: {RETRY_MS}\n".encode("ascii") + event(data))
            while not stream.dropped:
                try:
                    message = await asyncio.wait_for(stream.queue.get(), PING_SECONDS)
                except TimeoutError:
                    message = b": ping\n\n"
                if message == CLOSED:
                    break
                await response.write(message)
        except (ConnectionError, Refused):
            pass  # the reader left, was dropped, or the game's board went away
        finally:
            self.board.close_stream(stream)
        with contextlib.suppress(ConnectionError):
            await response.write_eof()
        return response

    async def replay(self, request: web.Request) -> web.Response:
        """A finished game's replay: every move's public view, the story and the scores."""
        try:
            record = await self.bot.records.get(self._game_id(request))
            if record is None or record.state is None or record.game not in self.bot.games:
                raise Refused("no_board")
            if record.status != "finished":
                raise Refused("not_finished")
        except Refused as refusal:
            return self._refused_json(request, refusal.reason)
        return _json(await self.replays.of(record))

    async def map(self, request: web.Request) -> web.Response:
        """A Ticket to Ride map's geometry, kept by browsers for a day."""
        try:
            data, etag = await asyncio.to_thread(_map_json, request.match_info["map"])
        except KeyError:
            return self._refused_json(request, "no_map")
        headers = {"Cache-Control": MAP_KEPT, "ETag": etag}
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        response = web.Response(body=data, content_type="application/json", headers=headers)
        response.enable_compression()
        return response

    def _game_id(self, request: web.Request) -> int:
        """The game the request's token opens, or Refused."""
        opened = tokens.check(self._secret, request.match_info["token"], self.bot.clock())
        if isinstance(opened, tokens.Refusal):
            raise Refused(opened.value)
        return opened.game_id

    async def _data(self, game_id: int) -> bytes:
        try:
            return await self.board.data(game_id)
        except NotOnBoard:
            raise Refused("no_board") from None

    def _refused_page(self, request: web.Request, reason: str) -> web.Response:
        language = _reader_language(request)
        words = html.escape(text(language, f"web.refused.{reason}"))
        page = (
            f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{words}</title></head><body><p>{words}</p></body></html>"
        )
        return web.Response(
            text=page, content_type="text/html", status=STATUS[reason], headers=PRIVATE | _retry(reason)
        )

    def _refused_json(self, request: web.Request, reason: str) -> web.Response:
        words = text(_reader_language(request), f"web.refused.{reason}")
        body = as_json({"error": str(reason), "message": words})
        return web.Response(
            body=body, content_type="application/json", status=STATUS[reason], headers=PRIVATE | _retry(reason)
        )


def _json(data: bytes) -> web.Response:
    response = web.Response(body=data, content_type="application/json", charset="utf-8", headers=PRIVATE)
    response.enable_compression()
    return response


def _retry(reason: str) -> dict[str, str]:
    return {"Retry-After": BUSY_RETRY} if reason == "busy" else {}


@cache
def _map_json(map_id: str) -> tuple[bytes, str]:
    """A map's geometry as JSON, and its ETag (KeyError for an unknown map)."""
    data = as_json(map_data(map_id))
    return data, f'"{hashlib.sha256(data).hexdigest()[:16]}"'


def _reader_language(request: web.Request) -> str:
    """The reader's first language (Accept-Language) among ours, English otherwise."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
    return language_of(first)
