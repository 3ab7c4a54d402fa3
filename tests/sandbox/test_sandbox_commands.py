"""Slash commands: sync is recorded, interactions are built from the synced options, refusals like a client."""

from __future__ import annotations

import discord
import pytest

from localdiscord import ImpossibleInteraction, LocalDiscord, LocalRole, LocalUser
from tests.sandbox.toy_bot import ROUTES, ToyBot


async def test_command_sync_is_recorded_with_options_choices_permissions_and_localizations(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    scopes = {(command.name, command.guild_id) for command in local_discord.commands}
    assert ("newgame", None) in scopes
    assert ("newgame", local_discord.guild_id) in scopes
    newgame = local_discord.command("newgame")
    assert newgame.guild_id == local_discord.guild_id
    assert newgame.payload["description_localizations"] == {"ru": "Начать игру"}
    game = newgame.option("game")
    assert game["type"] == 3
    assert game["required"] is True
    assert [c["value"] for c in game["choices"]] == ["dice", "ttr"]
    seats = newgame.option("seats")
    assert (seats["type"], seats["min_value"], seats["max_value"]) == (4, 2, 5)
    assert local_discord.command("claim").option("route")["autocomplete"] is True
    config = local_discord.command("config")
    assert config.default_member_permissions == 0x20  # MANAGE_GUILD
    assert config.option("set", "key")["type"] == 3


async def test_command_ids_stay_the_same_when_a_restarted_bot_syncs_again(
    local_discord: LocalDiscord, toy: ToyBot, make_bot: object
) -> None:
    first = {command.name: command.id for command in local_discord.commands if command.guild_id}
    async with local_discord.connected(ToyBot(local_discord.guild_id)):
        again = {command.name: command.id for command in local_discord.commands if command.guild_id}
    assert again == first


async def test_slash_command_with_options_is_answered(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("boris", "newgame", {"game": "ttr", "seats": 3})
    assert outcome.response_type == 4
    assert outcome.content == "New Ticket to Ride game for 3 seats"
    assert not outcome.ephemeral
    assert toy.seen == [("newgame", "ttr", 3, "ru")]
    message = outcome.message
    assert message is not None
    assert message.type == 20
    assert message.interaction_id == outcome.interaction.id
    assert [b["label"] for b in message.buttons()] == ["Join", "Close", "Deal", "Roll", "Start"]
    assert local_discord.channel_messages("trains") == [message]


async def test_interaction_carries_every_field_a_bot_reads(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("admin", "newgame", {"game": "dice"})
    payload = outcome.interaction.payload
    required = {
        "id", "application_id", "type", "token", "version", "attachment_size_limit", "guild_id", "channel",
        "channel_id", "member", "app_permissions", "locale", "guild_locale", "entitlements",
        "authorizing_integration_owners", "context", "data",
    }  # fmt: skip
    assert required <= set(payload)
    assert {"id", "type", "guild_id", "name"} <= set(payload["channel"])
    assert payload["channel"]["name"] == "trains"
    assert {"user", "roles", "permissions", "flags", "joined_at"} <= set(payload["member"])
    assert int(payload["member"]["permissions"]) & 0x20
    assert payload["guild_locale"] == "en-US"
    assert payload["data"]["options"] == [{"name": "game", "type": 3, "value": "dice"}]


async def test_a_choice_can_be_given_by_its_displayed_name(local_discord: LocalDiscord, toy: ToyBot) -> None:
    await local_discord.slash("alice", "/newgame", {"game": "Ticket to Ride"})
    assert toy.seen[-1][:2] == ("newgame", "ttr")


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"game": "chess"}, "not a choice"),
        ({"game": "dice", "seats": 9}, "at most 5"),
        ({"game": "dice", "seats": "three"}, "takes an integer"),
        ({"seats": 3}, "required options"),
        ({"game": "dice", "colour": "red"}, "no option 'colour'"),
    ],
)
async def test_options_a_real_client_refuses_raise_in_the_test(
    local_discord: LocalDiscord, toy: ToyBot, options: dict[str, object], reason: str
) -> None:
    with pytest.raises(ImpossibleInteraction, match=reason):
        await local_discord.slash("alice", "newgame", options)
    assert local_discord.interactions == []


async def test_autocomplete_returns_the_bots_choices(local_discord: LocalDiscord, toy: ToyBot) -> None:
    choices = await local_discord.autocomplete("alice", "claim", {"route": "den"}, focused="route")
    assert [c.name for c in choices] == ["Denver - Salt Lake City", "Denver - Omaha"]
    everything = await local_discord.autocomplete("alice", "claim", {"route": ""}, focused="route")
    assert [c.value for c in everything] == ROUTES
    assert local_discord.interactions[-1].response_type == 8


async def test_subcommand_needs_manage_server(local_discord: LocalDiscord, toy: ToyBot) -> None:
    with pytest.raises(ImpossibleInteraction, match="cannot see /config"):
        await local_discord.slash("alice", "config set", {"key": "variant", "value": "big"})
    outcome = await local_discord.slash("admin", "config set", {"key": "variant", "value": "big"})
    assert outcome.content == "variant = big (manage_guild=True)"
    assert outcome.ephemeral
    with pytest.raises(ImpossibleInteraction, match="needs a subcommand"):
        await local_discord.slash("admin", "config", {})


async def test_force_delivers_what_a_client_could_not_send(local_discord: LocalDiscord, toy: ToyBot) -> None:
    outcome = await local_discord.slash("alice", "config set", {"key": "k", "value": "v"}, force=True)
    assert outcome.content == "k = v (manage_guild=False)"


async def test_a_role_can_grant_the_permission(local_discord: LocalDiscord) -> None:
    host = LocalRole("Host", permissions=discord.Permissions(manage_guild=True).value)
    users = [LocalUser("hana", locale="ru", roles=("Host",)), LocalUser("ivan")]
    async with LocalDiscord(users=users, roles=[host], guild_locale="ru") as stand_in:
        async with stand_in.connected(ToyBot(stand_in.guild_id)):
            outcome = await stand_in.slash("hana", "config set", {"key": "k", "value": "v"})
            with pytest.raises(ImpossibleInteraction):
                await stand_in.slash("ivan", "config set", {"key": "k", "value": "v"})
        assert outcome.content == "k = v (manage_guild=True)"
        payload = outcome.interaction.payload
        assert payload["member"]["roles"] == [str(host.id)]
        assert (payload["locale"], payload["guild_locale"]) == ("ru", "ru")
        assert stand_in.unhandled == [] and stand_in.logged_errors == []
