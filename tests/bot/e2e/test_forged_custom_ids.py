"""A custom id is honoured only where its game is played: a player who forges the custom id of their own game's
button onto a click in another channel (the stand-in sends a component interaction with any custom id) is refused
privately, and nothing changes."""

from __future__ import annotations

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, act_buttons, seat_to_act, stored_version, table


async def test_a_forged_custom_id_from_another_channel_is_refused(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice")
        turn = await players.turn_message(record.id)
        person = players.people[seat_to_act(bot, record.id)]
        roll = next(custom_id for code, custom_id in act_buttons(turn).items() if code.startswith("roll"))
        other_server = stand_in.channel("trains", guild_id=stand_in.add_guild("Other"))
        await stand_in.caught_up()
        elsewhere = []  # a message of the bot's in another channel of the server, and in another server
        for channel in ("general", other_server):
            await stand_in.slash("Cat", "newgame dice", channel=channel)
            elsewhere.append(stand_in.channel_messages(channel)[-1])
        version = await stored_version(bot, record.id)
        shown = len(stand_in.channel_messages())

        for message in elsewhere:
            forged = await stand_in.click(person, message, roll, force=True)
            assert forged.ephemeral
            assert forged.text == "That button belongs to a game in another channel; nothing was changed."
        assert await stored_version(bot, record.id) == version, "no move was made"
        assert len(stand_in.channel_messages()) == shown, "nothing was posted in the game's channel"

        played = await stand_in.click(person, turn, roll)  # the same button where it belongs still plays
        assert not played.ephemeral or "another channel" not in played.text
        await players.wait_for_version_after(record.id, version)
