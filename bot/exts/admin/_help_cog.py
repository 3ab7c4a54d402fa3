"""/rules (a game's rules in short, with the variants and timers in effect on this server) and /help (the commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.admin._words import COLOUR, command_words, variant_lines, walk_slash_commands
from bot.exts.shared_commands import offer_games
from bot.games import GAMES, game_name
from bot.i18n import language_of, text
from bot.ui.answers import reply_private
from bot.ui.house_rules import timer_lines

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class HelpCog(commands.Cog):
    """Answers privately, in the person's language."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        offer_games(self.rules)

    @app_commands.command(name="rules", description=text("en", "commands.rules.description"))
    @app_commands.describe(game=text("en", "commands.rules.game.description"))
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Show a game's rules in short, the variants in effect on this server and the turn timers."""
        language = language_of(interaction.locale)
        if game not in GAMES:
            await reply_private(interaction, text(language, "bot.reason.unknown_game"))
            return
        namespace = GAMES[game].namespace
        config = await self.bot.config.get(interaction.guild_id)
        embed = discord.Embed(
            title=text(language, "admin.rules.title", game=game_name(language, game)),
            description=text(language, f"admin.rules.{namespace}.summary"),
            colour=COLOUR,
        )
        embed.add_field(
            name=text(language, "admin.rules.turn"), value=text(language, f"admin.rules.{namespace}.turn"), inline=False
        )
        embed.add_field(
            name=text(language, "admin.rules.end"), value=text(language, f"admin.rules.{namespace}.end"), inline=False
        )
        variants = variant_lines(language, self.bot.config, config, game)
        if variants:
            embed.add_field(name=text(language, "admin.rules.variants"), value="\n".join(variants), inline=False)
        embed.add_field(
            name=text(language, "admin.summary.timers"),
            value="\n".join(timer_lines(language, config.timers)),
            inline=False,
        )
        embed.set_footer(text=text(language, "admin.rules.footer"))
        await reply_private(interaction, "", embed=embed)

    @app_commands.command(name="help", description=text("en", "commands.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """List the commands, in the person's language; those for server admins are marked."""
        language = language_of(interaction.locale)
        lines = []
        for command in walk_slash_commands(self.bot.tree):
            name, description = command_words(language, command)
            root = command.root_parent or command
            admin_only = root.default_permissions is not None and root.default_permissions.manage_guild
            mark = " " + text(language, "admin.help.admin_only") if admin_only else ""
            lines.append(f"**{name}**{mark} — {description}")
        embed = discord.Embed(
            title=text(language, "admin.help.title"), description="\n".join(lines)[:4096], colour=COLOUR
        )
        embed.set_footer(text=text(language, "admin.help.footer"))
        await reply_private(interaction, "", embed=embed)
