"""Slash command names and descriptions in every language, through discord.py's translator.

Keys live in `bot/i18n/<language>/commands.toml`: `commands.<command>.name`, `.description`,
`commands.<command>.<parameter>.name` and `.description`, and `commands.choice.<value>` for a choice's name.
A missing key keeps the English text written in the code.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import FALLBACK, language_of, table

Location = app_commands.TranslationContextLocation


def translation_key(context: app_commands.TranslationContextTypes) -> str | None:
    """The table key of a string discord.py asks us to translate, or None for strings we do not word."""
    data: Any = context.data
    if context.location in (Location.command_name, Location.group_name):
        return f"commands.{_command_key(data)}.name"
    if context.location in (Location.command_description, Location.group_description):
        return f"commands.{_command_key(data)}.description"
    if context.location is Location.parameter_name:
        return f"commands.{_command_key(data.command)}.{data.name}.name"
    if context.location is Location.parameter_description:
        return f"commands.{_command_key(data.command)}.{data.name}.description"
    if context.location is Location.choice_name:
        return f"commands.choice.{data.value}"
    return None


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
        key = translation_key(context)
        return None if key is None else table(language).get(key)
