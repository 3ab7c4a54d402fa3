"""`python -m bot`: connect to Discord with a token, or, without one, play a sandbox game offline."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.games import GAMES
from bot.settings import Settings


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
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.discord_token is not None:
        from bot.app import create_bot

        create_bot(settings).run(settings.discord_token.get_secret_value(), log_handler=None)
        return 0
    from bot.sandbox.run import run_sandbox

    options = dict(item.split("=", 1) for item in args.option)
    return asyncio.run(run_sandbox(args.game, args.players, args.out, seed=args.seed, options=options))


if __name__ == "__main__":
    sys.exit(main())
