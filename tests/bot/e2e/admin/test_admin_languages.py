"""Languages end to end: a Russian-locale and an English-locale player in one game; replies follow each person's
locale, public messages the server's setting; commands are worded in Russian; /rules and /help in both."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from localdiscord import LocalDiscord
from rules.dice import DiceEngine
from tests.bot.e2e.helpers import Running, verb_id


async def test_a_russian_and_an_english_player_in_one_game(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None and "New game: «Poezd», the train dice game" in lobby.text
        await stand_in.click("Dan", lobby, verb_id(lobby, "join"))
        lobby = stand_in.message(lobby.id)
        assert (await stand_in.click("Dan", lobby, verb_id(lobby, "join"))).text == "Вы уже в этой игре."
        assert (await stand_in.click("Ann", lobby, verb_id(lobby, "join"))).text == "You are already in this game."
        await stand_in.click("Ann", lobby, verb_id(lobby, "start"))
        record = await bot.service.game_in_channel(lobby.channel_id)
        turn = await stand_in.wait_for_message(lambda m: any(b["custom_id"].startswith("dice:") for b in m.buttons()))
        assert "«Poezd»" in turn.text, "public messages follow the server (English here)"
        waiting = record.seats[1 - min(DiceEngine().to_act(bot.service.state(record.id)))].name  # type: ignore[arg-type]
        out_of_turn = await stand_in.click(waiting, turn, turn.buttons()[0]["custom_id"])
        expected = {"Dan": "Сейчас не ваш ход: ходит Ann.", "Ann": "It is not your turn: it is Dan's."}[waiting]
        assert out_of_turn.ephemeral and out_of_turn.text == expected

        rules_ru = await stand_in.slash("Dan", "rules", {"game": "dice"})
        rules_en = await stand_in.slash("Ann", "rules", {"game": "dice"})
        assert rules_ru.message is not None and rules_en.message is not None
        assert "«Поезд», игра в кубики: правила вкратце" in rules_ru.message.text
        assert "«Poezd», the train dice game: the rules in short" in rules_en.message.text

        await stand_in.slash("Vera", "config language", {"value": "ru"})
        ended = await stand_in.slash("Ann", "endgame")
        assert ended.text.startswith(f"🛑 Ann (👑) досрочно завершает игру №{record.id}."), "public: Russian"
        private = await stand_in.slash("Ann", "leave")
        start_one = f"Start one with </newgame dice:{stand_in.command('newgame').id}>."
        assert private.text == f"There is no game in this channel. {start_one}", "private: her locale"
        russian_lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert russian_lobby is not None and "Новая игра: «Поезд», игра в кубики" in russian_lobby.text
        assert russian_lobby.custom_id("Присоединиться")


async def test_rules_show_the_variants_in_effect_on_this_server(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        await stand_in.slash("Boss", "config option", {"game": "dice", "option": "target", "value": "150"})
        await stand_in.slash("Boss", "config timers", {"reminder": 0, "on_timeout": "pause"})
        shown = await stand_in.slash("Cat", "rules", {"game": "dice"})
        assert shown.ephemeral and shown.message is not None
        text = shown.message.text
        assert "Up to three rolls." in text
        assert "Target score: **150** (printed rule: 100)" in text
        assert "⏰ No reminder." in text and "After 60 min the game waits for them." in text
        europe = await stand_in.slash("Dan", "rules", {"game": "ticket-to-ride"})
        assert europe.message is not None and "Карта: **США**" in europe.message.text


async def test_help_lists_every_command_in_the_readers_language(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        english = await stand_in.slash("Ann", "help")
        russian = await stand_in.slash("Dan", "help")
        assert english.message is not None and russian.message is not None
        listed = english.message.text
        typed = ("/newgame dice", "/newgame ticket-to-ride", "/roll", "/draw", "/config show", "/config timers")
        for command in (*typed, "/endgame", "/leave", "/rules", "/help"):
            assert f"**{command}**" in listed
        assert "**/config option** (server admins)" in listed
        worded = russian.message.text
        assert "**/новаяигра поезд** — Открыть набор в «Поезд»" in worded
        assert "**/настройки показать** (администраторы сервера)" in worded
        commands = [c for c in bot.tree.walk_commands() if not hasattr(c, "commands")]
        for shown in (listed, worded):  # nothing cut off by the embed's 4096 characters
            assert len([line for line in shown.splitlines() if line.startswith("**/")]) == len(commands)


def localisable(command: dict[str, Any], *, described: bool = True) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(where, object, field) for every name and description Discord shows of a command or option, recursively (a
    context menu command has a name only: `described` False)."""
    yield command["name"], command, "name"
    if described:
        yield command["name"], command, "description"
    for option in command.get("options") or []:
        where = f"{command['name']} {option['name']}"
        yield from localisable({**option, "name": where, "name_localizations": option.get("name_localizations")})
        for choice in option.get("choices") or []:
            yield f"{where}={choice['value']}", choice, "name"


CHAT_INPUT = 1
"""A slash command's type; user and message context menus (2, 3) have no description."""


async def test_every_command_option_and_choice_is_worded_in_russian(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        commands = [c.payload for c in stand_in.commands]
    assert len(commands) >= 8
    missing = [
        f"{where} ({field})"
        for command in commands
        for where, thing, field in localisable(command, described=command.get("type", 1) == CHAT_INPUT)
        if not (thing.get(f"{field}_localizations") or {}).get("ru")
    ]
    assert missing == []
