"""A start is light whatever the store holds: nothing drawn and no worker waited for before the bot is ready."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.app import Conductor, create_bot
from bot.drawing import PRIVATE, PUBLIC, stop_pictures
from bot.sandbox.run import sandbox_settings
from localdiscord import LocalDiscord
from render import artstore

STORED = 1000
GAME_COLUMNS = "game, guild_id, host_id, status, options, seed, version, state, created_at, updated_at, shown_version"


async def one_running_game(bot: Conductor) -> int:
    """A 2-player Ticket to Ride game started through the service, a few moves in."""
    lobby = bot.lobby
    record = await lobby.open_lobby(game="ticket-to-ride", guild_id=1, channel_id=5, host_id=1, host_name="Ann")
    await lobby.join(record.id, 2, "Ben")
    await lobby.start(record.id, 1)
    return record.id


def copy_game(database: Path, game_id: int, copies: int) -> None:
    """Store `copies` more running games like `game_id`, each in a channel of its own (straight into the file), all
    shown in their channels (so nothing is drawn to catch up after the start either)."""
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE games SET shown_version = version WHERE id = ?", (game_id,))
        for n in range(copies):
            new = connection.execute(
                f"INSERT INTO games (channel_id, {GAME_COLUMNS}) SELECT ?, {GAME_COLUMNS} FROM games WHERE id = ?",
                (10_000 + n, game_id),
            ).lastrowid
            connection.execute(
                "INSERT INTO seats (game_id, seat, user_id, bot_kind, name, hints, left_user_id)"
                " SELECT ?, seat, user_id, bot_kind, name, hints, left_user_id FROM seats WHERE game_id = ?",
                (new, game_id),
            )
            connection.execute(
                "INSERT INTO actions (game_id, seq, seat, action, created_at, undone_at)"
                " SELECT ?, seq, seat, action, created_at, undone_at FROM actions WHERE game_id = ?",
                (new, game_id),
            )


async def test_a_start_on_a_store_of_1000_games_draws_no_art_and_its_workers_start_after_ready(
    stand_in: LocalDiscord, tmp_path: Path
) -> None:
    database, art = tmp_path / "games.sqlite3", tmp_path / "art"
    settings = sandbox_settings(database, bot_move_delay=0).model_copy(update={"art_folder": art})
    async with stand_in.connected(create_bot(settings)) as bot:
        assert isinstance(bot, Conductor)
        game_id = await one_running_game(bot)
    copy_game(database, game_id, STORED - 1)
    stop_pictures()  # new workers, as in a new process
    drawn, _ = artstore.counts()

    async with stand_in.connected(create_bot(settings)) as bot:
        assert isinstance(bot, Conductor)
        assert len(bot.service.running()) == STORED
        assert artstore.counts()[0] == drawn, "the bot drew art before it was ready"
        assert not list(art.rglob("*.pickle")), "the art store is filled on first use, not at start"
        async with asyncio.timeout(120):  # the workers start in the background once the bot is ready
            while None in PUBLIC.pids() + PRIVATE.pids():
                await asyncio.sleep(0.05)
        for pool in (PUBLIC, PRIVATE):
            for worker in range(pool.workers):
                assert pool.submit(worker, artstore.counts).result(timeout=120) == (0, 0), "a worker drew at start"
