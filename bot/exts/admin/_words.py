"""Settings in words: the server summary, a timer policy, a game's variants in effect, and commands by locale."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.games import GAMES, game_name
from bot.i18n import render, table, text
from bot.services.guild_config import MIN_MINUTES, GuildConfig, GuildConfigService
from bot.ui.hints import kind_name
from bot.ui.house_rules import timer_lines

COLOUR = discord.Colour.from_rgb(69, 90, 100)
MAX_FIELD = 1024
"""Discord's limit on an embed field's value."""


def variant_lines(language: str, service: GuildConfigService, config: GuildConfig, game: str) -> list[str]:
    """A game's options as the server sets them: 'Name: **value**', marked when changed here or locked."""
    lines = []
    for spec in service.specs(game):
        value = config.option_value(spec)
        line = f"{render(language, spec.label())}: **{render(language, spec.value_word(value))}**"
        if value != spec.default:
            line += " " + text(
                language, "admin.summary.printed_rule", value=render(language, spec.value_word(spec.default))
            )
        if config.is_locked(spec):
            line += " 🔒"
        lines.append(line)
    return lines


def settings_embed(language: str, service: GuildConfigService, config: GuildConfig, running: int) -> discord.Embed:
    """The whole of a server's settings as one readable embed."""
    embed = discord.Embed(title=text(language, "admin.summary.title"), colour=COLOUR)
    language_words = (
        text(language, f"admin.language.{config.language.value}")
        if config.language is not None
        else text(language, "admin.language.default")
    )
    creators = (
        text(language, "admin.summary.everyone") if config.creator_role_id is None else f"<@&{config.creator_role_id}>"
    )
    general = [
        text(language, "admin.summary.language", value=language_words),
        text(language, "admin.summary.threads", value=_threads(language, config.threads)),
        text(language, "admin.summary.creators", value=creators),
        text(language, "admin.summary.bots", value=_yes_no(language, config.bots_allowed)),
        *player_lines(language, config),
    ]
    embed.add_field(name=text(language, "admin.summary.general"), value=_fit(general), inline=False)
    timers = [
        *timer_lines(language, config.timers),
        timers_lock_line(language, config),
    ]
    embed.add_field(name=text(language, "admin.summary.timers"), value=_fit(timers), inline=False)
    embed.add_field(
        name=text(language, "admin.summary.limits"), value=_fit(limit_lines(language, config)), inline=False
    )
    for game in GAMES:
        embed.add_field(
            name=game_name(language, game), value=_fit(variant_lines(language, service, config, game)), inline=False
        )
    embed.set_footer(text=text(language, "admin.summary.footer", running=running))
    return embed


def player_lines(language: str, config: GuildConfig) -> list[str]:
    """The bot player that plays for absent people, and whether /hint is on, as short lines."""
    return [
        text(language, "players.config.afk_level", value=kind_name(language, config.afk_level.value)),
        text(language, "players.config.hints", value=_yes_no(language, config.hints)),
    ]


def timers_lock_line(language: str, config: GuildConfig) -> str:
    """Whether hosts may change the turn timers for one game here, and within what."""
    if config.timers_locked:
        return text(language, "admin.timers.locked")
    return text(language, "admin.timers.unlocked", minimum=MIN_MINUTES)


def limit_lines(language: str, config: GuildConfig) -> list[str]:
    """A server's caps on open lobbies and games, and its lobby expiry, as short lines."""
    limits = config.limits
    return [
        text(language, "admin.limits.lobbies_per_person_line", value=limits.lobbies_per_person),
        text(language, "admin.limits.games_per_person_line", value=limits.games_per_person),
        text(language, "admin.limits.games_per_server_line", value=limits.games_per_server),
        text(language, "admin.limits.lobby_expiry_minutes_line", value=limits.lobby_expiry_minutes),
    ]


def _threads(language: str, value: bool | None) -> str:
    return text(language, "admin.summary.threads_auto") if value is None else _yes_no(language, value)


def _yes_no(language: str, value: bool) -> str:
    return text(language, "bot.word.yes" if value else "bot.word.no")


def _fit(lines: list[str]) -> str:
    """Join lines into one embed field value (Discord allows 1024 characters)."""
    joined = "\n".join(lines) or "—"
    return joined if len(joined) <= MAX_FIELD else joined[: MAX_FIELD - 1] + "…"


def walk_slash_commands(tree: app_commands.CommandTree[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    """Every slash command a person can type, subcommands included, in the tree's order."""
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            yield command


def command_words(language: str, command: app_commands.Command[Any, ..., Any]) -> tuple[str, str]:
    """A command's full name as typed (`/config show`) and its description, in a language."""
    words = table(language)
    parts: list[str] = []
    chain: list[Any] = []
    node: Any = command
    while node is not None:
        chain.append(node)
        node = node.parent
    for item in reversed(chain):
        key = f"commands.{item.qualified_name.replace(' ', '_')}.name"
        parts.append(words.get(key, item.name))
    key = f"commands.{command.qualified_name.replace(' ', '_')}.description"
    return "/" + " ".join(parts), words.get(key, command.description)
