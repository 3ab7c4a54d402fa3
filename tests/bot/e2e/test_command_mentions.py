"""Once the bot is up, its texts name commands as mentions carrying the ids Discord gave them on sync."""

from __future__ import annotations

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running


async def test_a_text_naming_a_command_mentions_it_with_the_synced_id_in_each_language(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        newgame = stand_in.command("newgame")
        assert newgame.option("dice")["type"] == 1, "/newgame dice is the subcommand a bare /newgame mentions"
        english = await stand_in.slash("Ann", "leave")
        russian = await stand_in.slash("Dan", "leave")
    mention = f"</newgame dice:{newgame.id}>"
    assert english.ephemeral and english.text == f"There is no game in this channel. Start one with {mention}."
    assert russian.ephemeral and russian.text == f"В этом канале нет игры. Начните её командой {mention}."
