"""`python -m bot`: connect to Discord with a token, or, without one, play a sandbox game offline."""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.games import GAMES
from bot.settings import Settings
from bot.storage.database import DatabaseUnusable
from bot.storage.opening import open_database

LEASE_LOST = 75
"""The exit status of a process that lost its lease on its shards (EX_TEMPFAIL): its supervisor should start it again,
and the new process takes the shards back."""
VOICE_WARNING = "voice will NOT be supported"
"""How discord.py's warnings that PyNaCl or davey is missing end, at every start: this bot uses no voice."""
TOKEN_IN_URL = re.compile(r"(/(?:interactions|webhooks)/[0-9]+/)[^/?#\s'\"]+")
"""An interaction's or webhook's token in a URL path (discord.py's HTTP debug lines: `/interactions/{id}/{token}/
callback`, `/webhooks/{application id}/{token}`)."""
TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")
"""A token in a logged payload (the gateway's debug line of each event carries every interaction's token)."""
MASK = "***"
SEATS = ", ".join(f"{game} {info.engine.min_players}-{info.engine.max_players}" for game, info in sorted(GAMES.items()))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Read the sandbox's flags (ignored when a token is set)."""
    from bot.sandbox.run import STARTUP_SECONDS  # here: spawned workers import this module, and need not the sandbox

    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=__doc__,
        epilog="The sandbox says each step on stdout; set CONDUCTOR_LOG_LEVEL=INFO to see the bot's log as well.",
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="dice", help="sandbox: which game to play")
    parser.add_argument(
        "--players",
        type=int,
        default=3,
        metavar="N",
        help="sandbox: seats at the table, all played by the computer: N-1 scripted people (Anna, Boris, ...) who "
        f"click the buttons as a person would, and one bot player ({SEATS}; default %(default)s)",
    )
    parser.add_argument(
        "--ready-timeout",
        type=float,
        default=STARTUP_SECONDS,
        metavar="SECONDS",
        help="sandbox: how long the bot may take to start before the sandbox gives up (default %(default)g)",
    )
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
    quiet = (
        settings.discord_token is None and "log_level" not in settings.model_fields_set
    )  # the sandbox says its steps
    configure_logging("WARNING" if quiet else settings.log_level)
    try:
        if settings.discord_token is not None:
            return asyncio.run(serve(settings, settings.discord_token.get_secret_value()))
        return play_sandbox(args)
    except DatabaseUnusable as error:
        print(f"conductor: {error}", file=sys.stderr)
        return 2


def configure_logging(level: str) -> None:
    """Log to stderr at `level`, without discord.py's voice warnings, and with every token masked by each handler
    (a filter on a handler sees every record it writes; one on a logger only that logger's own)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").addFilter(not_about_voice)
    for handler in logging.getLogger().handlers:
        handler.addFilter(mask_tokens)


def mask_tokens(record: logging.LogRecord) -> bool:
    """Mask interaction and webhook tokens in a record's message and traceback (a token lets anyone answer or edit as
    the bot for 15 minutes); keep every record."""
    message = record.getMessage()
    masked = masked_text(message)
    if masked != message:
        record.msg, record.args = masked, None
    if record.exc_info and not record.exc_text:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = masked_text(record.exc_text)
    if record.stack_info:
        record.stack_info = masked_text(record.stack_info)
    return True


def masked_text(text: str) -> str:
    """Text with every token in a URL path or a payload's `token` field replaced by `MASK`."""
    return TOKEN_FIELD.sub(rf"\g<1>{MASK}", TOKEN_IN_URL.sub(rf"\g<1>{MASK}", text))


def not_about_voice(record: logging.LogRecord) -> bool:
    """Drop discord.py's warnings that voice libraries are missing (the bot uses no voice), keep the rest."""
    return not record.getMessage().endswith(VOICE_WARNING)


def play_sandbox(args: argparse.Namespace) -> int:
    """Play the sandbox game the flags ask for; refuse, in one line, a number of players the game does not seat."""
    from bot.sandbox.run import run_sandbox

    engine = GAMES[args.game].engine
    if not engine.min_players <= args.players <= engine.max_players:
        seats = f"{engine.min_players} to {engine.max_players}"
        print(f"conductor: --players {args.players}: {args.game} is played by {seats} players", file=sys.stderr)
        return 2
    options = dict(item.split("=", 1) for item in args.option)
    game = run_sandbox(
        args.game, args.players, args.out, seed=args.seed, options=options, ready_timeout=args.ready_timeout
    )
    return asyncio.run(until_stopped(game))


async def until_stopped(work: Coroutine[Any, Any, int]) -> int:
    """Await `work`; on SIGINT or SIGTERM cancel it, so it ends as a finished game does (the bot closes, the worker
    processes are shut down at exit: nothing leaks), and return 128 + the signal's number."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopped: list[int] = []

    def stop(number: int) -> None:
        if not stopped:
            print("conductor: stopping…", file=sys.stderr, flush=True)
        stopped.append(number)
        task.cancel()

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop, number)
    try:
        return await work
    except asyncio.CancelledError:
        if not stopped:
            raise
        print("conductor: stopped", file=sys.stderr)
        return 128 + stopped[0]
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)


async def serve(settings: Settings, token: str) -> int:
    """Run the bot until SIGINT or SIGTERM, then stop it gracefully: answers in flight finish before the HTTP
    session closes, bot players finish their move, the database closes last. A bot that loses its lease on its
    shards (PostgreSQL) stops driving them at once, is closed, and the process exits with LEASE_LOST."""
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
        running = asyncio.create_task(bot.start(token), name="bot")
        lost = asyncio.create_task(bot.lease_lost.wait(), name="lease lost")
        await asyncio.wait({running, lost}, return_when=asyncio.FIRST_COMPLETED)
        lost.cancel()
        if bot.lease_lost.is_set():
            await bot.close()
        await running
    return LEASE_LOST if bot.lease_lost.is_set() else 0


if __name__ == "__main__":
    sys.exit(main())
