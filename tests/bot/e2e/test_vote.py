"""/vote pause|resume|end end to end through the local Discord: a majority of the people in the game carries a vote
and a minority does not; a paused game refuses moves and its turn timers stop until a vote resumes it; a vote to end
ends the game as abandoned; bot players do not vote; votes cannot flood the channel (the asker's answer is yes, one
vote at a time, a refused or lapsed one not asked again by the same person until the cooldown passes)."""

from __future__ import annotations

import random
import re
import time
from datetime import datetime
from typing import Any

from bot.app import Conductor
from bot.sandbox.table import ScriptedTable
from localdiscord import InteractionOutcome, LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Running, table, verb_id


async def status(bot: Conductor, game_id: int) -> str:
    record = await bot.service.store.get(game_id)
    assert record is not None
    return record.status


async def propose(stand_in: LocalDiscord, who: str, what: str) -> InteractionOutcome:
    """`/vote <what>` as `who`: the public vote, with its buttons."""
    asked = await stand_in.slash(who, f"vote {what}")
    assert not asked.ephemeral and asked.message is not None and len(asked.message.buttons()) == 2, asked.text
    return asked


async def try_a_move(stand_in: LocalDiscord, players: ScriptedTable, game_id: int) -> InteractionOutcome:
    """The person to act clicks the first move of the turn message."""
    record = await players.settle(game_id)
    found = players.person_to_act(record)
    assert found is not None
    message = await players.turn_message(game_id)
    move = next(str(c["custom_id"]) for c in message.buttons() if str(c["custom_id"]).split(":")[3] == "act")
    return await stand_in.click(found[1], message, move)


async def test_pause_by_majority_stops_moves_and_timers_until_resumed(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        record = await players.open("dice")
        game_id = record.id
        assert await bot.timers.store.timers(game_id), "the person to act has a turn timer"

        outsider = await stand_in.slash("Eve", "vote pause")
        assert outsider.ephemeral and "not playing" in outsider.text
        asked = await propose(stand_in, "Ann", "pause")
        assert "proposes to pause game" in asked.text and "It carries with 2 yes votes" in asked.text
        again = await stand_in.slash("Cat", "vote pause")
        assert again.ephemeral and "already open" in again.text
        carried = await stand_in.click("Ben", asked.message, verb_id(asked.message, "yes"))
        assert "Paused by vote" in carried.message.text and carried.message.buttons() == []
        assert await bot.timers.store.timers(game_id) == {}

        at = (await players.settle(game_id)).version
        refused = await try_a_move(stand_in, players, game_id)
        assert refused.ephemeral and "This game is paused" in refused.text
        assert (await players.settle(game_id)).version == at
        bot.clock = lambda: time.time() + 10 * 3600  # long past every reminder and timeout: nothing fires
        assert await bot.timers.run_due() == 0
        bot.clock = time.time
        twice = await stand_in.slash("Ben", "vote pause")
        assert twice.ephemeral and "paused already" in twice.text

        resume = await propose(stand_in, "Cat", "resume")
        no = await stand_in.click("Ann", resume.message, verb_id(resume.message, "no"))
        assert no.message.buttons(), "one no of three does not decide it"
        carried = await stand_in.click("Ben", resume.message, verb_id(resume.message, "yes"))
        assert "Resumed by vote" in carried.message.text
        assert await bot.timers.store.timers(game_id)
        moved = await try_a_move(stand_in, players, game_id)
        assert not moved.ephemeral
        await players.wait_for_version_after(game_id, at)


async def test_end_needs_a_majority_and_then_ends_the_game_as_abandoned(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        record = await players.open("dice")
        asked = await propose(stand_in, "Ann", "end")
        await stand_in.click("Ben", asked.message, verb_id(asked.message, "no"))
        refused = await stand_in.click("Cat", asked.message, verb_id(asked.message, "no"))
        assert "Not carried" in refused.message.text and refused.message.buttons() == []
        assert await status(bot, record.id) == "active"
        await players.play_move(record.id, random.Random(1))

        asked = await propose(stand_in, "Ben", "end")
        carried = await stand_in.click("Cat", asked.message, verb_id(asked.message, "yes"))
        assert "Ended by vote" in carried.message.text
        assert await status(bot, record.id) == "abandoned"
        assert await bot.timers.store.timers(record.id) == {}
        gone = await stand_in.slash("Ann", "vote resume")
        assert gone.ephemeral
        votes = await bot.database.fetch("SELECT kind, outcome FROM game_votes WHERE game_id = ?", (record.id,))
        assert sorted((row["kind"], row["outcome"]) for row in votes) == [("end", "carried"), ("end", "refused")]


async def test_a_vote_nobody_answers_lapses_and_loses_its_buttons(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice")
        cog: Any = bot.get_cog("VoteCog")  # loaded by discord.py as a module of its own: no isinstance
        cog.consent.lapse_after = 0.3  # a test does not wait three minutes
        asked = await propose(stand_in, "Ann", "end")
        await stand_in.wait_for(
            lambda: "The vote lapsed" in stand_in.message(asked.message.id).text, what="the vote lapsed"
        )
        assert stand_in.message(asked.message.id).buttons() == []
        assert await status(bot, record.id) == "active"


async def test_bot_players_do_not_vote_and_a_pause_outlives_a_restart(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann")
        record = await players.open("dice", bots=2)
        paused = await stand_in.slash("Ann", "vote pause")
        assert not paused.ephemeral and "Paused by vote" in paused.text and paused.message.buttons() == []
        version = (await players.settle(record.id)).version

    async with running() as bot:
        players = table(stand_in, bot, "Ann")
        assert bot.moves.paused(record.id)
        refused = await try_a_move(stand_in, players, record.id)
        assert refused.ephemeral and "paused" in refused.text
        resumed = await stand_in.slash("Ann", "vote resume")
        assert "Resumed by vote" in resumed.text
        assert not bot.moves.paused(record.id)
        assert (await players.settle(record.id)).version >= version


async def test_undo_and_vote_are_synced_with_russian_names(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        undo = stand_in.command("undo").payload
        vote = stand_in.command("vote")
    assert undo["name_localizations"]["ru"] == "отменить_ход"
    assert vote.payload["name_localizations"]["ru"] == "голосование"
    assert [vote.option(name)["name_localizations"]["ru"] for name in ("pause", "resume", "end")] == [
        "пауза",
        "продолжить",
        "завершить",
    ]


def public_votes(stand_in: LocalDiscord) -> list[RecordedMessage]:
    """The vote messages everyone sees in the game's channel."""
    return [m for m in stand_in.channel_messages() if "proposes to" in m.text]


async def test_a_self_refused_vote_cannot_flood_the_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice")
        asked = await propose(stand_in, "Ann", "end")
        assert "It carries with 2 yes votes. Yes: Ann. No: nobody." in asked.text, "the asker's answer is yes"

        own_no = await stand_in.click("Ann", asked.message, verb_id(asked.message, "no"))
        assert own_no.ephemeral and own_no.text == "You asked for this vote: your answer is yes, and it cannot change."
        assert stand_in.message(asked.message.id).buttons(), "the vote is still open"
        assert "Yes: Ann. No: nobody." in stand_in.message(asked.message.id).text

        other_kind = await stand_in.slash("Ben", "vote pause")
        assert other_kind.ephemeral and other_kind.text == (
            "A vote is already open in this game: Ann proposes to end the game. Answer it with its buttons; one vote"
            " at a time."
        )
        refused = await stand_in.click("Ben", asked.message, verb_id(asked.message, "no"))
        assert "Not carried" in refused.message.text

        for _ in range(5):
            again = await stand_in.slash("Ann", "vote end")
            assert again.ephemeral and "was refused or lapsed: you may ask again" in again.text
        (row,) = await bot.database.fetch("SELECT closed_at FROM game_votes WHERE game_id = ?", (record.id,))
        cooldown = bot.settings.vote_cooldown_minutes * 60
        at = int(re.findall(r"<t:(\d+):R>", again.text)[0])
        assert abs(at - (datetime.fromisoformat(row["closed_at"]).timestamp() + cooldown)) <= 1
        assert len(public_votes(stand_in)) == 1
        assert await status(bot, record.id) == "active"

        bot.clock = lambda: time.time() + cooldown + 1
        reopened = await propose(stand_in, "Ann", "end")
        assert reopened.message.id != asked.message.id and len(public_votes(stand_in)) == 2


async def test_a_lapsed_vote_waits_for_the_cooldown_but_other_kinds_and_other_people_may_ask(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Dan", "Ben", "Cat")
        await players.open("dice")
        cog: Any = bot.get_cog("VoteCog")
        cog.consent.lapse_after = 0.3
        asked = await propose(stand_in, "Dan", "pause")
        await stand_in.wait_for(
            lambda: "The vote lapsed" in stand_in.message(asked.message.id).text, what="the vote lapsed"
        )
        again = await stand_in.slash("Dan", "vote pause")
        assert again.ephemeral and "отклонена или истекла: снова попросить можно <t:" in again.text, "Dan reads Russian"

        cog.consent.lapse_after = 180.0
        end = await propose(stand_in, "Dan", "end")
        own_no = await stand_in.click("Dan", end.message, verb_id(end.message, "no"))
        assert own_no.text == "Это голосование начали вы: ваш ответ «за», и изменить его нельзя."
        await stand_in.click("Ben", end.message, verb_id(end.message, "no"))
        await stand_in.click("Cat", end.message, verb_id(end.message, "no"))
        await propose(stand_in, "Ben", "pause")
