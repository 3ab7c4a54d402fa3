"""Lobby control through the local Discord: the host removes a person (others cannot), the removed person is told
and may come back only on the host's invitation; the "Invite to a game" user menu invites into the channel's lobby
or opens one; its refusals; and the menu as Discord registers it."""

from __future__ import annotations

from localdiscord import LocalDiscord, LocalUser
from localdiscord.form_errors import Problems
from localdiscord.interaction_data import command_problems
from tests.bot.e2e.helpers import Running, verb_id

MENU = "Invite to a game"


async def test_the_host_removes_a_person_who_may_come_back_only_on_the_hosts_invitation(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        for person in ("Ben", "Cat"):
            await stand_in.click(person, stand_in.message(lobby.id), verb_id(stand_in.message(lobby.id), "join"))
        current = stand_in.message(lobby.id)
        not_host = await stand_in.click("Ben", current, verb_id(current, "kick"))
        assert not_host.ephemeral and not_host.text == "Only the host can do that."

        asked = await stand_in.click("Ann", current, verb_id(current, "kick"))
        menu = asked.message
        assert asked.ephemeral and menu is not None
        assert [o["label"] for c in menu.walk_components() for o in c.get("options", [])] == ["Ben", "Cat"]
        ben = stand_in.user("Ben")
        removed = await stand_in.select("Ann", menu, verb_id(menu, "kickwho"), [str(ben.id)])
        assert removed.ephemeral and removed.text == "Ben is no longer in the lobby."
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.name for s in record.seats] == ["Ann", "Cat"]
        await stand_in.wait_for(lambda: "Ben" not in stand_in.message(lobby.id).text, what="the lobby without Ben")

        current = stand_in.message(lobby.id)
        for verb in ("join", "leave"):
            refused = await stand_in.click("Ben", current, verb_id(current, verb))
            assert refused.ephemeral and refused.text.startswith("The host removed you from this lobby")
        by_cat = await stand_in.user_command("Cat", MENU, "Ben")
        assert by_cat.ephemeral and "only the host can invite them back" in by_cat.text

        invited = await stand_in.user_command("Ann", MENU, "Ben")
        invitation = invited.message
        assert invitation is not None and not invited.ephemeral and invitation.pinged == [ben.id]
        assert "invites you to play" in invitation.text
        joined = await stand_in.click("Ben", invitation, verb_id(invitation, "enter"))
        assert joined.ephemeral and joined.text == f"You joined game #{record.id}."
        assert [s.name for s in (await bot.service.get(record.id)).seats] == ["Ann", "Cat", "Ben"]
        await stand_in.wait_for(lambda: "Ben" in stand_in.message(lobby.id).text, what="the lobby with Ben again")


async def test_invite_opens_a_lobby_when_there_is_none_and_refuses_what_does_not_apply(
    stand_in: LocalDiscord, running: Running
) -> None:
    stand_in.add_user(LocalUser("Robo", bot=True))
    async with running() as bot:
        for target, reason in (("Robo", "Bots cannot be invited"), ("Ann", "You cannot invite yourself.")):
            refused = await stand_in.user_command("Ann", MENU, target)
            assert refused.ephemeral and refused.text.startswith(reason)

        offer = await stand_in.user_command("Ann", MENU, "Cat")
        menu = offer.message
        assert offer.ephemeral and menu is not None and "Pick a game to invite Cat to" in offer.text
        opened = await stand_in.select("Ann", menu, verb_id(menu, "invite"), ["dice"])
        lobby = opened.message
        assert lobby is not None and not opened.ephemeral
        cat = stand_in.user("Cat")
        invitation = await stand_in.wait_for_message(lambda m: m.id > lobby.id and "invites you" in m.content)
        assert invitation.pinged == [cat.id]
        await stand_in.click("Cat", invitation, verb_id(invitation, "enter"))
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.name for s in record.seats] == ["Ann", "Cat"] and record.host_id == stand_in.user("Ann").id

        already = await stand_in.user_command("Ann", MENU, "Cat")
        assert already.ephemeral and already.text == "Cat is already in this game."
        outsider = await stand_in.user_command("Dan", MENU, "Eve")
        assert outsider.ephemeral and outsider.text.startswith("Сначала войдите в набор"), "Dan reads Russian"
        await stand_in.click("Ann", stand_in.message(lobby.id), verb_id(stand_in.message(lobby.id), "start"))
        running_game = await stand_in.user_command("Ann", MENU, "Eve")
        assert running_game.ephemeral and running_game.text.startswith("A game is being played here")


async def test_the_menu_is_registered_as_a_user_command_worded_in_russian(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        menu = stand_in.command(MENU, command_type=2).payload
    assert menu["type"] == 2 and not menu.get("description")
    assert menu["name_localizations"]["ru"] == "Пригласить в игру"
    assert stand_in.command("games").payload["name_localizations"]["ru"] == "игры"


def test_the_stand_in_checks_command_names_and_descriptions_as_discord_does() -> None:
    problems = Problems()
    command_problems({"name": MENU, "type": 2}, 0, problems)
    command_problems({"name": "games", "type": 1, "description": "The games"}, 1, problems)
    assert problems.items == []
    for bad in (
        {"name": "Games", "type": 1, "description": "Capitals are refused in slash command names"},
        {"name": "my games", "type": 1, "description": "So are spaces"},
        {"name": "games", "type": 1},
        {"name": MENU, "type": 2, "description": "A context menu has no description"},
        {"name": "x" * 33, "type": 2},
    ):
        found = Problems()
        command_problems(bad, 0, found)
        assert len(found.items) == 1, bad
