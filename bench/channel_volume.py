"""How much a whole game puts in its channel: messages, pictures and bytes, per game and number of players.

Usage: .venv/bin/python bench/channel_volume.py [SEEDS]

Plays seeded games offline through the local Discord, with every seat a scripted person ("people") and with one
person among bot players ("1 + bots"), and prints, per game: public messages posted, pictures a reader scrolling
the channel loads (the current attachments of every message), their bytes, and the bytes uploaded in all (every
revision's pictures, what people watching live download). Averages over SEEDS seeds (default 2).
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import tempfile
from pathlib import Path
from statistics import mean

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.sandbox.run import SANDBOX_PEOPLE, STARTUP_SECONDS, sandbox_settings  # noqa: E402
from bot.sandbox.table import ScriptedTable  # noqa: E402
from localdiscord import LocalDiscord, LocalUser  # noqa: E402

GAMES = (
    ("dice", {}),
    ("ticket-to-ride", {"map": "usa"}),
    ("ticket-to-ride", {"map": "europe"}),
    ("ticket-to-ride-cards", {}),
)


async def volume(
    game: str, options: dict[str, object], players: int, persons: int, seed: int
) -> tuple[int, int, int, int]:
    """Play one game; return (messages, pictures shown, bytes shown, bytes uploaded) of its public channel."""
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[:persons]]
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "volume.sqlite3", bot_move_delay=0.0)
        async with LocalDiscord(users=people) as discord:
            bot = create_bot(settings)
            async with discord.connected(bot, timeout=STARTUP_SECONDS):
                bot.lobby._new_seed = lambda: seed  # the same deal before and after a change
                table = ScriptedTable(discord, bot, people)
                record = await table.open(game, bots=players - persons, options=options)
                await table.play_to_the_end(record.id, seed=seed)
            public = [m for m in discord.messages if not m.ephemeral and not m.deleted]
            shown = [a for m in public for a in m.attachments]
            uploaded: set[bytes] = set()
            for message in public:
                for revision in [*message.history, message.revision()]:
                    uploaded.update(a.data for a in revision.attachments)
            return len(public), len(shown), sum(len(a.data) for a in shown), sum(len(d) for d in uploaded)


async def main(seeds: int) -> None:
    """Print one line per game and number of players."""
    logging.disable(logging.WARNING)
    print(f"{'game':<34}{'messages':>9}{'pictures':>9}{'KB shown':>10}{'KB sent':>10}")
    for game, options in GAMES:
        for players, persons in ((2, 2), (4, 4), (2, 1), (4, 1)):
            runs = [await volume(game, options, players, persons, seed) for seed in range(seeds)]
            who = "people" if persons == players else "1 + bots"
            name = f"{game} {options.get('map', '')} {players}p {who}".replace("  ", " ")
            messages, pictures, shown, sent = (mean(column) for column in zip(*runs, strict=True))
            print(f"{name:<34}{messages:>9.0f}{pictures:>9.0f}{shown / 1024:>10.0f}{sent / 1024:>10.0f}")


if __name__ == "__main__":
    random.seed(0)
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2))
