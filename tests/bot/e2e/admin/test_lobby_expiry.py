"""Idle lobbies expire through the local Discord: the test moves the bot's clock, so nothing waits for real."""

from __future__ import annotations

import time

import pytest

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import (
    Clock,
    Running,
    lobby_expiry,
    lobby_in,
    verb_id,
)


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())  # a lobby's idle time counts from its last change, stored by the wall clock


async def test_a_lobby_nobody_touches_expires_without_buttons_and_the_channel_is_told(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        record = await bot.service.game_in_channel(lobby.channel_id)
        expiry = lobby_expiry(bot)
        clock.advance(59)
        assert await expiry.run_due() == []
        clock.advance(2)
        [expired] = await expiry.run_due()
        assert expired.id == record.id and expired.status == "cancelled"
        notice = await stand_in.wait_for_message(lambda m: m.text.startswith("⌛"))
        assert notice.text == (
            f"⌛ The lobby of game #{record.id} expired: nobody joined or changed it for 60 min."
            f" Open a new one with </newgame dice:{stand_in.command('newgame').id}>."
        )
        shown = stand_in.message(lobby.id)
        assert shown.buttons() == [] and "This lobby expired: nobody joined or changed it for 60 min." in (shown.text)
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.status == "cancelled"
        fresh = await stand_in.slash("Ben", "newgame dice")
        assert not fresh.ephemeral, "the channel is free again"


async def test_each_server_sets_its_expiry_and_a_lobby_that_expires_on_a_thread_server_leaves_no_thread(
    stand_in: LocalDiscord, running: Running, clock: Clock
) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config limits", {"lobby_expiry": 30})
        assert "⌛ A lobby nobody joins or changes for **30** min expires." in saved.text
        too_short = await stand_in.slash("Boss", "config limits", {"lobby_expiry": 1}, force=True)
        assert too_short.text == "Lobby expiry must be from 5 to 10080; 1 is outside that."
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        await stand_in.slash("Ann", "newgame dice")
        trains = stand_in.channel("trains").id
        lobby = lobby_in(stand_in, trains)
        clock.advance(20)
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))  # a change: stored now, by the wall clock
        expiry = lobby_expiry(bot)
        clock.advance(11)
        [expired] = await expiry.run_due()
        assert expired.channel_id == trains
        notice = await stand_in.wait_for_message(lambda m: m.text.startswith("⌛"), channel=trains)
        assert "for 30 min" in notice.text
        assert stand_in.threads == [], "a thread is opened only at Start"
