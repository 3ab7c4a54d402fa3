"""Turn notification choices with several processes on one database (shards): a choice made through one process is
heeded by another once it reads everyone's choices again, within `PREFS_REFRESH` of the bot's clock."""

from __future__ import annotations

from bot.services.notifications import PREFS_REFRESH, NotificationService
from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.storage.notifications import NotificationStore
from rules.dice import DiceEngine
from tests.bot.services.game_parts import game_parts

ANN = 1


class Unreachable:
    """A Discord nobody is sent anything through here: these tests send no DM."""

    async def dm(self, user_id: int, content: str) -> bool:
        raise AssertionError("no DM is due")

    async def post(self, channel_id: int, content: str, ping: list[int]) -> None:
        raise AssertionError("nothing to post")

    def server_name(self, guild_id: int | None) -> str:
        return "a server"

    def game_name(self, language: str, game: str) -> str:
        return game


async def test_a_choice_made_through_another_process_is_heeded_after_the_next_read(db: Database) -> None:
    now = [1000.0]
    parts = game_parts(GameStore(db), {"dice": DiceEngine()})
    one, other = (
        NotificationService(NotificationStore(db), parts.games, parts.shown, Unreachable(), clock=lambda: now[0])
        for _ in range(2)
    )
    assert not (await other.prefs(ANN)).wants_dm
    await one.choose(ANN, "ru", dm=True, ping=False)
    await other.run_due()
    assert not (await other.prefs(ANN)).wants_dm, "read again only once the refresh is due"
    now[0] += PREFS_REFRESH
    await other.run_due()
    heeded = await other.prefs(ANN)
    assert heeded.wants_dm and not heeded.ping and heeded.language == "ru"
    await parts.close(timeout=0)
