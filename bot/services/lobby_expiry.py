"""Idle lobbies expire: a lobby nobody joined, left or changed for longer than its server allows is cancelled.

The check runs in a background loop every `interval` seconds (`start()` / `close()`); tests call `run_due()` after
moving the injected clock, and nothing in them waits on the real one. A lobby's idle time is measured from its
last change as stored (`updated_at`, written from the wall clock by `now_iso`), so the clock must count seconds
since the epoch like `time.time`.

Each expired lobby is cancelled through the lobby service at the version found idle (a lobby someone touches at
that moment stays open), then shown as expired by the presenter the lobby extension sets (`present`; None shows
nothing), and the game service's listeners are told it closed (its thread is archived).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bot.services.background import BackgroundLoop
from bot.services.errors import ServiceError
from bot.services.guild_config import MIN_MINUTES, GuildConfigService
from bot.services.lobby import LobbyService
from bot.storage.games import GameRecord

log = logging.getLogger(__name__)

Presenter = Callable[[GameRecord, int], Awaitable[None]]
"""Show a lobby as expired (redraw it without buttons, tell its channel); gets the cancelled record and the minutes."""

CHECK_EVERY = 60.0
"""Seconds between two looks for idle lobbies: expiry is counted in minutes, so a minute late is on time."""


class LobbyExpiry(BackgroundLoop):
    """Cancels lobbies idle longer than their server's `limits.lobby_expiry_minutes`."""

    task_name = "lobby-expiry"

    def __init__(
        self,
        lobby: LobbyService,
        config: GuildConfigService,
        *,
        clock: Callable[[], float] = time.time,
        present: Presenter | None = None,
        interval: float = CHECK_EVERY,
    ) -> None:
        super().__init__()
        self.lobby = lobby
        self.games = lobby.games
        self.config = config
        self.clock = clock
        self.present: Presenter | None = present
        self.interval = interval
        self._running = asyncio.Lock()

    async def run_due(self) -> list[GameRecord]:
        """Cancel every lobby idle past its server's limit by the clock now; return the lobbies cancelled."""
        expired: list[GameRecord] = []
        async with self._running:
            now = self.clock()
            candidates = [  # no server allows less; other processes expire their own servers' lobbies
                record
                for record in await self.games.store.idle_lobbies(_iso(now - MIN_MINUTES * 60))
                if self.games.drives(record)
            ]
            by_limit: dict[int, set[int | None]] = {}
            for guild_id in {record.guild_id for record in candidates}:
                minutes = (await self.config.get(guild_id)).limits.lobby_expiry_minutes
                by_limit.setdefault(minutes, set()).add(guild_id)
            for minutes, guilds in sorted(by_limit.items()):
                for record in await self.games.store.idle_lobbies(_iso(now - minutes * 60)):
                    if self._closing:
                        return expired
                    if record.guild_id not in guilds or not self.games.drives(record):
                        continue
                    cancelled = await self._expire(record, minutes)
                    if cancelled is not None:
                        expired.append(cancelled)
        return expired

    async def _expire(self, record: GameRecord, minutes: int) -> GameRecord | None:
        try:
            cancelled = await self.lobby.cancel(record.id, record.host_id, version=record.version)
        except ServiceError:  # changed, started or closed since it was read: not idle any more
            return None
        except Exception:
            log.exception("could not expire the lobby of game %s", record.id)
            return None
        try:
            if self.present is not None:
                await self.present(cancelled, minutes)
        except Exception:
            log.exception("could not show the lobby of game %s as expired", record.id)
        await self.games.after_close(cancelled)
        return cancelled

    # ---- the background loop ------------------------------------------------------------------------------

    async def seconds_to_next(self) -> float:
        """Look again every `interval` seconds."""
        return self.interval


def _iso(seconds: float) -> str:
    """A moment as `now_iso` writes it (UTC, ISO 8601), for comparing with stored `updated_at`."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")
