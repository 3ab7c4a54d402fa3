"""Invitations people control, through the local Discord: a person is invited (and pinged) once per lobby whoever
asks, a lobby sends at most ten invitations, the invited may Decline and refuse that inviter's invitations, and
/notify refuses everyone's on one server or some people's; a refused invitation posts and pings nothing. Dan reads
Russian."""

from __future__ import annotations

import asyncio

from bot.exts.lobby._invitations import INVITATIONS_PER_LOBBY
from localdiscord import LocalChannel, LocalDiscord, LocalUser, RecordedMessage
from tests.bot.e2e.helpers import Running, choose_threads
from tests.bot.e2e.test_lobby_control import MENU, verb_id
from tests.bot.e2e.test_rematch import final_message, finished_game, invitation_after

ALREADY = "Eve was invited into this lobby already: each person is invited once (nothing was posted)."


async def lobby_of(
    stand_in: LocalDiscord, host: str, *joiners: str, channel: str | LocalChannel = "trains"
) -> RecordedMessage:
    """A dice lobby opened by `host` in `channel`, the `joiners` seated."""
    lobby = (await stand_in.slash(host, "newgame dice", channel=channel)).message
    assert lobby is not None
    for person in joiners:
        current = stand_in.message(lobby.id)
        await stand_in.click(person, current, verb_id(current, "join"))
    return lobby


def pings_of(stand_in: LocalDiscord, name: str, channel: str | LocalChannel = "trains") -> list[RecordedMessage]:
    """The messages of a channel that mention (and so notify) this person."""
    target = stand_in.user(name).id
    return [m for m in stand_in.channel_messages(channel) if target in m.pinged]


def labels(message: RecordedMessage) -> list[str]:
    """The labels of a message's buttons, in reading order."""
    return [str(b.get("label")) for b in message.buttons()]


async def test_twenty_invitations_of_one_person_from_one_lobby_ping_once(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        await lobby_of(stand_in, "Ann", "Ben", "Cat", "Dan")
        inviters = ["Ann", "Ben", "Cat"] * 7
        answers = await asyncio.gather(*(stand_in.user_command(who, MENU, "Eve") for who in inviters[:20]))
        posted = [a.message for a in answers if not a.ephemeral]
        assert len(posted) == 1 and posted[0] is not None and posted[0].pinged == [stand_in.user("Eve").id]
        assert sorted(a.text for a in answers if a.ephemeral) == [ALREADY] * 19
        assert len(pings_of(stand_in, "Eve")) == 1

        again = await stand_in.user_command("Ann", MENU, "Eve")
        assert again.ephemeral and again.text == ALREADY
        in_russian = await stand_in.user_command("Dan", MENU, "Eve")
        assert in_russian.ephemeral
        assert in_russian.text == "Eve уже приглашали в этот набор: каждого приглашают один раз (ничего не отправлено)."
        assert len(pings_of(stand_in, "Eve")) == 1


async def test_a_lobby_sends_at_most_ten_invitations(stand_in: LocalDiscord, running: Running) -> None:
    guests = [f"Guest{number}" for number in range(INVITATIONS_PER_LOBBY + 2)]
    for name in guests:
        stand_in.add_user(LocalUser(name))
    async with running():
        await lobby_of(stand_in, "Ann", "Dan")
        for name in guests[:INVITATIONS_PER_LOBBY]:
            sent = await stand_in.user_command("Ann", MENU, name)
            assert not sent.ephemeral, f"the invitation of {name} is posted"
        over = await stand_in.user_command("Ann", MENU, guests[-2])
        assert over.ephemeral and over.text == (
            "This lobby has sent its 10 invitations: ask people to press Join on the lobby instead"
            " (nothing was posted)."
        )
        in_russian = await stand_in.user_command("Dan", MENU, guests[-1])
        assert in_russian.ephemeral and in_russian.text.startswith("Из этого набора уже разослано 10 приглашений:")
        assert pings_of(stand_in, guests[-2]) == pings_of(stand_in, guests[-1]) == []
        assert [len(pings_of(stand_in, name)) for name in guests[:INVITATIONS_PER_LOBBY]] == [1] * 10


async def test_the_invited_decline_and_may_refuse_that_inviter_on_this_server(
    stand_in: LocalDiscord, running: Running
) -> None:
    stand_in.add_channel("lounge")
    ann, cat = stand_in.user("Ann").id, stand_in.user("Cat").id
    async with running() as bot:
        await lobby_of(stand_in, "Ann", "Ben")
        record = await bot.service.game_in_channel(stand_in.channel("trains").id)
        invitation = (await stand_in.user_command("Ann", MENU, "Cat")).message
        assert invitation is not None and labels(invitation) == ["Join", "Decline"]
        not_invited = await stand_in.click("Ben", invitation, verb_id(invitation, "decline"))
        assert (
            not_invited.ephemeral
            and not_invited.text == "This invitation is not for you: press Join on the lobby to play."
        )

        declined = await stand_in.click("Cat", invitation, verb_id(invitation, "decline"))
        offer = declined.message
        assert declined.ephemeral and offer is not None
        assert declined.text == (
            f"You declined the invitation to game #{record.id} from Ann: nobody can invite you into that lobby again. "
            "Refuse more invitations on this server?"
        )
        assert labels(offer) == ["Refuse invitations from Ann", "Refuse all invitations here"]
        again = await stand_in.user_command("Ben", MENU, "Cat")
        assert again.ephemeral and again.text == "Cat declined the invitation into this lobby (nothing was posted)."

        refused = await stand_in.click("Cat", offer, f"notify:refuse:{ann}")
        assert refused.message is not None and refused.message.id == offer.id, "the offer becomes the /notify panel"
        assert f"• From everyone but <@{ann}>" in refused.text.splitlines()

        await lobby_of(stand_in, "Ben", "Ann", channel="general")
        by_ann = await stand_in.user_command("Ann", MENU, "Cat", channel="general")
        assert by_ann.ephemeral and by_ann.text.startswith("Cat does not take invitations from you on this server")
        assert by_ann.text.endswith("not invited, not pinged.")
        no_lobby = await stand_in.user_command("Ann", MENU, "Cat", channel="lounge")
        assert no_lobby.ephemeral and no_lobby.text == by_ann.text, "no games are offered to invite Cat to"
        assert pings_of(stand_in, "Cat", "general") == pings_of(stand_in, "Cat", "lounge") == []
        by_ben = await stand_in.user_command("Ben", MENU, "Cat", channel="general")
        assert by_ben.message is not None and not by_ben.ephemeral and by_ben.message.pinged == [cat]

        invited_dan = (await stand_in.user_command("Ben", MENU, "Dan", channel="general")).message
        assert invited_dan is not None and labels(invited_dan) == ["Join", "Decline"]
        in_russian = await stand_in.click("Dan", invited_dan, verb_id(invited_dan, "decline"))
        assert in_russian.ephemeral and in_russian.text.startswith("Вы отклонили приглашение в игру №")
        assert in_russian.message is not None
        assert labels(in_russian.message) == ["Не принимать приглашения от Ben", "Не принимать приглашения здесь"]


async def test_notify_refuses_everyones_invitations_on_this_server_or_some_peoples(
    stand_in: LocalDiscord, running: Running
) -> None:
    stand_in.add_channel("lounge")
    ann, cat = stand_in.user("Ann").id, stand_in.user("Cat").id
    async with running() as bot:
        panel = await stand_in.slash("Cat", "notify")
        assert panel.message is not None
        assert panel.text.splitlines()[-2:] == [
            "**Invitations to games** (on this server only)",
            "• From everyone: each person in a lobby may invite you to it once",
        ]
        await stand_in.click("Cat", panel.message, "notify:invites:off")
        assert stand_in.message(panel.message.id).text.splitlines()[-1] == (
            "• From nobody: invitations to you are refused, nothing is posted and nobody pings you"
        )
        await lobby_of(stand_in, "Ann", "Ben", "Dan")
        for inviter in ("Ann", "Ben"):
            refused = await stand_in.user_command(inviter, MENU, "Cat")
            assert refused.ephemeral and refused.text.startswith("Cat does not take invitations on this server")
        in_russian = await stand_in.user_command("Dan", MENU, "Cat")
        assert in_russian.ephemeral and in_russian.text.startswith("Cat не принимает приглашения на этом сервере")
        offered = await stand_in.user_command("Ann", MENU, "Cat", channel="lounge")
        assert offered.ephemeral and offered.text.startswith("Cat does not take invitations on this server")
        assert pings_of(stand_in, "Cat") == pings_of(stand_in, "Cat", "lounge") == []

        elsewhere = stand_in.add_guild("Elsewhere")
        await choose_threads(bot, elsewhere, False)
        there = stand_in.channel("trains", guild_id=elsewhere)
        await lobby_of(stand_in, "Ann", channel=there)
        invited_there = await stand_in.user_command("Ann", MENU, "Cat", channel=there)
        assert not invited_there.ephemeral and pings_of(stand_in, "Cat", there) != [], "another server is not refused"

        shown = (await stand_in.click("Cat", stand_in.message(panel.message.id), "notify:invites:on")).message
        assert shown is not None and "• From everyone" in shown.text
        shown = (await stand_in.select("Cat", shown, "notify:refused", ["Ann"])).message
        assert shown is not None and f"• From everyone but <@{ann}>" in shown.text
        by_ann = await stand_in.user_command("Ann", MENU, "Cat")
        assert by_ann.ephemeral and by_ann.text.startswith("Cat does not take invitations from you on this server")
        await stand_in.select("Cat", shown, "notify:refused", [])
        by_ann = await stand_in.user_command("Ann", MENU, "Cat")
        assert by_ann.message is not None and not by_ann.ephemeral and by_ann.message.pinged == [cat]

        dan_panel = await stand_in.slash("Dan", "notify")
        assert dan_panel.text.splitlines()[-2:] == [
            "**Приглашения в игры** (только на этом сервере)",
            "• От всех: каждый в наборе может пригласить вас в него один раз",
        ]


async def test_a_rematch_leaves_out_whoever_refuses_the_hosts_invitations(
    stand_in: LocalDiscord, running: Running
) -> None:
    ann, ben = stand_in.user("Ann").id, stand_in.user("Ben").id
    async with running() as bot:
        panel = (await stand_in.slash("Cat", "notify")).message
        assert panel is not None
        await stand_in.select("Cat", panel, "notify:refused", ["Ben"])
        previous = await finished_game(stand_in, bot, "Ann", "Ben", "Cat")
        final = final_message(stand_in, previous)
        opened = await stand_in.click("Ben", final, verb_id(final, "rematch"))
        assert opened.message is not None
        invitation = await invitation_after(stand_in, opened.message)
        assert invitation.pinged == [ann], "Cat, who refuses Ben's invitations, is left out"
        told = await stand_in.wait_for(
            lambda: next((m for m in stand_in.ephemerals("Ben") if m.text.startswith("Cat does not take")), None),
            what="Ben told privately that Cat was not invited",
        )
        assert "from you on this server" in told.text
        rematch = await bot.service.game_in_channel(opened.message.channel_id)
        declined = await stand_in.click("Ann", invitation, verb_id(invitation, "decline"))
        assert declined.ephemeral and declined.text.startswith(
            f"You declined the invitation to game #{rematch.id} from Ben:"
        )
        assert labels(invitation) == ["Join", "Decline"] and f"<@{ben}>" in invitation.text
