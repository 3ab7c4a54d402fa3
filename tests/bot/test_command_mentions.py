"""Texts name commands as mentions: clickable and in the reader's language once synced, plain `/draw` before."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest

from bot.i18n import GROUP_MENTIONS, LANGUAGES, command_mention, set_command_ids, table, text

FOOTERS = {
    "admin.rules.footer": "an embed footer shows `</newgame dice:id>` as it is: it names the command in words",
    "admin.help.footer": "an embed footer shows `</rules:id>` as it is: it names the command in words",
    "web.refused.unknown": "a web page is not Discord: it names the command in words",
    "web.refused.expired": "a web page is not Discord: it names the command in words",
}
"""Texts shown where no mention works (Discord's embed footers, the board's web pages); they name a command by the
name the reader's client shows."""
PLAIN_COMMAND = re.compile(r"(?<![\w<{/])/([\w-]+)")


@pytest.fixture(autouse=True)
def no_ids() -> Iterator[None]:
    """Start from commands not yet synced, whatever a bot started earlier in this process synced."""
    set_command_ids({})
    yield
    set_command_ids({})


def command_names(language: str) -> set[str]:
    """Every top-level command's name as a client in `language` shows it, and its English name."""
    words = table(language)
    names = {value for key, value in words.items() if re.fullmatch(r"commands\.[a-z]+\.name", key)}
    return names | {value for key, value in table("en").items() if re.fullmatch(r"commands\.[a-z]+\.name", key)}


def mentions(template: str) -> list[str]:
    """The command paths a template mentions: `{/config limits}` → `config limits`."""
    return [name[1:] for _, name, _, _ in string.Formatter().parse(template) if name and name.startswith("/")]


def test_a_command_reads_plain_until_synced_then_as_a_mention_with_its_id() -> None:
    assert [command_mention(p) for p in ("draw", "config limits", "newgame")] == ["/draw", "/config limits", "/newgame"]
    set_command_ids({"draw": 11, "config": 22, "newgame": 33})
    assert command_mention("draw") == "</draw:11>"
    assert command_mention("config limits") == "</config limits:22>"
    assert command_mention("newgame") == "</newgame dice:33>", "a group is mentioned through a subcommand"
    assert command_mention("newgame ticket-to-ride") == "</newgame ticket-to-ride:33>"
    assert command_mention("unknown") == "/unknown"


def test_texts_carry_the_mention_in_either_language() -> None:
    set_command_ids({"draw": 11, "claim": 12, "newgame": 33})
    assert (
        text("en", "cardgame_bot.hand.second_pick") == "Take your second card on the turn message (or with </draw:11>)."
    )
    assert text("ru", "ttr_bot.hand.second_pick") == "Возьмите вторую карту в сообщении хода (или командой </draw:11>)."
    assert text("ru", "bot.reason.no_game_here") == "В этом канале нет игры. Начните её командой </newgame dice:33>."
    assert "</draw:11>" in text("en", "ttr_bot.turn.hint") and "</claim:12>" in text("en", "ttr_bot.turn.hint")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_mention_names_a_command_that_exists(language: str) -> None:
    words = table(language)
    named = [(key, path) for key, template in words.items() for path in mentions(template)]
    assert len(named) >= 8, "the scan must find the mentions"
    for key, path in named:
        for full in {path, GROUP_MENTIONS.get(path, path)}:
            assert f"commands.{full.replace(' ', '_')}.name" in words, f"{key}: no command /{full}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_names_a_command_plainly_except_where_discord_shows_no_mentions(language: str) -> None:
    words, names = table(language), command_names(language)
    plain = {
        key: found
        for key, template in words.items()
        if not key.startswith("commands.") and (found := [n for n in PLAIN_COMMAND.findall(template) if n in names])
    }
    assert sorted(plain) == sorted(FOOTERS)
    own_names = {value for key, value in words.items() if re.fullmatch(r"commands\.[a-z]+\.name", key)}
    for key, found in plain.items():
        assert set(found) <= own_names, f"{key} names {found}: not what a client in {language} shows"
