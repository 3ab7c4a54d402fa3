"""The live board pages: a game's public view drawn in the browser, followed live, behind a signed link.

`routes.py` says what is served where; `tokens.py` signs the links; `page_data.py` is what a page reads of a game;
`live.py` follows the games shown in Discord and pushes them to the open pages.
"""

from __future__ import annotations

from aiohttp import web

from bot.settings import Settings
from bot.ui.parts import Bot
from bot.web.board.live import Board
from bot.web.board.routes import BoardRoutes


def add_board_routes(app: web.Application, bot: Bot, settings: Settings) -> Board:
    """Add the board pages, their data and their live updates; the board follows the games while the application
    runs, and ends its streams when it stops."""
    board = Board(bot, settings)
    BoardRoutes(bot, settings, board).add_to(app)

    async def attach(_: web.Application) -> None:
        board.attach()

    async def close(_: web.Application) -> None:
        await board.close()

    async def detach(_: web.Application) -> None:
        board.detach()

    app.on_startup.append(attach)
    app.on_shutdown.append(close)
    app.on_cleanup.append(detach)
    return board
