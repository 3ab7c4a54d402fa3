"""The live board pages: a game's public view drawn in the browser, followed live, behind a signed link."""

from __future__ import annotations

from aiohttp import web

from bot.settings import Settings
from bot.ui.parts import Bot


def add_board_routes(app: web.Application, bot: Bot, settings: Settings) -> None:
    """Add the board pages, their data and their live updates."""
