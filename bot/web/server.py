"""One aiohttp server in the bot process (discord.py already brings aiohttp): health and metrics always, the live
board pages when `web_listen` is set; off when the settings name no address."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from aiohttp import web

from bot.settings import Settings
from bot.ui.parts import Bot
from bot.web.board import add_board_routes
from bot.web.board.live import Board
from bot.web.board.tokens import fresh
from bot.web.ops import add_ops_routes

log = logging.getLogger(__name__)


def split_address(address: str) -> tuple[str, int]:
    """Read `host:port` (`[::1]:8080` for IPv6, `:8080` for every address); port 0 picks a free one."""
    parts = urlsplit(f"//{address}")
    if parts.port is None:
        raise ValueError(f"{address!r} names no port")
    return parts.hostname or "0.0.0.0", parts.port


class WebServer:
    """Serves the routes the settings turn on, at `web_listen` (board, health, metrics) or `ops_listen` (health and
    metrics only)."""

    def __init__(self, bot: Bot, settings: Settings) -> None:
        self._bot = bot
        self._settings = settings
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on once started (the one picked when the settings say port 0)."""
        self.board: Board | None = None
        """The live board pages' side that follows the games, when they are on."""

    def app(self) -> web.Application:
        """The application with every route this bot serves."""
        app = web.Application()
        add_ops_routes(app, self._bot)
        if self._settings.web_listen is not None:
            self.board = add_board_routes(app, self._bot, self._settings)
        return app

    def board_link(self, game_id: int, now: float) -> str | None:
        """The signed address of a game's live board page, fresh from `now`; None while the board pages are off."""
        secret = self._settings.web_secret
        if self.board is None or self.port is None or secret is None or self._settings.web_listen is None:
            return None
        base = self._settings.web_url
        if base is None:
            host, _ = split_address(self._settings.web_listen)
            base = f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"
        token = fresh(secret.get_secret_value().encode("utf-8"), game_id, now)
        return f"{base.rstrip('/')}/b/{token}"

    async def start(self) -> None:
        """Listen, if an address is set."""
        address = self._settings.web_listen or self._settings.ops_listen
        if address is None:
            return
        host, port = split_address(address)
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server  # aiohttp keeps the bound sockets only here
        sockets = getattr(server, "sockets", None) or ()
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("web server listening on %s:%d", host, self.port)

    async def close(self) -> None:
        """Stop listening and close open connections."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
