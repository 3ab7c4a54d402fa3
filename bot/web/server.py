"""One aiohttp server in the bot process (discord.py already brings aiohttp): health and metrics always, the live
board pages when `web_listen` is set; off when the settings name no address."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.settings import Settings, listen_address
from bot.web.board import add_board_routes
from bot.web.ops import Operated, add_ops_routes

log = logging.getLogger(__name__)


class WebServer:
    """Serves the routes the settings turn on, at `web_listen` (board, health, metrics) or `ops_listen` (health and
    metrics only)."""

    def __init__(self, bot: Operated, settings: Settings) -> None:
        self._bot = bot
        self._settings = settings
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on once started (the one picked when the settings say port 0)."""

    def app(self) -> web.Application:
        """The application with every route this bot serves."""
        app = web.Application()
        add_ops_routes(app, self._bot)
        if self._settings.web_listen is not None:
            add_board_routes(app, self._bot, self._settings)
        return app

    async def start(self) -> None:
        """Listen, if an address is set."""
        address = self._settings.web_listen or self._settings.ops_listen
        if address is None:
            return
        host, port = listen_address(address)
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
