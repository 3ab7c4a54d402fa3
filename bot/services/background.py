"""A background task that does what is due now and then: woken early by `poke()`, stopped after the round in hand."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)


class BackgroundLoop:
    """Runs `run_due()` in a task from `start()` until `close()`; subclasses say how long to wait between rounds."""

    task_name = "background"

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._closing = False

    async def run_due(self) -> object:
        """Do what is due by now (tests call it directly after moving the clock)."""
        raise NotImplementedError

    async def seconds_to_next(self) -> float:
        """How long to sleep before the next round unless poked."""
        raise NotImplementedError

    async def before_first_round(self) -> None:
        """What to do once, when the loop starts (nothing unless a subclass says)."""

    def start(self) -> None:
        """Start the loop in the background (once the bot is connected)."""
        if self._loop is None:
            self._loop = asyncio.create_task(self._run(), name=self.task_name)

    def poke(self) -> None:
        """Look again now (something new is due, or a test moved the clock)."""
        self._wake.set()

    async def close(self, timeout: float = 5.0) -> None:
        """Stop after the round in hand, so nothing is half done; cancel it if it takes longer than `timeout`."""
        self._closing = True
        self.poke()
        if self._loop is not None:
            done, _ = await asyncio.wait({self._loop}, timeout=timeout)
            if not done:
                self._loop.cancel()
                await asyncio.gather(self._loop, return_exceptions=True)

    async def _run(self) -> None:
        await self.before_first_round()
        while not self._closing:
            self._wake.clear()
            try:
                await self.run_due()
            except Exception:  # one round's trouble must not stop the loop
                log.exception("%s failed; trying again at the next round", self.task_name)
            if self._closing:
                return
            seconds = await self.seconds_to_next()  # before the wait is made: this may raise or be cancelled
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=seconds)
