"""A game's own command (/claim and /station of Ticket to Ride, /roll of the dice game) typed in a channel playing
another game answers as the shared commands do: that game has no such command; with no game, there is none here."""

from __future__ import annotations

from bot.i18n import command_mention
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running


async def test_a_games_own_command_in_another_games_channel_says_that_game_has_none(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        empty = await stand_in.slash("Ann", "roll", channel="general")
        assert empty.ephemeral and empty.text.startswith("There is no game in this channel.")

        await stand_in.slash("Ann", "newgame dice")
        await stand_in.slash("Ben", "newgame ticket-to-ride", channel="general")
        assert len(bot.service.running()) == 0 and len(await bot.service.store.open_in_guild(stand_in.guild_id)) == 2

        dice = "«Poezd», the train dice game"
        claim = await stand_in.slash("Cat", "claim", {"route": "Denver"})
        assert claim.ephemeral
        assert claim.text == f"The game in this channel ({dice}) has no {command_mention('claim')} command."
        station = await stand_in.slash("Dan", "station", {"city": "Berlin"})
        assert station.text == f"В игре этого канала («Поезд», игра в кубики) нет команды {command_mention('station')}."
        roll = await stand_in.slash("Eve", "roll", channel="general")
        assert roll.text == f"The game in this channel (Ticket to Ride) has no {command_mention('roll')} command."
