"""The real bot in a process of its own on a local Discord: a test can stop it (SIGTERM) or kill it (SIGKILL)
mid-move, and a benchmark can load it without sharing a core with the stand-in.

Run: python -m bot.sandbox.child API_URL GATEWAY_URL TOKEN DATABASE
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.__main__ import serve
from bot.sandbox.run import sandbox_settings


def main(api_url: str, gateway_url: str, token: str, database: str) -> None:
    """Point discord.py at the local Discord and serve as `python -m bot` does, until stopped or killed."""
    Route.BASE = api_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    asyncio.run(serve(sandbox_settings(Path(database), bot_move_delay=0), token))


if __name__ == "__main__":
    main(*sys.argv[1:5])
