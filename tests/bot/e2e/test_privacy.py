"""Privacy follows the channel, through the local Discord: a game played in #staff, which only the staff (Ben and
Cat) can view, is replayed, listed, counted and watched only for them; a replay shows only in the game's own channel
(privately anywhere else); a refusal is private and posts nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.app import Conductor
from bot.storage.games import GameRecord
from localdiscord import LocalDiscord, LocalRole, RecordedMessage
from tests.bot.e2e.helpers import Running, checked, table, usual_people

STAFF = "Staff"
VIEW = discord.Permissions(view_channel=True).value
OPTIONS = {"target": 10}
"""A short dice race, so the game ends in a few turns."""
WAIT = 20.0
"""Seconds any step may take on a busy machine before the test gives up on it."""
DRAWN = 60.0
"""Seconds a replay may take to come (its animation is drawn in a worker started on first use)."""


@pytest.fixture
async def stand_in(caplog: pytest.LogCaptureFixture) -> AsyncIterator[LocalDiscord]:
    """The usual seven people, Ben and Cat on the staff, and #staff, which only the staff and the bot can view;
    afterwards nothing may be unhandled and nothing logged as an error."""
    staff = {"Ben": (STAFF,), "Cat": (STAFF,)}
    places = ("trains", "general", "staff")
    async with checked(
        caplog, usual_people(staff), roles=[LocalRole(STAFF)], channels=places, timeout=WAIT
    ) as discord_:
        await discord_.set_role_permissions("staff", "@everyone", deny=VIEW)
        await discord_.set_role_permissions("staff", STAFF, allow=VIEW)
        await discord_.set_role_permissions("staff", "Conductor", allow=VIEW)
        yield discord_


async def started(stand_in: LocalDiscord, bot: Conductor, host: str, channel: str) -> GameRecord:
    """A short dice race of `host` and a bot player, opened in `channel` (or a thread of it) and started."""
    players = table(stand_in, bot, host)
    await stand_in.slash(host, "newgame dice", OPTIONS, channel=channel)
    lobby = next(m for m in reversed(stand_in.messages) if any(b["custom_id"].endswith(":join") for b in m.buttons()))
    await players.add_bot(stand_in.user(host), lobby.id)
    await players.click_labelled(stand_in.user(host), lobby.id, "start")
    record = await bot.service.game_in_channel(lobby.channel_id)
    if record.status == "lobby":  # Start is still being applied (the game's thread opened)
        await players.wait_for_version_after(record.id, record.version)
    return await players.settle(record.id)


async def finished(stand_in: LocalDiscord, bot: Conductor, host: str, channel: str) -> GameRecord:
    """A short dice race of `host` and a bot player in `channel` (or a thread of it), played to its end."""
    record = await started(stand_in, bot, host, channel)
    return await table(stand_in, bot, host).play_to_the_end(record.id, seed=3)


def public_messages(stand_in: LocalDiscord) -> list[RecordedMessage]:
    """Every message anyone can see in a channel or thread (no private answer)."""
    return [m for m in stand_in.messages if not m.ephemeral and not m.deleted]


def listed_ids(answer: RecordedMessage | None) -> list[int]:
    """The game ids a /history page lists, in order."""
    assert answer is not None
    entries = answer.embeds[0]["description"].split("\n\n")
    return [int(entry.split(" · #")[1].split(" ")[0]) for entry in entries]


async def test_a_replay_is_refused_to_who_cannot_view_the_games_channel_and_shown_only_there(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        hidden = await finished(stand_in, bot, "Ben", "staff")
        posted = public_messages(stand_in)

        refused = await stand_in.slash("Ann", "replay", {"game": hidden.id})
        assert refused.ephemeral and refused.text == f"Game #{hidden.id} was played in a channel you cannot see."
        assert public_messages(stand_in) == posted, "a refusal posts nothing"

        elsewhere = await stand_in.slash("Cat", "replay", {"game": hidden.id}, timeout=DRAWN)
        assert elsewhere.ephemeral and elsewhere.message is not None, "asked elsewhere: answered privately"
        names = {a.filename for a in elsewhere.message.attachments}
        assert names == {f"replay-{hidden.id}.webp", f"game-{hidden.id}.json"}
        assert public_messages(stand_in) == posted, "never shown in a channel where the game was not played"

        there = await stand_in.slash("Ben", "replay", {"game": hidden.id}, channel="staff", timeout=DRAWN)
        assert not there.ephemeral and there.message is not None
        assert there.message.channel_id == stand_in.channel("staff").id and len(there.message.attachments) == 2


async def test_history_and_stats_leave_out_the_games_of_channels_the_asker_cannot_view(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        hidden = await finished(stand_in, bot, "Ben", "staff")
        shown = await finished(stand_in, bot, "Ben", "trains")
        await bot.ratings.until_recorded(2)

        outsider = await stand_in.slash("Ann", "history")
        assert outsider.message is not None and listed_ids(outsider.message) == [shown.id]
        assert outsider.message.embeds[0]["footer"]["text"] == "Page 1 of 1 · 1 game", "counted as not there"
        staff = await stand_in.slash("Cat", "history", {"member": "Ben"})
        assert listed_ids(staff.message) == [shown.id, hidden.id]
        assert listed_ids((await stand_in.slash("Ann", "history", {"member": "Ben"})).message) == [shown.id]

        counted = await stand_in.slash("Ann", "stats", {"member": "Ben", "game": "dice"})
        assert not counted.ephemeral and "in «Poezd», the train dice game: 1 game, " in counted.content
        assert "1 game, " in (counted.message.attachments[0].description or "")  # type: ignore[union-attr]
        all_of_them = await stand_in.slash("Cat", "stats", {"member": "Ben", "game": "dice"})
        assert "in «Poezd», the train dice game: 2 games, " in all_of_them.content

        only_hidden = await finished(stand_in, bot, "Cat", "staff")
        await bot.ratings.until_recorded(3)
        nothing = await stand_in.slash("Ann", "stats", {"member": "Cat"})
        assert nothing.ephemeral and nothing.text == "Cat has no finished games on this server yet."
        seen = await stand_in.slash("Ben", "stats", {"member": "Cat"})
        assert not seen.ephemeral and "1 game, " in seen.content
        assert only_hidden.id not in listed_ids((await stand_in.slash("Ann", "history")).message)


async def test_watch_is_refused_to_who_cannot_view_the_games_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        record = await started(stand_in, bot, "Ben", "staff")
        refused = await stand_in.slash("Ann", "watch", {"game": record.id})
        assert refused.ephemeral and refused.text == f"Game #{record.id} is played in a channel you cannot see."
        assert not await bot.notifications.store.watching(record.id, stand_in.user("Ann").id)
        watching = await stand_in.slash("Cat", "watch", {"game": record.id})
        assert watching.ephemeral and watching.text.startswith(f"👀 You will get a DM when game #{record.id} ends.")
        assert await bot.notifications.store.watching(record.id, stand_in.user("Cat").id)


async def test_a_game_in_a_thread_is_seen_from_the_threads_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running(threads=True) as bot:
        hidden = await finished(stand_in, bot, "Ben", "staff")
        thread = stand_in.channel(hidden.channel_id)
        assert thread.is_thread and thread.parent_id == stand_in.channel("staff").id
        posted = public_messages(stand_in)

        refused = await stand_in.slash("Ann", "replay", {"game": hidden.id})
        assert refused.ephemeral and refused.text == f"Game #{hidden.id} was played in a channel you cannot see."
        assert public_messages(stand_in) == posted
        assert (await stand_in.slash("Ann", "history")).text == "No finished games to show."
        assert listed_ids((await stand_in.slash("Cat", "history")).message) == [hidden.id]

        there = await stand_in.slash("Cat", "replay", {"game": hidden.id}, channel="staff", timeout=DRAWN)
        assert not there.ephemeral and there.message is not None
        assert there.message.channel_id == stand_in.channel("staff").id, "the channel the game's thread came from"
