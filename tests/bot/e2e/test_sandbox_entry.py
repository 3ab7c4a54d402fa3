"""`python -m bot` without a token, as a newcomer first runs it: the offline sandbox says each step, refuses what the
game does not allow in one line, gives up on a bot that never gets ready in plain words, and stops cleanly."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.app import Conductor
from bot.sandbox import run
from tests.bot.e2e.test_real_server import descendants


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """No token and no chosen log level: the sandbox, as `python -m bot` runs on a fresh checkout."""
    monkeypatch.delenv("CONDUCTOR_DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("CONDUCTOR_LOG_LEVEL", raising=False)


def test_the_sandbox_says_each_step_before_the_channel_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(run, "PROGRESS_EVERY", 0.01)  # so a game of a few seconds shows its progress
    assert entry.main(["--game", "dice", "--players", "2", "--seed", "3", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    channel = lines.index("#trains")
    steps = lines[:channel]
    assert steps[0] == (
        "A dice game at 2 seats, all played by the computer: 1 scripted person who clicks the buttons (Anna) "
        "and 1 bot player."
    )
    for step in ("Starting a local Discord…", "Starting the bot…", "The bot is ready; opening the game…"):
        assert step in steps
    assert any(line.startswith("Playing… (") for line in steps), "a game of many moves says how far it got"
    assert any(line.startswith("The game is over after ") for line in steps)
    written = int(lines[-1].removesuffix(" pictures written."))
    assert written == len(list(tmp_path.iterdir())) > 0


@pytest.mark.parametrize("players", [1, 7])
def test_a_number_of_players_the_game_does_not_seat_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, players: int
) -> None:
    assert entry.main(["--game", "dice", "--players", str(players), "--out", str(tmp_path)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == f"conductor: --players {players}: dice is played by 2 to 6 players\n"


def test_a_bot_never_ready_makes_the_sandbox_give_up_in_plain_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    async def never_ready(bot: Conductor) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(Conductor, "setup_hook", never_ready)
    monkeypatch.setattr(run, "PROGRESS_EVERY", 0.01)
    assert entry.main(["--game", "dice", "--ready-timeout", "1", "--out", str(tmp_path)]) == 1
    said = capsys.readouterr()
    assert any(line.startswith("Still starting the bot (") for line in said.out.splitlines())
    assert said.err == (
        "The bot was not ready after 1 s; this machine may be busy. Try again, or pass --ready-timeout 600.\n"
    )


@pytest.mark.slow
async def test_sigterm_stops_the_sandbox_cleanly_leaking_nothing(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("CONDUCTOR_DISCORD_TOKEN", "CONDUCTOR_LOG_LEVEL")}
    child = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "--game", "ticket-to-ride", "--seed", "1", "--out", str(tmp_path)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environment,
    )
    assert child.stdout is not None
    try:
        async with asyncio.timeout(300):  # a guard for a hung start, not a measure
            while not (await child.stdout.readline()).startswith("Playing…".encode()):
                assert not child.stdout.at_eof(), "the game ended before it was played"
            while not any(_is_resource_tracker(pid) for pid in descendants(child.pid)):
                await asyncio.sleep(0.05)  # the workers' queues, whose semaphores leak when killed, exist from here
    except BaseException:
        child.kill()
        raise
    child.send_signal(signal.SIGTERM)
    async with asyncio.timeout(300):
        _, err = await child.communicate()  # until every process writing to stderr (the resource tracker too) ended
    text = err.decode()
    assert child.returncode == 128 + signal.SIGTERM, text
    assert "conductor: stopped" in text
    assert "leaked" not in text and "Traceback" not in text, text
    assert "voice will NOT be supported" not in text


def _is_resource_tracker(pid: int) -> bool:
    """Whether a process is multiprocessing's resource tracker (started with the first semaphore)."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
