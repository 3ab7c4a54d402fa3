"""What an operator asks of a running bot: `/healthz` (and, to come, `/metrics`)."""

from __future__ import annotations

from aiohttp import web

from bot.ui.parts import Bot


def add_ops_routes(app: web.Application, bot: Bot) -> None:
    """Add the health and metrics routes."""

    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    app.router.add_get("/healthz", healthz)
