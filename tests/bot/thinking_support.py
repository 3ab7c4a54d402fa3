"""What the thinking tests share: thoughts held until the test lets go (all at once, or one at a time), thoughts that
fail, hang or kill their worker, and a fixed hint, all module-level functions the real thinking workers can run."""

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


@pytest.fixture
def turnstile(manager: Any) -> Iterator[Turnstile]:
    """A turnstile for one test, letting every thought through at its end whatever happened."""
    turns = Turnstile(manager)
    yield turns
    turns.let_all()


class Watched:
    """Thoughts whose beginnings a test watches: each thought puts its worker's process id in `entered` first."""

    def __init__(self, manager: Any) -> None:
        self.entered = manager.Queue()

    async def wait_entered(self) -> int:
        """Wait until a worker has begun a watched thought: that worker's process id."""
        pid: int = await asyncio.to_thread(self.entered.get, True, 60)
        return pid


class Gate(Watched):
    """Thoughts that wait until the test lets them all go."""

    def __init__(self, manager: Any) -> None:
        super().__init__(manager)
        self.release = manager.Event()

    def move(self) -> functools.partial[Action]:
        """The thinking function to give a Thinker: gated, then the real one."""
        return functools.partial(gated_move, self.entered, self.release)

    def hint(self) -> functools.partial[Hint[Any]]:
        """The advice function to give a Thinker: gated, then the fixed hint."""
        return functools.partial(gated_hint, self.entered, self.release)

    def hold(self) -> functools.partial[None]:
        """Work for a worker pool that only waits at the gate."""
        return functools.partial(held, self.entered, self.release)


class Turnstile(Watched):
    """Hints that go through one at a time: each waits for a ticket the test gives."""

    TICKETS = 32
    """Enough tickets to let every thought of a test through at its end."""

    def __init__(self, manager: Any) -> None:
        super().__init__(manager)
        self.tickets = manager.Queue()

    def hint(self) -> functools.partial[Hint[Any]]:
        """The advice function to give a Thinker: a ticket awaited, then the fixed hint."""
        return functools.partial(ticketed_hint, self.entered, self.tickets)

    def let_one(self) -> None:
        """Let one waiting thought (or the next to come) through."""
        self.tickets.put(True)

    def let_all(self) -> None:
        """Let every thought through."""
        for _ in range(self.TICKETS):
            self.let_one()


def held(entered: Any, release: Any) -> None:
    """In a worker: say the work began and wait to be let go."""
    entered.put(os.getpid())
    assert release.wait(60), "never released"


def gated_move(entered: Any, release: Any, *args: Any) -> Action:
    """In a worker: say a thought began, wait to be let go, then think as a bot player does."""
    held(entered, release)
    return choose_move(*args)


def gated_hint(entered: Any, release: Any, *args: Any) -> Hint[Any]:
    """In a worker: say a thought began, wait to be let go, then give the fixed hint."""
    held(entered, release)
    return fixed_hint(*args)


def ticketed_hint(entered: Any, tickets: Any, *args: Any) -> Hint[Any]:
    """In a worker: say a thought began, wait for a ticket, then give the fixed hint."""
    entered.put(os.getpid())
    tickets.get(True, 60)
    return fixed_hint(*args)


def failing_move(*args: Any) -> Action:
    """In a worker: a level that cannot play (as `hard` before the search players land)."""
    raise ValueError("unknown bot kind")


def dying_move(*args: Any) -> Action:
    """In a worker: the worker dies mid-thought."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def spinning_move(*args: Any) -> Action:
    """In a worker: a thought that never ends (a level stuck in a loop), burning CPU."""
    while True:
        pass


def spinning_hint(*args: Any) -> Hint[Any]:
    """In a worker: a hint that never ends, burning CPU."""
    while True:
        pass


def fixed_hint(engine: Any, state: Any, seat: Seat, seed: str, seconds: float) -> Hint[Any]:
    """In a worker: the normal move, with a reason the bot's words have."""
    return Hint(engine.bot_action(state, seat, random.Random(seed)), Message(key="players.about.hard"))
