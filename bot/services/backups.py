"""Backups of the SQLite store on a schedule, while the bot runs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage.backup import backups, take_backup, taken_at

log = logging.getLogger(__name__)

FIRST_AFTER = timedelta(minutes=10)
"""With no backup yet, how long after start the first is taken: once the start's own work (pictures, catching up
channels) is done."""
RETRY = timedelta(hours=1)
"""How long after a failed backup the next is tried (sooner than the schedule, not at once in a loop)."""


class BackupSchedule:
    """Backs up the database every `every`, counted from the newest backup in the folder (so a restart neither
    skips one nor takes an extra), keeping the `keep` newest; the copying runs in a thread."""

    def __init__(
        self,
        database: Path,
        folder: Path,
        *,
        every: timedelta,
        keep: int,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._database = database
        self._folder = folder
        self._every = every
        self._keep = keep
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._started = clock()

    def start(self) -> None:
        """Start taking backups in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="backups")

    async def close(self) -> None:
        """Stop the schedule (a copy already running in its thread finishes on its own)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def next_due(self) -> datetime:
        """When the next backup is due: `every` after the newest one, or `FIRST_AFTER` the start if there is none."""
        newest = backups(self._folder)[-1:]
        taken = taken_at(newest[0]) if newest else None
        return self._started + FIRST_AFTER if taken is None else taken + self._every

    async def _run(self) -> None:
        while True:
            wait = (self.next_due() - self._clock()).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                path = await asyncio.to_thread(
                    take_backup, self._database, self._folder, keep=self._keep, at=self._clock()
                )
            except Exception:
                log.exception("backing up %s into %s failed; trying again in %s", self._database, self._folder, RETRY)
                await asyncio.sleep(RETRY.total_seconds())
                continue
            log.info("backed up the database into %s (%d bytes)", path, path.stat().st_size)
