"""The bot's own web server (aiohttp, which discord.py already brings): the live board pages at `web_listen`, and
health and metrics at `ops_listen`, or beside the board pages when no address of their own is set; off when the
settings name no address."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.settings import Settings, listen_address
from bot.web.board import add_board_routes
from bot.web.board.live import Board
from bot.web.board.tokens import fresh
from bot.web.ops import Operated, add_ops_routes

log = logging.getLogger(__name__)


class WebServer:
    """Serves the routes the settings turn on: the board pages (with health and metrics unless those have their own
    address, which then keeps them off a public one) and health and metrics alone."""

    def __init__(self, bot: Operated, settings: Settings) -> None:
        self._bot = bot
        self._settings = settings
        self._runners: list[web.AppRunner] = []
        self.port: int | None = None
        """The board pages' port once started (the one picked when the settings say port 0)."""
        self.ops_port: int | None = None
        """The port of `/healthz` and `/metrics` once started: the board pages' unless `ops_listen` is set."""
        self.board: Board | None = None
        """The live board pages' side that follows the games, when they are on."""

    def board_link(self, game_id: int, now: float) -> str | None:
        """The signed address of a game's live board page, fresh from `now`; None while the board pages are off."""
        secret = self._settings.web_secret
        if self.board is None or self.port is None or secret is None or self._settings.web_listen is None:
            return None
        base = self._settings.web_url
        if base is None:
            host, _ = listen_address(self._settings.web_listen)
            base = f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"
        token = fresh(secret.get_secret_value().encode("utf-8"), game_id, now)
        return f"{base.rstrip('/')}/b/{token}"

    async def start(self) -> None:
        """Listen at each address set."""
        web_listen, ops_listen = self._settings.web_listen, self._settings.ops_listen
        if web_listen is not None:
            app = web.Application()
            self.board = add_board_routes(app, self._bot, self._settings)
            if ops_listen is None:
                add_ops_routes(app, self._bot)
            self.port = await self._serve(app, web_listen)
            self.ops_port = self.port if ops_listen is None else None
        if ops_listen is not None:
            app = web.Application()
            add_ops_routes(app, self._bot)
            self.ops_port = await self._serve(app, ops_listen)

    async def _serve(self, app: web.Application, address: str) -> int:
        """Listen with `app` at `address`; the port it listens on."""
        host, port = listen_address(address)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        self._runners.append(runner)
        site = web.TCPSite(runner, host, port)
        await site.start()
        server = site._server  # aiohttp keeps the bound sockets only here
        sockets = getattr(server, "sockets", None) or ()
        bound = int(sockets[0].getsockname()[1]) if sockets else port
        log.info("web server listening on %s:%d", host, bound)
        return bound

    async def close(self) -> None:
        """Stop listening and close open connections."""
        while self._runners:
            await self._runners.pop().cleanup()
