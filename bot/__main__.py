"""`python -m bot`: connect to Discord with a token, or, without one, play a sandbox game offline; `backup`,
`restore FILE` and `health` are tools for the bot's operator."""

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

from bot.settings import Settings, listen_address
from bot.storage.database import DatabaseUnusable

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
TOOLS = {
    "backup": "copy the SQLite database as it stands, even while the bot runs (PostgreSQL: use pg_dump)",
    "restore": "put a backup (FILE) in place of the SQLite database; refused while a bot runs on it",
    "health": "ask the running bot's /healthz: exit 0 when it is healthy, 1 when not",
}
HEALTH_TIMEOUT = 5.0
"""Seconds `python -m bot health` waits for the bot's answer (a supervisor's check must not hang)."""


def parse_tool(argv: list[str]) -> argparse.Namespace | None:
    """Read an operator's command (`backup`, `restore FILE`, `health`), or None when `argv` names none. Parsed apart
    from the sandbox's flags so that a tool loads neither the games nor the sandbox: a supervisor runs `health`
    every half minute."""
    if not argv or argv[0] not in TOOLS:
        return None
    parser = argparse.ArgumentParser(prog="python -m bot", description="Tools for the bot's operator.")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    backup = tools.add_parser("backup", help=TOOLS["backup"])
    backup.add_argument(
        "--to", type=Path, default=None, metavar="FOLDER", help="where (default: CONDUCTOR_BACKUP_FOLDER)"
    )
    restore = tools.add_parser("restore", help=TOOLS["restore"])
    restore.add_argument("file", type=Path, metavar="FILE", help="the backup to restore")
    tools.add_parser("health", help=TOOLS["health"])
    return parser.parse_args(argv)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Read the sandbox's flags (ignored when a token is set)."""
    from bot.games import GAMES  # here: spawned workers import this module, and need neither the games nor the sandbox
    from bot.sandbox.run import STARTUP_SECONDS

    seats = ", ".join(
        f"{game} {info.engine.min_players}-{info.engine.max_players}" for game, info in sorted(GAMES.items())
    )
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=__doc__,
        epilog="The sandbox says each step on stdout; set CONDUCTOR_LOG_LEVEL=INFO to see the bot's log as well."
        " Operator tools: " + "; ".join(f"`python -m bot {name}`: {what}" for name, what in TOOLS.items()) + ".",
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="dice", help="sandbox: which game to play")
    parser.add_argument(
        "--players",
        type=int,
        default=3,
        metavar="N",
        help="sandbox: seats at the table, all played by the computer: N-1 scripted people (Anna, Boris, ...) who "
        f"click the buttons as a person would, and one bot player ({seats}; default %(default)s)",
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
    """Run the bot until it is stopped, the sandbox game until it ends, or an operator's tool; return the exit
    status."""
    argv = sys.argv[1:] if argv is None else argv
    tool = parse_tool(argv)
    args = tool or parse_args(argv)
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
        if tool is not None:
            return run_tool(settings, tool)
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


def run_tool(settings: Settings, args: argparse.Namespace) -> int:
    """Run the operator's tool `args` names."""
    if args.tool == "backup":
        return backup_now(settings, args.to)
    if args.tool == "restore":
        return restore_from(settings, args.file)
    return ask_health(settings)


def backup_now(settings: Settings, folder: Path | None) -> int:
    """Back up the SQLite database into `folder` (the settings' folder by default, keeping its newest backups)."""
    from bot.storage.backup import take_backup

    if settings.database_url is not None:
        print("conductor: the store is PostgreSQL: back it up with pg_dump (see the README)", file=sys.stderr)
        return 2
    target = folder or settings.backups()
    path = take_backup(settings.database_path, target, keep=settings.backup_keep if folder is None else None)
    print(f"backed up {settings.database_path} into {path} ({path.stat().st_size} bytes)")
    return 0


def restore_from(settings: Settings, backup: Path) -> int:
    """Put a backup in place of the SQLite database, keeping the one it replaces beside it."""
    from bot.storage.backup import restore

    if settings.database_url is not None:
        print(
            "conductor: the store is PostgreSQL: restore it with pg_restore or psql (see the README)", file=sys.stderr
        )
        return 2
    kept = restore(backup, settings.database_path)
    print(f"restored {backup} into {settings.database_path}")
    if kept is not None:
        print(f"the database it replaced is kept as {kept}")
    return 0


def ask_health(settings: Settings) -> int:
    """Ask the running bot's `/healthz` and print its answer: 0 when healthy, 1 when not or not answering."""
    import urllib.error
    import urllib.request

    address = settings.ops_listen or settings.web_listen
    if address is None:
        print("conductor: no health check is served: set CONDUCTOR_OPS_LISTEN or CONDUCTOR_WEB_LISTEN", file=sys.stderr)
        return 2
    host, port = listen_address(address)
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"  # listening everywhere: ask it here
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as answer:
            print(answer.read().decode(errors="replace").strip())
            return 0
    except urllib.error.HTTPError as error:
        print(error.read().decode(errors="replace").strip() or error.reason, file=sys.stderr)
    except (urllib.error.URLError, OSError) as error:
        print(f"conductor: {url}: {getattr(error, 'reason', error)}", file=sys.stderr)
    return 1


def play_sandbox(args: argparse.Namespace) -> int:
    """Play the sandbox game the flags ask for; refuse, in one line, a number of players the game does not seat."""
    from bot.games import GAMES
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
    from bot.storage.opening import open_database

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
