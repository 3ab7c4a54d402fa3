"""Games in threads of their own: opened by /newgame when the server wants it, bound there, archived at the end."""

from __future__ import annotations

from bot.sandbox import LocalDiscord
from tests.bot.e2e.admin.support import Running, button, lobby_in, play_dice
from tests.bot.e2e.conftest import people


async def test_a_thread_game_is_played_in_its_thread_and_the_thread_is_archived_at_the_end(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config threads", {"enabled": True})
        assert "Saved: new games open in a thread of their own." in saved.text.splitlines()
        pointer = await stand_in.slash("Ann", "newgame dice", {"target": 10})
        assert pointer.response_type == 5 and not pointer.ephemeral, "a public 'thinking' while the thread opens"
        await pointer.followup(0)  # the pointer fills it
        [thread] = stand_in.threads
        assert not pointer.ephemeral and f"<#{thread.id}>" in pointer.text
        assert thread.parent_id == stand_in.channel("trains").id and thread.type == 11
        assert thread.name == "«Poezd», the train dice game · Ann"
        assert stand_in.user("Ann").id in thread.member_ids
        lobby = lobby_in(stand_in, thread.id)
        await stand_in.click("Ben", lobby, button(lobby, "join"))
        await stand_in.click("Ann", lobby, button(stand_in.message(lobby.id), "start"))
        record = await bot.service.game_in_channel(thread.id)
        assert record.channel_id == thread.id and [s.name for s in record.seats] == ["Ann", "Ben"]

        elsewhere = await stand_in.slash("Ann", "roll")  # typed in #trains, the thread's parent
        assert elsewhere.ephemeral
        assert elsewhere.text == f"That game is played in <#{thread.id}> (game #{record.id}): use the command there."
        by_player = await stand_in.slash("Ben", "leave", channel="general")
        assert by_player.ephemeral and f"<#{thread.id}>" in by_player.text
        nothing = await stand_in.slash("Cat", "endgame", channel="general")
        start_one = f"Start one with </newgame dice:{stand_in.command('newgame').id}>."
        assert nothing.text == f"There is no game in this channel. {start_one}"
        russian = await stand_in.slash("Dan", "roll")
        assert russian.text.startswith(f"Эта игра идёт в <#{thread.id}>")

        finished = await play_dice(stand_in, bot, thread.id, record.id, people(stand_in, "Ann", "Ben"), seed=3)
        assert finished.status == "finished"
        await stand_in.wait_for(lambda: stand_in.channel(thread.id).archived or None, what="the thread archived")
    assert {"archived": True} in stand_in.channel(thread.id).edits
    in_channel = stand_in.channel_messages("trains")
    assert [m.id for m in in_channel] == [pointer.message.id if pointer.message else 0], "the game stayed in its thread"
    assert len(stand_in.channel_messages(thread.id)) > 3


async def test_a_lobby_cancelled_in_its_thread_archives_the_thread(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        await (await stand_in.slash("Ann", "newgame dice")).followup(0)
        await (await stand_in.slash("Ben", "newgame dice")).followup(0)  # threads never collide
        first, second = stand_in.threads
        lobby = lobby_in(stand_in, first.id)
        cancelled = await stand_in.click("Ann", lobby, button(lobby, "cancel"))
        assert not cancelled.ephemeral
        await stand_in.wait_for(lambda: stand_in.channel(first.id).archived or None, what="the thread archived")
        assert not stand_in.channel(second.id).archived


async def test_without_threads_games_stay_in_their_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None and stand_in.threads == []
        assert (await bot.service.game_in_channel(stand_in.channel("trains").id)).channel_id == lobby.channel_id
