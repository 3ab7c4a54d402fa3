"""How many private messages a whole game sends each player, and how many of them only repeat the public line.

Usage: .venv/bin/python bench/private_messages.py [SEEDS]

Plays seeded 2-player games offline through the local Discord, both seats scripted people who click what the bot
drew (the offline runner's table), and prints, per game and seat: the private (ephemeral) messages the player got,
how many of them say a line the public messages also say (at any revision), and how many the bot deleted again (a
menu withdrawn once its move was made). Averages over SEEDS seeds (default 2).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.sandbox.run import PATIENCE, SANDBOX_PEOPLE, STARTUP_SECONDS, sandbox_settings  # noqa: E402
from bot.sandbox.table import ScriptedTable  # noqa: E402
from localdiscord import LocalDiscord, LocalUser, RecordedMessage  # noqa: E402

GAMES: tuple[tuple[str, dict[str, object]], ...] = (
    ("dice", {}),
    ("ticket-to-ride", {"map": "usa"}),
    ("ticket-to-ride", {"map": "europe"}),
    ("ticket-to-ride-cards", {}),
)
PLAYERS = 2
_MARKUP = re.compile(r"[*_~`]|^-# |^#+ ")


@dataclass(frozen=True)
class Tally:
    """One player's private messages in one game."""

    got: int
    """Private messages created for the player."""
    repeating: int
    """Of those, the ones that say a line a public message says too."""
    deleted: int
    """Of those, the ones the bot deleted again."""


def plain_lines(text: str) -> list[str]:
    """The lines of a text without markdown, blank ones left out."""
    return [plain for line in text.splitlines() if (plain := _MARKUP.sub("", line).strip())]


def lines_of(message: RecordedMessage) -> set[str]:
    """Every line a message says at any revision."""
    return {line for revision in [*message.history, message.revision()] for line in plain_lines(revision.text)}


def repeating(messages: Sequence[RecordedMessage]) -> list[tuple[RecordedMessage, set[str]]]:
    """The private messages among `messages` that say a line a public one says, with the lines they share."""
    public: set[str] = set()
    for message in messages:
        if not message.ephemeral:
            public |= lines_of(message)
    found = []
    for message in messages:
        if message.ephemeral:
            shared = lines_of(message) & public
            if shared:
                found.append((message, shared))
    return found


def tally(messages: Sequence[RecordedMessage], people: Iterable[LocalUser]) -> list[Tally]:
    """Each person's private messages: got, repeating the public line, deleted again."""
    repeated = {m.id for m, _ in repeating(messages)}
    tallies = []
    for person in people:
        mine = [m for m in messages if m.ephemeral and m.recipient_id == person.id]
        tallies.append(Tally(len(mine), sum(m.id in repeated for m in mine), sum(m.deleted for m in mine)))
    return tallies


async def play(game: str, options: dict[str, object], seed: int) -> list[Tally]:
    """Play one 2-player game of scripted people; return each seat's tally."""
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[:PLAYERS]]
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "private.sqlite3", bot_move_delay=0.0)
        async with LocalDiscord(users=people, timeout=PATIENCE) as discord:  # a loaded machine answers slowly
            bot = create_bot(settings)
            async with discord.connected(bot, timeout=STARTUP_SECONDS):
                bot.lobby._new_seed = lambda: seed  # the same deal before and after a change
                table = ScriptedTable(discord, bot, people)
                record = await table.open(game, options=options)
                await table.play_to_the_end(record.id, seed=seed)
            return tally(discord.messages, people)


async def main(seeds: int) -> None:
    """Print one line per game and seat."""
    logging.disable(logging.WARNING)
    print(f"{'game (2 people)':<28}{'seat':>5}{'private':>9}{'repeating':>11}{'deleted':>9}")
    for game, options in GAMES:
        runs = [await play(game, options, seed) for seed in range(seeds)]
        name = f"{game} {options.get('map', '')}".strip()
        for seat in range(PLAYERS):
            got = mean(run[seat].got for run in runs)
            repeated = mean(run[seat].repeating for run in runs)
            deleted = mean(run[seat].deleted for run in runs)
            print(f"{name:<28}{seat + 1:>5}{got:>9.1f}{repeated:>11.1f}{deleted:>9.1f}")


if __name__ == "__main__":
    random.seed(0)
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2))
