"""What the thinking tests share: thoughts held until the test lets go, thoughts that fail, hang or kill their worker,
and a fixed hint, all module-level functions the real thinking workers can run."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import random
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from bot.services.thinking import choose_move
from rules.engine import Action, Hint, Message, Seat


@pytest.fixture(scope="module")
def manager() -> Iterator[Any]:
    """A manager process, whose events and queues reach the thinking workers."""
    with multiprocessing.get_context("spawn").Manager() as started:
        yield started


@pytest.fixture
def gate(manager: Any) -> Iterator[Gate]:
    """A gate for one test, let go at its end whatever happened (a held worker would hold up the next test)."""
    held = Gate(manager)
    yield held
    held.release.set()


class Gate:
    """A thought that waits until the test lets it go: each thought puts a word in `entered` first."""

    def __init__(self, manager: Any) -> None:
        self.entered = manager.Queue()
        self.release = manager.Event()

    def move(self) -> functools.partial[Action]:
        """The thinking function to give a Thinker: gated, then the real one."""
        return functools.partial(gated_move, self.entered, self.release)

    async def wait_entered(self) -> None:
        """Wait until a worker has begun a gated thought."""
        await asyncio.to_thread(self.entered.get, True, 60)


def gated_move(entered: Any, release: Any, *args: Any) -> Action:
    """In a worker: say a thought began, wait to be let go, then think as a bot player does."""
    entered.put(os.getpid())
    assert release.wait(60), "never released"
    return choose_move(*args)


def failing_move(*args: Any) -> Action:
    """In a worker: a level that cannot play (as `hard` before the search players land)."""
    raise ValueError("unknown bot kind")


def dying_move(*args: Any) -> Action:
    """In a worker: the worker dies mid-thought."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def spinning_move(*args: Any) -> Action:
    """In a worker: a thought that never ends (a level stuck in a loop)."""
    while True:
        pass


def fixed_hint(engine: Any, state: Any, seat: Seat, seed: str, seconds: float) -> Hint[Any]:
    """In a worker: the normal move, with a reason the bot's words have."""
    return Hint(engine.bot_action(state, seat, random.Random(seed)), Message(key="players.about.hard"))
