"""The real bot in a process of its own on a local Discord: a test can stop it (SIGTERM) or kill it (SIGKILL)
mid-move, and a benchmark can load it without sharing a core with the stand-in.

Run: python -m bot.sandbox.child API_URL GATEWAY_URL TOKEN DATABASE

The environment's settings apply as to `python -m bot` (CONDUCTOR_DATABASE_URL, CONDUCTOR_SHARD_COUNT,
CONDUCTOR_SHARD_IDS): several children can be the processes of one sharded bot on one PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.__main__ import configure_logging, serve
from bot.sandbox.run import sandbox_settings
from bot.storage.database import DatabaseUnusable


def main(api_url: str, gateway_url: str, token: str, database: str) -> int:
    """Point discord.py at the local Discord and serve (logging to stderr) as `python -m bot` does, until stopped or
    killed; a store it may not use is refused in one line with status 2, as `python -m bot` does."""
    Route.BASE = api_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    settings = sandbox_settings(Path(database), bot_move_delay=0)
    configure_logging(settings.log_level)
    try:
        return asyncio.run(serve(settings, token))
    except DatabaseUnusable as error:
        print(f"conductor: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
