"""Games in threads of their own: opened at Start from the lobby message when the server wants it, bound there,
archived at the end; a lobby that never starts leaves no thread."""

from __future__ import annotations

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, people, play_dice, verb_id


async def test_a_thread_game_is_played_in_its_thread_and_the_thread_is_archived_at_the_end(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config threads", {"enabled": True})
        assert "Saved: new games open in a thread of their own." in saved.text.splitlines()
        opened = await stand_in.slash("Ann", "newgame dice", {"target": 10})
        lobby = opened.message
        assert lobby is not None and not opened.ephemeral and stand_in.threads == [], "the lobby is in the channel"
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        started = await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
        assert started.response_type == 6, "acknowledged before the thread is opened"
        shown = await started.edited()
        [thread] = stand_in.threads
        assert thread.parent_id == stand_in.channel("trains").id and thread.type == 11
        assert thread.starter_message_id == lobby.id, "opened from the lobby message"
        assert thread.name == "«Poezd», the train dice game · Ann"
        assert {stand_in.user("Ann").id, stand_in.user("Ben").id} <= thread.member_ids
        assert f"The game is played in <#{thread.id}>." in shown.text and shown.buttons() == []
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
        assert len(stand_in.channel_messages(thread.id)) >= 2, "its turns were told there"
        await stand_in.wait_for(lambda: stand_in.channel(thread.id).archived or None, what="the thread archived")
    assert {"archived": True} in stand_in.channel(thread.id).edits
    in_channel = stand_in.channel_messages("trains")
    assert [m.id for m in in_channel] == [lobby.id], "the game stayed in its thread"


async def test_ten_lobbies_opened_and_cancelled_with_threads_on_leave_no_thread(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        for host in ("Ann", "Ben") * 5:
            lobby = (await stand_in.slash(host, "newgame dice")).message
            assert lobby is not None
            cancelled = await stand_in.click(host, lobby, verb_id(lobby, "cancel"))
            assert not cancelled.ephemeral
        assert stand_in.threads == []
        assert await bot.service.store.count_open(guild_id=stand_in.guild_id) == 0
        assert len(stand_in.channel_messages("trains")) == 10, "each lobby's own message, shown cancelled: nothing more"


async def test_a_server_that_never_chose_gets_a_thread_at_start(stand_in: LocalDiscord, running: Running) -> None:
    async with running(threads=None) as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None and stand_in.threads == []
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        await (await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))).edited()
        [thread] = stand_in.threads
        record = await bot.service.game_in_channel(thread.id)
        assert record.status == "active" and await bot.records.thread_of(record.id) == thread.id


async def test_without_threads_games_stay_in_their_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None and stand_in.threads == []
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
        assert stand_in.threads == []
        assert (await bot.service.game_in_channel(stand_in.channel("trains").id)).status == "active"
