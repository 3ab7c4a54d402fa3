"""Rematch through the local Discord: the final message's button opens a lobby of the same game and options, the
presser hosting, the bot players seated again and every other person invited once; seats rotate by one as people
join; refusals are private; the button works after a restart."""

from __future__ import annotations

from bot.app import Conductor
from bot.storage.games import GameRecord
from localdiscord import LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Running, table, verb_id

OPTIONS = {"target": 10}
"""A short dice race, so the first game ends in a few turns."""


async def finished_game(stand_in: LocalDiscord, bot: Conductor, *names: str, bots: int = 1) -> GameRecord:
    """Play a short dice race to its end among these people and bot players."""
    players = table(stand_in, bot, *names)
    record = await players.open("dice", bots=bots, options=OPTIONS)
    return await players.play_to_the_end(record.id, seed=3)


def final_message(stand_in: LocalDiscord, record: GameRecord) -> RecordedMessage:
    """The final message of a finished game: the channel's message with its Rematch button."""
    wanted = f"lobby:{record.id}:{record.version}:rematch"
    return next(m for m in reversed(stand_in.channel_messages()) if wanted in ids_of(m))


async def invitation_after(stand_in: LocalDiscord, lobby: RecordedMessage) -> RecordedMessage:
    """The invitation the bot posts after a lobby (once the lobby is the answer to the click)."""
    return await stand_in.wait_for_message(lambda m: m.id > lobby.id and "Rematch" in m.content)


def ids_of(message: RecordedMessage) -> list[str]:
    """The custom ids of a message's buttons, in reading order."""
    return [str(b.get("custom_id")) for b in message.buttons()]


async def test_rematch_seats_the_same_people_rotated_with_the_same_options_and_bots(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        previous = await finished_game(stand_in, bot, "Ann", "Ben", "Cat")
        assert [s.name for s in previous.seats] == ["Ann", "Ben", "Cat", "Stephenson"]
        final = final_message(stand_in, previous)
        assert ids_of(final) == [f"lobby:{previous.id}:{previous.version}:rematch"], "Rematch is its one button"

        opened = await stand_in.click("Ben", final, verb_id(final, "rematch"))
        lobby = opened.message
        assert lobby is not None and not opened.ephemeral
        rematch = await bot.service.game_in_channel(lobby.channel_id)
        assert rematch.id != previous.id and rematch.host_id == stand_in.user("Ben").id
        assert rematch.options == previous.options and rematch.options["target"] == 10
        assert [(s.name, s.bot_kind) for s in rematch.seats] == [("Stephenson", "normal"), ("Ben", None)]

        invitation = await invitation_after(stand_in, lobby)
        ann, ben, cat, dan = (stand_in.user(n).id for n in ("Ann", "Ben", "Cat", "Dan"))
        assert invitation.pinged == [ann, cat], "every other person who played is mentioned once"
        assert f"<@{ben}>" in invitation.content and "Rematch" in invitation.content

        entered = await stand_in.click("Cat", invitation, verb_id(invitation, "enter"))
        assert entered.ephemeral and entered.text == f"You joined game #{rematch.id}."
        await stand_in.click("Dan", stand_in.message(lobby.id), verb_id(stand_in.message(lobby.id), "join"))
        await stand_in.click("Ann", stand_in.message(lobby.id), verb_id(stand_in.message(lobby.id), "join"))
        seated = await bot.service.get(rematch.id)
        assert [s.name for s in seated.seats] == ["Stephenson", "Ann", "Ben", "Cat", "Dan"], (
            "the previous last seat plays first, the first second, …; Dan, new, sits after them all"
        )
        assert [u for u in (s.user_id for s in seated.seats) if u] == [ann, ben, cat, dan]
        shown = await stand_in.wait_for(
            lambda: "Players 5/6" in stand_in.message(lobby.id).text, what="the lobby with all five"
        )
        assert shown and stand_in.message(lobby.id).text.index("Ann") < stand_in.message(lobby.id).text.index("Dan")

        again = await stand_in.click("Ann", final, verb_id(final, "rematch"))
        assert again.ephemeral and f"already opened (game #{rematch.id})" in again.text
        assert f"/{lobby.channel_id}/{lobby.id}" in again.text, "it points to the rematch's lobby"
        outsider = await stand_in.click("Eve", final, verb_id(final, "rematch"))
        assert outsider.ephemeral and outsider.text == "Only the people who played this game can ask for a rematch."

        started = await stand_in.click("Ben", stand_in.message(lobby.id), verb_id(stand_in.message(lobby.id), "start"))
        assert not started.ephemeral and (await bot.service.get(rematch.id)).status == "active"


async def test_rematch_works_after_a_restart_and_is_refused_while_the_channel_has_an_open_game(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        previous = await finished_game(stand_in, bot, "Ann", "Ben", bots=0)
        final = final_message(stand_in, previous)
        await stand_in.slash("Dan", "newgame dice")
        busy = await stand_in.click("Ann", final, verb_id(final, "rematch"))
        other = await bot.service.game_in_channel(final.channel_id)
        assert busy.ephemeral and f"#{other.id}" in busy.text and "already open in this channel" in busy.text
        await stand_in.slash("Dan", "endgame")

    async with running() as bot:  # a new process: the button is matched by its custom id alone
        opened = await stand_in.click("Ann", final, verb_id(final, "rematch"))
        assert opened.message is not None and not opened.ephemeral
        rematch = await bot.service.game_in_channel(final.channel_id)
        assert [s.name for s in rematch.seats] == ["Ann"] and rematch.host_id == stand_in.user("Ann").id
        invitation = await invitation_after(stand_in, opened.message)
        assert invitation.pinged == [stand_in.user("Ben").id]
        await stand_in.click("Ben", invitation, verb_id(invitation, "enter"))
        assert [s.name for s in (await bot.service.get(rematch.id)).seats] == ["Ben", "Ann"], "Ben played last"
