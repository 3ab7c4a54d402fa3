"""`python -m bot`: connect to Discord with a token, or, without one, play a sandbox game offline."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.games import GAMES
from bot.settings import Settings
from bot.storage.database import DatabaseUnusable, open_database


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Read the sandbox's flags (ignored when a token is set)."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="dice", help="sandbox: which game to play")
    parser.add_argument("--players", type=int, default=3, help="sandbox: how many bot players")
    parser.add_argument("--out", type=Path, default=Path("sandbox-out"), help="sandbox: folder for the pictures")
    parser.add_argument("--seed", type=int, default=None, help="sandbox: seed of the people's choices")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="sandbox: a /newgame option, e.g. --option map=europe (repeatable)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped, or the sandbox game until it ends; return the exit status."""
    args = parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        problem = error.errors()[0]
        print(f"conductor: {'.'.join(map(str, problem['loc'])) or 'settings'}: {problem['msg']}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if settings.discord_token is not None:
            return asyncio.run(serve(settings, settings.discord_token.get_secret_value()))
        from bot.sandbox.run import run_sandbox

        options = dict(item.split("=", 1) for item in args.option)
        return asyncio.run(run_sandbox(args.game, args.players, args.out, seed=args.seed, options=options))
    except DatabaseUnusable as error:
        print(f"conductor: {error}", file=sys.stderr)
        return 2


async def serve(settings: Settings, token: str) -> int:
    """Run the bot until SIGINT or SIGTERM, then stop it gracefully: answers in flight finish before the HTTP
    session closes, bot players finish their move, the database closes last."""
    from bot.app import create_bot

    database = await open_database(settings)  # refuse a bad database, or shards held elsewhere, before connecting
    try:
        await database.hold(settings.shards())
    finally:
        await database.close()
    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop, lambda: loop.create_task(bot.close()))
    async with bot:
        await bot.start(token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
