"""/config through the local Discord: who may use it, the summary, defaults and host overrides, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import Conductor
from bot.storage.guild_settings import GuildSettingsStore
from localdiscord import ImpossibleInteraction, LocalDiscord
from tests.bot.e2e.helpers import (
    CREATORS,
    MANAGE_GUILD,
    Running,
    verb_id,
)


async def stored(bot: Conductor) -> dict[str, object]:
    return await GuildSettingsStore(bot.database).get(bot.guilds[0].id)


async def test_config_is_shown_to_server_managers_and_refused_in_code_to_others(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running(threads=None) as bot:  # a server that never changed anything
        assert stand_in.command("config").default_member_permissions == MANAGE_GUILD
        with pytest.raises(ImpossibleInteraction):
            await stand_in.slash("Ann", "config show")
        shown = await stand_in.slash("Ann", "config show", force=True)
        assert shown.ephemeral and shown.text == "Only people who can manage this server can change its settings."
        changed = await stand_in.slash("Ann", "config threads", {"enabled": True}, force=True)
        assert changed.ephemeral and "Only people who can manage" in changed.text
        russian = await stand_in.slash("Dan", "config bots", {"allowed": False}, force=True)
        assert russian.text == "Менять настройки могут только те, кто управляет этим сервером."
        assert await stored(bot) == {}


async def test_an_admin_sees_every_setting_as_a_readable_summary(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        shown = await stand_in.slash("Boss", "config show")
        assert shown.ephemeral
        summary = shown.message.text if shown.message else ""
        for words in (
            "Settings of this server",
            "Language of public messages: **the bot's default**",
            "New games open in their own thread: **no**",
            "Who can create games: **everyone**",
            "⏰ The player to act is reminded after 10 min.",
            "«Poezd», the train dice game: Target score: **100**",
            "Game mode: **Race to the target**",
            "Ticket to Ride: Map: **USA**",
        ):
            assert words in summary, summary
        russian = await stand_in.slash("Vera", "config show")
        assert "Настройки этого сервера" in (russian.message.text if russian.message else "")


async def test_a_game_created_with_the_server_defaults_and_one_with_a_host_override(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config option", {"game": "dice", "option": "target", "value": "150"})
        said = "Saved: in new games of «Poezd», the train dice game, Target score is **150**."
        assert saved.ephemeral and said in saved.text.splitlines()
        await stand_in.slash("Boss", "config option", {"game": "dice", "option": "mode", "value": "elimination"})
        defaults = await stand_in.slash("Ann", "newgame dice")
        assert defaults.message is not None
        assert "Target score: **150**" in defaults.message.text
        record = await bot.service.game_in_channel(defaults.message.channel_id)
        assert record.options == {"target": 150, "mode": "elimination", "tie": "shared"}

        assert "⏰ The player to act is reminded after 10 min." in defaults.message.text
        override = await stand_in.slash(
            "Cat", "newgame dice", {"target": 60, "reminder": 5, "timeout": 9}, channel="general"
        )
        assert override.message is not None and "Target score: **60**" in override.message.text
        assert "⌛ After 9 min a bot player plays the turn for them." in override.message.text
        hosted = await bot.service.game_in_channel(override.message.channel_id)
        assert hosted.options == {"target": 60, "mode": "elimination", "tie": "shared"}
        policy = await bot.timers.policy(hosted.id)
        assert (policy.reminder_minutes, policy.timeout_minutes) == (5, 9)
        joined = await stand_in.click("Ben", override.message, verb_id(override.message, "join"))
        assert "⏰ The player to act is reminded after 5 min." in (joined.message.text if joined.message else "")
        bad_timers = await stand_in.slash("Eve", "newgame dice", {"reminder": 9, "timeout": 6}, channel="general")
        assert bad_timers.text == "The timeout (6 min) must come later than the reminder (9 min)."


async def test_a_locked_option_cannot_be_overridden_by_a_host(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        locked = await stand_in.slash(
            "Boss", "config option", {"game": "dice", "option": "target", "value": "150", "locked": True}
        )
        assert "Hosts cannot change it for one game." in locked.text
        refused = await stand_in.slash("Ann", "newgame dice", {"target": 60})
        assert refused.ephemeral
        assert refused.text == "This server fixes Target score: a host cannot change that for one game."
        assert await bot.service.store.in_channel(stand_in.channel("trains").id) == []
        russian = await stand_in.slash("Dan", "newgame dice", {"target": 60})
        assert russian.text.startswith("На этом сервере закреплено: Цель.")


async def test_bad_values_are_refused_with_the_reason_and_change_nothing(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running(threads=None) as bot:  # a server that never changed anything
        cases = {
            ("target", "5"): "Target score must be from 10 to 500; 5 is outside that.",
            ("target", "many"): "Target score takes a whole number, not “many”.",
            ("mode", "sprint"): "Game mode cannot be “sprint”. Choose one of: Race to the target, Elimination.",
            ("speed", "2"): "This game has no option “speed”.",
        }
        for (option, value), reason in cases.items():
            refused = await stand_in.slash("Boss", "config option", {"game": "dice", "option": option, "value": value})
            assert refused.ephemeral and refused.text.startswith(reason), refused.text
        russian = await stand_in.slash("Vera", "config option", {"game": "dice", "option": "target", "value": "5"})
        assert russian.text == "Цель: нужно число от 10 до 500; 5 не подходит."
        timers = await stand_in.slash("Boss", "config timers", {"reminder": 30, "timeout": 20})
        assert timers.text == "The timeout (20 min) must come later than the reminder (30 min)."
        too_long = await stand_in.slash("Boss", "config timers", {"timeout": 99999}, force=True)
        assert too_long.text == "Timeout must be from 0 to 10080; 99999 is outside that."
        assert await stored(bot) == {}


async def test_changes_apply_to_new_games_only(stand_in: LocalDiscord, running: Running, tmp_path: Path) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, verb_id(lobby, "join"))
        await stand_in.click("Ann", lobby, verb_id(stand_in.message(lobby.id), "start"))
        running_game = await bot.service.game_in_channel(lobby.channel_id)
        said = await stand_in.slash("Boss", "config option", {"game": "dice", "option": "target", "value": "300"})
        assert said.message is not None
        assert "games already open keep their rules (open now: 1)" in said.message.text
        await stand_in.slash("Boss", "config timers", {"reminder": 5, "timeout": 7, "on_timeout": "pause"})
        assert (await bot.service.get(running_game.id)).options["target"] == 100
        policy = await bot.timers.policy(running_game.id)
        assert (policy.reminder_minutes, policy.timeout_minutes, policy.on_timeout.value) == (10, 60, "bot")
        fresh = (await stand_in.slash("Cat", "newgame dice", channel="general")).message
        assert fresh is not None
        new_game = await bot.service.game_in_channel(fresh.channel_id)
        assert new_game.options["target"] == 300
        assert (await bot.timers.policy(new_game.id)).on_timeout.value == "pause"


async def test_only_the_chosen_role_may_create_games(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        saved = await stand_in.slash("Boss", "config creators", {"role": CREATORS})
        assert saved.text.startswith("Saved: only members with <@&")
        refused = await stand_in.slash("Ann", "newgame dice")
        assert refused.ephemeral and refused.text.startswith("On this server only members with the role <@&")
        assert await bot.service.store.in_channel(stand_in.channel("trains").id) == []
        allowed = await stand_in.slash("Ben", "newgame dice")
        assert not allowed.ephemeral
        admin = await stand_in.slash("Boss", "newgame dice", channel="general")
        assert not admin.ephemeral, "server admins may always create games"
        everyone = await stand_in.slash("Boss", "config creators")
        assert "Saved: everyone can create games." in everyone.text.splitlines()
        busy = await stand_in.slash("Ann", "newgame dice")
        assert "already open in this channel" in busy.text, "Ann is refused only because the channel is busy"


async def test_bot_players_can_be_switched_off(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config bots", {"allowed": False})
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        add_bot = lobby.component(verb_id(lobby, "bot"))
        assert add_bot is not None and add_bot["disabled"], "the lobby shows bot players are off"
        refused = await stand_in.click("Ann", lobby, verb_id(lobby, "bot"), force=True)
        assert refused.ephemeral and refused.text == "Bot players are switched off on this server."
        record = await bot.service.game_in_channel(lobby.channel_id)
        assert [s.name for s in record.seats] == ["Ann"]


async def test_reset_puts_a_game_or_everything_back(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        await stand_in.slash("Boss", "config option", {"game": "dice", "option": "target", "value": "150"})
        await stand_in.slash("Boss", "config option", {"game": "ticket-to-ride", "option": "map", "value": "europe"})
        await stand_in.slash("Boss", "config threads", {"enabled": True})
        one = await stand_in.slash("Boss", "config reset", {"game": "dice"})
        assert "The variants of «Poezd», the train dice game are back to the printed rules." in one.text.splitlines()
        config = await bot.config.get(bot.guilds[0].id)
        assert config.options == {"ticket-to-ride": {"map": "europe"}} and config.threads
        everything = await stand_in.slash("Boss", "config reset")
        assert "All settings are back to the defaults." in everything.text.splitlines()
        config = await bot.config.get(bot.guilds[0].id)
        assert config.options == {} and config.threads is None, "threads where the bot may open them, by default"


async def test_autocomplete_offers_each_games_options_and_values_in_the_readers_language(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        names = await stand_in.autocomplete("Boss", "config option", {"game": "dice", "option": ""}, focused="option")
        assert [(c.name, c.value) for c in names] == [
            ("Target score", "target"),
            ("Game mode", "mode"),
            ("Tie for the lead", "tie"),
        ]
        russian = await stand_in.autocomplete("Vera", "config option", {"game": "dice", "option": ""}, focused="option")
        assert russian[0].name == "Цель"
        values = await stand_in.autocomplete(
            "Boss", "config option", {"game": "dice", "option": "mode", "value": ""}, focused="value"
        )
        assert [(c.name, c.value) for c in values] == [("Race to the target", "race"), ("Elimination", "elimination")]
        doubles = await stand_in.autocomplete(
            "Vera", "config option", {"game": "ticket-to-ride", "option": "open_doubles", "value": ""}, focused="value"
        )
        assert [(c.name, c.value) for c in doubles] == [("да", "yes"), ("нет", "no")]
        number = await stand_in.autocomplete(
            "Boss", "config option", {"game": "dice", "option": "target", "value": "25"}, focused="value"
        )
        assert [c.value for c in number] == ["25", "100"]
