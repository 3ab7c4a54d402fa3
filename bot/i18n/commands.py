"""Slash command names and descriptions in every language, through discord.py's translator.

Keys live in `bot/i18n/<language>/commands.toml`: `commands.<command>.name`, `.description`,
`commands.<command>.<parameter>.name` and `.description`, and `commands.choice.<value>` for a choice's name.
A subcommand's parameter without words of its own takes its group's (`commands.newgame.map.name` words the option
of every `/newgame <game>`). A missing key keeps the English text written in the code.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import FALLBACK, language_of, table

Location = app_commands.TranslationContextLocation


def translation_keys(context: app_commands.TranslationContextTypes) -> list[str]:
    """The table keys of a string discord.py asks us to translate, best first (none for strings we do not word)."""
    data: Any = context.data
    if context.location in (Location.command_name, Location.group_name):
        return [f"commands.{_command_key(data)}.name"]
    if context.location in (Location.command_description, Location.group_description):
        return [f"commands.{_command_key(data)}.description"]
    if context.location in (Location.parameter_name, Location.parameter_description):
        field = "name" if context.location is Location.parameter_name else "description"
        owners = [data.command, *([data.command.parent] if data.command.parent is not None else [])]
        return [f"commands.{_command_key(owner)}.{data.name}.{field}" for owner in owners]
    if context.location is Location.choice_name:
        return [f"commands.choice.{data.value}"]
    return []


def _command_key(command: Any) -> str:
    return str(command.qualified_name).replace(" ", "_")


class CommandTranslator(app_commands.Translator):
    """Words commands in Russian (and any later language) from the translation tables."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """Return the text for `locale`, or None to keep the code's English."""
        language = language_of(locale)
        if language == FALLBACK:
            return None
        words = table(language)
        return next((words[key] for key in translation_keys(context) if key in words), None)
