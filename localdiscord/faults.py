"""Failures and stalls a test injects into the bot's REST calls: Discord answering errors, or not answering yet."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from localdiscord.state import StandInState


@dataclass(eq=False)
class FailedRequests:
    """The handle of ``LocalDiscord.fail_requests``: which requests fail, how, and ``hits`` (how many so far)."""

    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int | None
    retry_after: float | None
    hits: int = 0
    cancelled: bool = False

    def cancel(self) -> None:
        """Stop failing requests: later ones are served normally."""
        self.cancelled = True

    @property
    def active(self) -> bool:
        """Whether the next matching request will still fail."""
        return not self.cancelled and (self.times is None or self.hits < self.times)

    def matches(self, method: str, path: str) -> bool:
        """Whether this rule fails a request now (``path`` without ``/api/v10``)."""
        return self.active and method == self.method and self.pattern.search(path) is not None


class HeldRequests:
    """The handle of ``LocalDiscord.hold_requests``: matching requests wait until ``release()`` or ``drop()``.

    ``count`` is how many were held so far, ``waiting`` how many are held now. Both ``release()`` and
    ``drop()`` end the hold (later requests pass); as an async context manager, leaving the block releases.
    """

    def __init__(self, state: StandInState, method: str, pattern: re.Pattern[str], *, timeout: float) -> None:
        self._state = state
        self._timeout = timeout
        self.method = method
        self.pattern = pattern
        self.count = 0
        self.ended = False
        self._held: list[asyncio.Future[bool]] = []

    async def __aenter__(self) -> HeldRequests:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.release()

    @property
    def waiting(self) -> int:
        """How many requests are held right now."""
        return sum(1 for future in self._held if not future.done())

    def matches(self, method: str, path: str) -> bool:
        """Whether this hold catches a request now (``path`` without ``/api/v10``)."""
        return not self.ended and method == self.method and self.pattern.search(path) is not None

    async def hold(self) -> bool:
        """Keep a request until the test decides: True to serve it, False to drop it."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._held.append(future)
        self.count += 1
        self._state.notify()
        try:
            return await future
        finally:
            self._held.remove(future)

    async def arrived(self, *, timeout: float | None = None) -> None:
        """Wait until at least one matching request has been held (the stand-in's timeout by default)."""
        what = f"a {self.method} request matching {self.pattern.pattern!r} to be held"
        await self._state.wait_until(lambda: self.count > 0 or None, timeout=timeout or self._timeout, what=what)

    def release(self) -> None:
        """Serve the held requests normally and end the hold."""
        self._end(serve=True)

    def drop(self) -> None:
        """Abort the held requests' connections (the bot's call fails) and end the hold."""
        self._end(serve=False)

    def _end(self, *, serve: bool) -> None:
        self.ended = True
        for future in self._held:
            if not future.done():
                future.set_result(serve)
        self._state.notify()


@dataclass
class Faults:
    """The failures and holds in force, which the REST layer consults before serving each request."""

    failures: list[FailedRequests] = field(default_factory=list)
    holds: list[HeldRequests] = field(default_factory=list)

    def failure(self, method: str, path: str) -> FailedRequests | None:
        """The rule failing this request, its hit counted; None to serve it."""
        rule = next((r for r in self.failures if r.matches(method, path)), None)
        if rule is not None:
            rule.hits += 1
        return rule

    def hold(self, method: str, path: str) -> HeldRequests | None:
        """The hold catching this request, or None."""
        return next((h for h in self.holds if h.matches(method, path)), None)

    @property
    def holding(self) -> bool:
        """Whether any request is held right now."""
        return any(h.waiting for h in self.holds)

    @property
    def held(self) -> int:
        """How many requests were held so far, by every hold."""
        return sum(h.count for h in self.holds)

    def drop_all(self) -> None:
        """Drop every held request and end every hold (the stand-in is closing)."""
        for hold in self.holds:
            hold.drop()
