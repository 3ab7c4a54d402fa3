"""What a real server does to the bot (issue 10), through the local Discord taught Discord's rules: the 3-second
deadline, empty messages refused, permissions, failed posts, a bot stopped mid-move, places that disappear."""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import re
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import discord
import pytest

from bot import __main__ as entry
from bot.app import Conductor, create_bot
from bot.drawing import PICTURES, PRIVATE_WORKERS, stop_pictures
from bot.sandbox.run import sandbox_settings
from bot.storage.database import DatabaseUnusable, Statement
from bot.storage.opening import open_database
from bot.workers import usable_cores
from localdiscord import LocalDiscord, LocalUser, RecordedMessage
from render.caches import clear_caches
from rules.ttr.view import PublicView
from tests.bot.e2e.helpers import (
    Running,
    act_buttons,
    choose_threads,
    controls,
    fix_seed,
    people,
    playing,
    seat_to_act,
    stored_version,
    table,
)

ATTACH_FILES = discord.Permissions(attach_files=True).value


async def dice_game(stand_in: LocalDiscord, bot: Conductor, channel: str = "trains") -> tuple[int, RecordedMessage]:
    """A started 2-player dice game among Ann and Ben in `channel`; its id and turn message."""
    lobby = (await stand_in.slash("Ann", "newgame dice", channel=channel)).message
    assert lobby is not None
    for person, verb in (("Ben", "join"), ("Ann", "start")):
        button = next(c for c in lobby.buttons() if c["custom_id"].split(":")[3] == verb)
        await stand_in.click(person, stand_in.message(lobby.id), button["custom_id"])
    record = await bot.service.game_in_channel(lobby.channel_id)
    return record.id, await table(stand_in, bot, "Ann", "Ben").turn_message(record.id)


# ---- 1. every interaction answered in time, even cold --------------------------------------------------------


def clear_picture_caches() -> None:
    """Forget every drawn picture and piece of map art and stop the picture workers, as a freshly started process
    has none of them."""
    clear_caches()
    PICTURES.forget(lambda key: True)
    stop_pictures()


async def test_cold_start_board_and_hand_are_answered_within_the_deadline(
    stand_in: LocalDiscord, tmp_path: Path
) -> None:
    settings = sandbox_settings(tmp_path / "games.sqlite3", bot_move_delay=0)
    async with stand_in.connected(create_bot(settings)) as bot:
        assert isinstance(bot, Conductor)
        await choose_threads(bot, stand_in.guild_id, False)
        await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), 11, options={"map": "europe"})
    clear_picture_caches()
    restarted = create_bot(settings)
    async with stand_in.connected(restarted):  # nothing is drawn before ready: the art comes on first use
        board = await stand_in.slash("Ann", "board")  # the stand-in refuses an answer later than 3 s
        assert board.ephemeral and board.message is not None
        assert [a.filename for a in board.message.attachments] == ["board.png"]
        hand = await stand_in.slash("Ben", "hand")
        assert hand.ephemeral and hand.message is not None
        assert hand.message.attachments, "the hand (or the pending choice) comes with its picture"


async def test_a_face_up_first_card_drawn_with_draw_is_answered_and_shown(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), 2, options={"map": "usa"})
        view: PublicView = bot.service.view(game_id, None)  # type: ignore[assignment]
        colour = next(c for c in view.market if c != "locomotive")
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        at = await stored_version(bot, game_id)
        typed = await stand_in.slash(person, "draw", {"card": colour})
        assert typed.ephemeral and typed.text.strip(), "a typed move is answered with what it did"
        assert await stored_version(bot, game_id) == at + 1
        message = await players.turn_message(game_id)
        assert all(str(c["custom_id"]).split(":")[2] == str(at + 1) for c in controls(message).values())
        await wait_until(lambda: bot.shown.shown(game_id) == at + 1)
        assert not stand_in.rejected


# ---- 2./5. permissions, failed posts, and what is stored is what is shown --------------------------------------


async def test_a_move_whose_post_is_refused_is_told_truthfully_and_shown_on_the_next_click(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        seat = seat_to_act(bot, game_id)
        mover, other = people(stand_in, "Ann", "Ben")[seat], people(stand_in, "Ann", "Ben")[1 - seat]
        await stand_in.set_bot_permissions("trains", deny=ATTACH_FILES)
        at = await stored_version(bot, game_id)
        clicked = await stand_in.click(mover, message, act_buttons(message)["roll"])
        told = await clicked.private_answer()
        assert "recorded" in told.text and "Attach Files" in told.text
        assert await stored_version(bot, game_id) == at + 1, "the move stays stored"
        assert bot.shown.shown(game_id) == at
        assert act_buttons(stand_in.message(message.id)), "the old turn message keeps its buttons"

        await stand_in.set_bot_permissions("trains", deny=0)
        stale = await stand_in.click(other, message, next(iter(act_buttons(message).values())))
        assert stale.ephemeral
        latest = await stand_in.wait_for_message(lambda m: bool(m.attachments), after=message)
        assert all(str(c).split(":")[2] == str(at + 1) for c in act_buttons(latest).values())
        await wait_until(lambda: bot.shown.shown(game_id) == at + 1)


async def test_a_move_stored_but_not_posted_before_a_stop_is_shown_after_the_restart(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        mover = people(stand_in, "Ann", "Ben")[seat_to_act(bot, game_id)]
        at = await stored_version(bot, game_id)
        posts, edits = r"/channels/\d+/messages$", r"/channels/\d+/messages/\d+$"  # a roll edits in place
        stand_in.fail_requests("POST", posts, status=503, code=0, times=50)
        stand_in.fail_requests("PATCH", edits, status=503, code=0, times=50)
        clicked = await stand_in.click(mover, message, act_buttons(message)["roll"])
        told = await clicked.private_answer()
        assert "recorded" in told.text
    assert not dice_buttons_after(stand_in, message), "nothing new was shown before the stop"
    assert act_buttons(stand_in.message(message.id)) == act_buttons(message), "nor the roll in place"

    stand_in.fail_requests("POST", posts, status=503, code=0, times=0)
    stand_in.fail_requests("PATCH", edits, status=503, code=0, times=0)
    async with running() as bot:
        latest = await stand_in.wait_for_message(lambda m: bool(m.attachments), after=message)
        assert all(str(c).split(":")[2] == str(at + 1) for c in act_buttons(latest).values())
        await wait_until(lambda: bot.shown.shown(game_id) == at + 1)


def dice_buttons_after(stand_in: LocalDiscord, message: RecordedMessage) -> list[RecordedMessage]:
    return [m for m in stand_in.channel_messages() if m.id > message.id and act_buttons(m)]


@asynccontextmanager
async def child_bot(stand_in: LocalDiscord, database: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    """The bot in a process of its own on this stand-in, connected; killed at the end if still running."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.sandbox.child",
        stand_in.api_url,
        stand_in.gateway_url,
        stand_in.token,
        str(database),
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        await stand_in.wait_connected(timeout=120)  # a fresh process imports the bot first: seconds on a busy machine
        yield child
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()


async def test_a_bot_killed_between_commit_and_post_shows_the_move_after_the_restart(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        mover = people(stand_in, "Ann", "Ben")[seat_to_act(bot, game_id)]
        at = await stored_version(bot, game_id)
    async with child_bot(stand_in, tmp_path / "games.sqlite3") as child:
        held = stand_in.hold_requests("POST", r"/channels/\d+/messages$")
        await stand_in.click(mover, message, act_buttons(message)["roll"])
        await held.arrived()
        child.kill()  # SIGKILL between the database commit and the post of the new turn message
        await child.wait()
        held.drop()
    assert not dice_buttons_after(stand_in, message), "the killed bot showed nothing"

    async with running() as bot:
        assert await stored_version(bot, game_id) == at + 1, "the move was committed before the kill"
        latest = await stand_in.wait_for_message(lambda m: bool(act_buttons(m)), after=message)
        assert all(str(c).split(":")[2] == str(at + 1) for c in act_buttons(latest).values())


async def test_a_bot_stopped_mid_move_finishes_showing_it_and_refuses_new_clicks_meanwhile(
    stand_in: LocalDiscord, running: Running, tmp_path: Path
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        seat = seat_to_act(bot, game_id)
        mover, other = people(stand_in, "Ann", "Ben")[seat], people(stand_in, "Ann", "Ben")[1 - seat]
        at = await stored_version(bot, game_id)
    async with child_bot(stand_in, tmp_path / "games.sqlite3") as child:
        held = stand_in.hold_requests("POST", r"/channels/\d+/messages$")
        await stand_in.click(mover, message, act_buttons(message)["roll"])
        await held.arrived()
        child.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):  # the signal reaches a busy process's event loop when it does
            while "restarting" not in (meanwhile := await stand_in.slash(other, "rules", {"game": "dice"})).text:
                assert meanwhile.ephemeral
        assert meanwhile.ephemeral
        held.release()
        assert await asyncio.wait_for(child.wait(), timeout=60) == 0
    shown = dice_buttons_after(stand_in, message)
    assert shown and all(str(c).split(":")[2] == str(at + 1) for c in act_buttons(shown[-1]).values())


async def test_an_opening_that_could_not_be_posted_is_shown_on_the_next_command(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame ticket-to-ride")).message
        assert lobby is not None
        join = next(c["custom_id"] for c in lobby.buttons() if c["custom_id"].split(":")[3] == "join")
        await stand_in.click("Ben", lobby, join)
        lobby = stand_in.message(lobby.id)
        start = next(c["custom_id"] for c in lobby.buttons() if c["custom_id"].split(":")[3] == "start")
        stand_in.fail_requests("POST", r"/channels/\d+/messages$", status=503, times=1)
        started = await stand_in.click("Ann", lobby, start)
        told = await started.followup(0)
        assert told.ephemeral and "recorded" in told.text
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert bot.shown.behind(record.id)
        await stand_in.slash("Ben", "hand")
        opening = await stand_in.wait_for_message(
            lambda m: any("keep" in str(c) or "hand" in str(c) for c in m.buttons())
        )
        assert opening.attachments
        await wait_until(lambda: not bot.shown.behind(record.id))


# ---- 3. no interaction left unanswered -------------------------------------------------------------------------


async def test_an_exception_inside_a_button_is_answered_privately(
    stand_in: LocalDiscord, running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        controller = bot.controllers["dice"]

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("a bug")

        controller.on_component = broken  # type: ignore[method-assign]
        at = await stored_version(bot, game_id)
        clicked = await stand_in.click("Ann", message, act_buttons(message)["roll"])
        assert clicked.ephemeral and "nothing was changed" in clicked.text
        assert await stored_version(bot, game_id) == at
    assert any("a bug" in repr(r.exc_info) for r in caplog.records if r.levelno == logging.ERROR)
    caplog.clear()  # the one expected error


async def test_a_stale_click_with_nothing_to_do_says_whose_turn_it_is(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        fix_seed(bot, 5)  # a deal whose first roll does not end the turn
        game_id, message = await dice_game(stand_in, bot)
        seat = seat_to_act(bot, game_id)
        mover, waiting = people(stand_in, "Ann", "Ben")[seat], people(stand_in, "Ann", "Ben")[1 - seat]
        await stand_in.click(mover, message, act_buttons(message)["roll"])
        assert seat_to_act(bot, game_id) == seat
        stale = await stand_in.click(waiting, message, next(iter(act_buttons(message).values())))
        assert stale.ephemeral and f"It is {mover.name}'s turn now" in stale.text
        assert stale.message is not None and stale.message.buttons() == []


async def test_a_click_on_a_button_its_message_no_longer_shows_is_still_answered(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, message = await dice_game(stand_in, bot)
        old = act_buttons(message)
        mover = people(stand_in, "Ann", "Ben")[seat_to_act(bot, game_id)]
        await stand_in.click(mover, message, old["roll"])
        await stand_in.wait_for(lambda: act_buttons(stand_in.message(message.id)) != old or None)
        at = await stored_version(bot, game_id)
        # a client that had not seen the edit yet: the button is gone from the message Discord sends along
        late = await stand_in.click(mover, message, old["roll"], force=True)
        assert late.ephemeral and "earlier turn" in late.text
        assert await stored_version(bot, game_id) == at


# ---- 6. dead places ----------------------------------------------------------------------------------------------


async def test_a_deleted_channel_ends_its_game_and_stops_its_timers(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        game_id, _ = await dice_game(stand_in, bot, channel="general")
        assert await bot.timers.store.timers(game_id)
        await stand_in.delete_channel("general")

        async def ended() -> bool:
            record = await bot.service.store.get(game_id)
            return record is not None and record.status == "abandoned"

        await wait_until(ended)
        assert not await bot.timers.store.timers(game_id)


async def test_a_server_that_removes_the_bot_ends_its_games(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        game_id, _ = await dice_game(stand_in, bot)
        await stand_in.remove_bot_from_guild()

        async def ended() -> bool:
            record = await bot.service.store.get(game_id)
            return record is not None and record.status == "abandoned"

        await wait_until(ended)


async def wait_until(condition: Callable[[], bool | Awaitable[bool]], timeout: float = 10.0) -> None:
    """Wait until a condition on the bot's own state holds (a database or service change wakes no stand-in event)."""
    async with asyncio.timeout(timeout):
        while True:
            result = condition()
            if await result if inspect.isawaitable(result) else result:
                return
            await asyncio.sleep(0.01)


# ---- 7. bounds ---------------------------------------------------------------------------------------------------


@asynccontextmanager
async def with_cooldowns(stand_in: LocalDiscord, tmp_path: Path) -> AsyncIterator[Conductor]:
    settings = sandbox_settings(tmp_path / "games.sqlite3", bot_move_delay=0).model_copy(update={"cooldowns": True})
    bot = create_bot(settings)
    async with stand_in.connected(bot):
        await choose_threads(bot, stand_in.guild_id, False)
        yield bot


async def test_pictures_asked_for_too_often_are_refused_with_when_to_try_again(
    stand_in: LocalDiscord, tmp_path: Path
) -> None:
    async with with_cooldowns(stand_in, tmp_path) as bot:
        now = [0.0]
        bot.cooldowns.clock = lambda: now[0]  # the limits' own time: no real second passes between the asks
        await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), 1, options={"map": "usa"})
        now[0] += 60  # the opening's My hand clicks are forgotten
        answers = [await stand_in.slash("Ann", "board") for _ in range(6)]
        assert all(a.message is not None and a.message.attachments for a in answers[:5])
        assert answers[5].ephemeral and "try again in" in answers[5].text
        other = await stand_in.slash("Ben", "board")
        assert other.message is not None and other.message.attachments, "limits are per person"


# ---- 8./9. data files and names --------------------------------------------------------------------------------


async def test_a_database_from_a_newer_version_is_refused_at_start(stand_in: LocalDiscord, tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    db = await open_database(path)
    await db.write(
        [
            Statement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'then')"),
            Statement("PRAGMA user_version = 999"),
        ]
    )
    await db.close()
    with pytest.raises(Exception) as raised:
        async with stand_in.connected(create_bot(sandbox_settings(path))):
            pass
    assert isinstance(raised.value.__cause__, DatabaseUnusable)
    assert "999" in str(raised.value.__cause__)
    stand_in.logged_errors.clear()  # discord.py logs the failed start; that is the point


def test_the_command_line_says_what_is_wrong_with_the_database_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    garbage = tmp_path / "games.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    monkeypatch.setenv("CONDUCTOR_DISCORD_TOKEN", "token")
    monkeypatch.setenv("CONDUCTOR_DATABASE_PATH", str(garbage))
    assert entry.main([]) == 2  # before any attempt to reach Discord
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(garbage) in err and "Traceback" not in err


async def test_markdown_in_a_display_name_is_shown_literally(stand_in: LocalDiscord, running: Running) -> None:
    stand_in.add_user(LocalUser(name="[nitro](https://evil.example)"))
    stand_in.add_user(LocalUser(name="**Bold**"))
    async with running() as bot:
        players = table(stand_in, bot, "[nitro](https://evil.example)", "**Bold**")
        record = await players.open("dice")
        await players.play_move(record.id, random.Random(1))
    shown = "\n".join(m.text for m in stand_in.channel_messages())
    assert "\\[nitro]" in shown, "the name is there, escaped"
    assert re.search(r"(?<!\\)\[nitro\]\(", shown) is None, "never a masked link"
    assert re.search(r"(?<!\\)\*\*Bold", shown) is None, "never bold"


def descendants(pid: int) -> set[int]:
    """Every live process started (directly or not) by `pid`, from /proc."""
    parents: dict[int, int] = {}
    for process in Path("/proc").iterdir():
        if process.name.isdigit():
            try:
                parents[int(process.name)] = int((process / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:  # it ended meanwhile
                continue
    found: set[int] = set()
    while more := {child for child, parent in parents.items() if parent in found | {pid}} - found:
        found |= more
    return found


def alive(pid: int) -> bool:
    """Whether a process still runs (a zombie does not count)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_a_killed_bot_leaves_no_picture_worker_behind(stand_in: LocalDiscord, tmp_path: Path) -> None:
    async with child_bot(stand_in, tmp_path / "games.sqlite3") as child:
        async with asyncio.timeout(120):  # the workers start once the bot is ready
            while len(workers := descendants(child.pid)) < usable_cores() + PRIVATE_WORKERS:
                await asyncio.sleep(0.05)
        child.kill()
        await child.wait()
    async with asyncio.timeout(30):  # each worker looks for its bot every second
        while any(alive(pid) for pid in workers):
            await asyncio.sleep(0.1)
