"""A game's own command (/claim and /station of Ticket to Ride, /roll of the dice game) typed where another game is
played says so: which game is played here (or in a thread opened from here), and which game the command belongs to;
with no game at all, there is none here."""

from __future__ import annotations

from bot.i18n import command_mention
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, table

DICE = "«Poezd», the train dice game"


async def test_a_games_own_command_in_another_games_channel_names_both_games(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        empty = await stand_in.slash("Ann", "roll", channel="general")
        assert empty.ephemeral and empty.text.startswith("There is no game in this channel.")

        await stand_in.slash("Ann", "newgame dice")
        await stand_in.slash("Ben", "newgame ticket-to-ride", channel="general")
        assert len(bot.service.running()) == 0 and len(await bot.service.store.open_in_guild(stand_in.guild_id)) == 2

        claim = await stand_in.slash("Cat", "claim", {"route": "Denver"})
        assert claim.ephemeral
        assert (
            claim.text
            == f"This channel plays {DICE}; {command_mention('claim')} belongs to another game (Ticket to Ride)."
        )
        station = await stand_in.slash("Dan", "station", {"city": "Berlin"})
        assert station.text == (
            f"Игра этого канала — «Поезд», игра в кубики; команда {command_mention('station')} — из другой игры "
            "(Билет на поезд)."
        )
        roll = await stand_in.slash("Eve", "roll", channel="general")
        assert (
            roll.text
            == f"This channel plays Ticket to Ride; {command_mention('roll')} belongs to another game ({DICE})."
        )


async def test_a_games_own_command_where_another_game_is_played_in_a_thread_names_both_and_the_thread(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running(threads=None) as bot:  # a server that never chose: each game in a thread of its own
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("ticket-to-ride-cards")
        assert record.channel_id in {t.id for t in stand_in.threads}
        for place in (record.channel_id, "trains"):
            for person in ("Ann", "Eve"):  # a player and someone who is not
                roll = await stand_in.slash(person, "roll", channel=place)
                assert roll.ephemeral and "There is no game" not in roll.text, (place, person)
                assert "Ticket to Ride: The Card Game" in roll.text and DICE in roll.text, (place, person)
                claim = await stand_in.slash(person, "claim", {"route": "Denver"}, channel=place)
                assert "Ticket to Ride: The Card Game" in claim.text and "(Ticket to Ride)" in claim.text
        in_thread = await stand_in.slash("Ann", "roll", channel=record.channel_id)
        assert in_thread.text.startswith("This channel plays Ticket to Ride: The Card Game;")
        in_parent = await stand_in.slash("Ann", "roll")
        assert in_parent.text == (
            f"This channel's game (Ticket to Ride: The Card Game) is played in <#{record.channel_id}>; "
            f"{command_mention('roll')} belongs to another game ({DICE})."
        )
