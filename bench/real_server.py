"""What a real server asks of the bot, measured through the local Discord (issue 10's figures).

Run: python bench/real_server.py [--moves 200] [--crowd 40] [--stored 0,100,1000]

- cold start: a fresh process per map starts the bot on a database holding one game of that map, then asks /board
  and then /hand: time to the first answer (Discord's deadline is 3 s) and to the picture;
- click -> first response p50/p99 of dice moves, alone and while `--crowd` players of Ticket to Ride games ask for
  their hands all at once, over and over; the bot runs in a process of its own, as it would on a server;
- start-up: from creating the bot until it is ready, with 0, 100 and 1000 open games stored (each 6 moves in).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.app import Conductor, create_bot
from bot.games import GAMES
from bot.sandbox.run import sandbox_settings
from bot.sandbox.table import ScriptedTable
from bot.services.guild_config import GuildConfigService
from bot.settings import Settings
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.opening import open_database
from localdiscord import LocalDiscord, LocalUser, RecordedMessage
from render.caches import clear_caches

PEOPLE = ("Ann", "Ben")


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def open_game(
    discord: LocalDiscord, bot: Conductor, people: list[LocalUser], channel: str, **options: object
) -> int:
    """Open and start a Ticket to Ride game among `people` in `channel`, past the opening choice."""
    host, *others = people
    lobby = (await discord.slash(host, "newgame ticket-to-ride", options, channel=channel)).message
    assert lobby is not None
    for person, verb in [*((p, "join") for p in others), (host, "start")]:
        message = discord.message(lobby.id)
        button = next(c for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await discord.click(person, message, button["custom_id"])
    record = await bot.service.game_in_channel(lobby.channel_id)
    table = ScriptedTable(discord, bot, people)
    rng = random.Random(record.id)
    while bot.service.view(record.id, None).phase == "opening":  # type: ignore[attr-defined]
        await table.play_move(record.id, rng)
    return record.id


async def play_in_channels(settings: Settings, guild_id: int) -> None:
    """Have the server play its games in the channels they are opened in, as its admin may choose (/config
    threads), so the measurements find them there (before the bot starts)."""
    database = await open_database(settings)
    try:
        config = GuildConfigService(GuildSettingsStore(database), GAMES)
        await config.change(guild_id, lambda c: c.model_copy(update={"threads": False}))
    finally:
        await database.close()


# ---- cold start -------------------------------------------------------------------------------------------------


async def cold_child(map_id: str, folder: Path) -> dict[str, float]:
    """In a fresh process: store one game, restart the bot with cold pictures, time /board and /hand."""
    people = [LocalUser(name=name) for name in PEOPLE]
    settings = sandbox_settings(folder / "cold.sqlite3", bot_move_delay=0)
    async with LocalDiscord(users=people, timeout=120) as discord:
        async with discord.connected(create_bot(settings)) as bot:
            assert isinstance(bot, Conductor)
            await bot.config.change(discord.guild_id, lambda c: c.model_copy(update={"threads": False}))
            await open_game(discord, bot, people, "trains", map=map_id)
        clear_caches()
        started = time.perf_counter()
        async with discord.connected(create_bot(settings), timeout=120):
            ready = time.perf_counter() - started
            figures = {"ready_s": ready}
            for command, person in (("board", people[0]), ("hand", people[1])):
                asked = time.perf_counter()
                outcome = await discord.slash(person, command)
                answered = outcome.interaction.ack_seconds or 0.0
                await outcome.private_answer()
                figures[f"{command}_answer_ms"] = answered * 1000
                figures[f"{command}_picture_ms"] = (time.perf_counter() - asked) * 1000
    return figures


def cold_start(map_id: str) -> dict[str, float]:
    """Run the cold measurement in a child process, so no cache of this one helps."""
    done = subprocess.run(
        [sys.executable, __file__, "--cold-child", map_id], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# ---- clicks under a crowd of hand requests --------------------------------------------------------------------


async def crowded_clicks(moves: int, crowd: int, command: str = "hand") -> tuple[list[float], int]:
    """Click -> first answer of `moves` dice moves while `crowd` players of other games ask for their hands in waves.

    The bot runs in a process of its own, as on a server: the stand-in and this driver (which record and scan every
    message) take the other core instead of the bot's.
    """
    players = [LocalUser(name=name) for name in PEOPLE]
    others = [LocalUser(name=f"P{i}") for i in range(crowd)]
    channels = ["trains", *(f"table-{i}" for i in range(crowd // 4))]
    latencies: list[float] = []
    asked = 0
    with tempfile.TemporaryDirectory() as folder:
        async with LocalDiscord(users=[*players, *others], channels=channels, timeout=60) as discord:
            await play_in_channels(sandbox_settings(Path(folder) / "crowd.sqlite3"), discord.guild_id)
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.sandbox.child",
                discord.api_url,
                discord.gateway_url,
                discord.token,
                str(Path(folder) / "crowd.sqlite3"),
                stderr=asyncio.subprocess.DEVNULL,
            )
            try:
                await discord.wait_connected(timeout=120)
                for index in range(crowd // 4):
                    await open_lobby(discord, others[index * 4 : index * 4 + 4], "ticket-to-ride", f"table-{index}")
                stop = asyncio.Event()

                async def ask() -> None:
                    nonlocal asked
                    while others and not stop.is_set():
                        await asyncio.gather(
                            *(discord.slash(p, command, channel=f"table-{i // 4}") for i, p in enumerate(others))
                        )
                        asked += len(others)

                crowd_task = asyncio.create_task(ask())
                while len(latencies) < moves:
                    await open_lobby(discord, players, "dice", "trains")
                    latencies += await play_dice(discord, moves - len(latencies))
                stop.set()
                await crowd_task
            finally:
                child.kill()
                await child.wait()
    return latencies, asked


async def open_lobby(discord: LocalDiscord, people: list[LocalUser], game: str, channel: str) -> None:
    """Open a game among `people` in `channel` through /newgame and the lobby's buttons, and start it."""
    host, *others = people
    lobby = (await discord.slash(host, f"newgame {game}", channel=channel)).message
    assert lobby is not None
    for person, verb in [*((p, "join") for p in others), (host, "start")]:
        message = discord.message(lobby.id)
        button = next(c for c in message.buttons() if c["custom_id"].split(":")[3] == verb)
        await discord.click(person, message, button["custom_id"])


async def play_dice(discord: LocalDiscord, most: int) -> list[float]:
    """Play the dice game in #trains by clicking its first enabled move each turn; the seconds to each first answer."""
    latencies: list[float] = []
    while len(latencies) < most:
        message = await discord.wait_for(_turn_after(discord, -1))
        if not isinstance(message, RecordedMessage):
            break
        version = _version(message)
        mover = next(u for u in discord.users if f"<@{u.id}>" in message.text)
        move = next(c for c in message.buttons() if ":act:" in c["custom_id"] and not c.get("disabled"))
        outcome = await discord.click(mover, message, move["custom_id"])
        latencies.append(outcome.interaction.ack_seconds or 0.0)
        await discord.wait_for(_turn_after(discord, version))
    return latencies


def _turn_after(discord: LocalDiscord, version: int) -> Callable[[], RecordedMessage | str | None]:
    """A condition for `wait_for`: the turn message once its controls are newer than `version`, or "over"."""
    return lambda: _dice_turn(discord, after=version)


def _dice_turn(discord: LocalDiscord, *, after: int) -> RecordedMessage | str | None:
    """#trains' dice turn message once its controls are newer than `after`; "over" after the final message."""
    latest = discord.channel_messages("trains")[-1]
    if latest.attachments and latest.attachments[0].filename == "scores.png":
        return "over"
    return latest if _version(latest) > after else None


def _version(message: RecordedMessage) -> int:
    """The game version a message's move buttons were drawn for (-1 without any)."""
    ids = [c["custom_id"] for c in message.buttons() if ":act:" in c["custom_id"]]
    return int(ids[0].split(":")[2]) if ids else -1


# ---- start-up with stored games ---------------------------------------------------------------------------------


async def start_up(stored: int) -> float:
    """Seconds from creating the bot until it is ready, with `stored` open games in its database."""
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "many.sqlite3", bot_move_delay=0)
        async with LocalDiscord(users=[LocalUser(name=n) for n in PEOPLE], timeout=600) as discord:
            if stored:
                async with discord.connected(create_bot(settings)) as bot:
                    assert isinstance(bot, Conductor)
                    await store_games(bot, stored)
            started = time.perf_counter()
            async with discord.connected(create_bot(settings), timeout=600):
                return time.perf_counter() - started


async def store_games(bot: Conductor, count: int) -> None:
    """Start `count` 2-player Ticket to Ride games through the service, each a few moves in."""
    engine = bot.service.engine("ticket-to-ride")
    for index in range(count):
        record = await bot.lobby.open_lobby(
            game="ticket-to-ride", guild_id=1, channel_id=10_000 + index, host_id=1, host_name="Ann"
        )
        await bot.lobby.join(record.id, 2, "Ben")
        await bot.lobby.start(record.id, 1)
        rng = random.Random(index)
        for _ in range(6):
            state = bot.service.state(record.id)
            seat = min(engine.to_act(state))
            action = engine.bot_action(state, seat, rng, "sensible")
            await bot.moves.act(record.id, 1 if seat == 0 else 2, action)


def main() -> None:
    """Parse flags, run each measurement, print figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=200, help="dice moves measured, with and without the crowd")
    parser.add_argument("--crowd", type=int, default=40, help="players asking for their hands at once")
    parser.add_argument("--stored", default="0,100,1000", help="open games stored, for the start-up times")
    parser.add_argument("--cold-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(asyncio.run(cold_child(args.cold_child, Path(folder)))))
        return

    for map_id in ("usa", "europe"):
        f = cold_start(map_id)
        print(
            f"cold start {map_id}: ready in {f['ready_s']:.1f} s; "
            f"/board answered in {f['board_answer_ms']:.0f} ms, picture in {f['board_picture_ms']:.0f} ms; "
            f"/hand answered in {f['hand_answer_ms']:.0f} ms, picture in {f['hand_picture_ms']:.0f} ms"
        )
    for crowd in (0, args.crowd):
        latencies, asked = asyncio.run(crowded_clicks(args.moves, crowd))
        ms = [x * 1000 for x in latencies]
        print(
            f"dice clicks -> first answer with {crowd} players asking for their hands at once ({asked} asked): "
            f"{len(ms)} clicks, p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms"
        )
    for stored in (int(n) for n in args.stored.split(",")):
        print(f"start-up with {stored} open games stored: ready in {asyncio.run(start_up(stored)):.2f} s")


if __name__ == "__main__":
    main()
