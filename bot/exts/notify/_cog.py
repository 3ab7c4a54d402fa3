"""/notify, /mygames and /watch: each person's turn notifications, the games waiting on them, and spectating."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.notify._panel import NotifyComponent, current_panel
from bot.games import game_name
from bot.i18n import language_of, render, text
from bot.services.errors import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import answer, reply_private
from bot.ui.visibility import can_see

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


class NotifyCog(commands.Cog):
    """Commands about one person's notifications; every answer is private."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Let the panel's controls answer, old panels included."""
        self.bot.add_dynamic_items(NotifyComponent)

    async def cog_unload(self) -> None:
        """Undo `cog_load`."""
        self.bot.remove_dynamic_items(NotifyComponent)

    @app_commands.command(name="notify", description=text("en", "commands.notify.description"))
    async def notify(self, interaction: discord.Interaction[Any]) -> None:
        """Show the person's notification choices (on a server, whose invitations they refuse there) with the
        controls to change them."""
        await self.bot.notifications.closed_untold(interaction.user.id)  # the panel says it: told
        await answer(interaction, await current_panel(self.bot.notifications, interaction))

    @app_commands.command(name="mygames", description=text("en", "commands.mygames.description"))
    @app_commands.guild_only()
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        """List the running games of this server waiting on the person, with links."""
        language = language_of(interaction.locale)
        found = await self.bot.notifications.waiting_on(interaction.guild_id, interaction.user.id)
        if not found:
            await reply_private(interaction, text(language, "notify.mygames.none"))
            return
        lines = [text(language, "notify.mygames.title", count=len(found))]
        lines += [
            text(language, "notify.mygames.line", game=game_name(language, r.game), id=r.id, link=link)
            for r, link in found
        ]
        await reply_private(interaction, "\n".join(lines))

    @app_commands.command(name="watch", description=text("en", "commands.watch.description"))
    @app_commands.describe(game=text("en", "commands.watch.game.description"))
    @app_commands.guild_only()
    async def watch(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """Be told by DM when a game ends (this channel's, or the one named); again to stop. Players are refused, and
        so is anyone who cannot view the game's channel."""
        language = language_of(interaction.locale)
        record = await self._game(interaction, game)
        if record is None:
            return
        if not await can_see(self.bot, interaction.user, record):
            await reply_private(interaction, text(language, "notify.watch.hidden", id=record.id))
            return
        if record.seat_of(interaction.user.id) is not None:
            await reply_private(interaction, text(language, "notify.watch.player", id=record.id))
            return
        if record.status != "active":
            await reply_private(interaction, text(language, "notify.watch.not_started", id=record.id))
            return
        watching = await self.bot.notifications.toggle_watch(record, interaction.user.id, language)
        key = "notify.watch.started" if watching else "notify.watch.stopped"
        await reply_private(interaction, text(language, key, id=record.id))

    async def _game(self, interaction: discord.Interaction[Any], game_id: int | None) -> GameRecord | None:
        """The game named (an open one of this server), or this channel's; None after saying why not."""
        language = language_of(interaction.locale)
        try:
            if game_id is None:
                return await self.bot.service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
            record = await self.bot.service.get(game_id)
        except ServiceError as error:
            if game_id is not None:
                await reply_private(interaction, text(language, "notify.watch.unknown", id=game_id))
            else:
                await reply_private(interaction, render(language, error.message))
            return None
        if record.guild_id != interaction.guild_id:
            await reply_private(interaction, text(language, "notify.watch.unknown", id=game_id))
            return None
        return record

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction[Any], command: object) -> None:
        """Tell a person once, privately, after their next command, that Discord refused a DM to them."""
        if await self.bot.notifications.closed_untold(interaction.user.id) is None:
            return
        try:
            await interaction.followup.send(text(language_of(interaction.locale), "notify.closed.told"), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell user %s that their DMs are closed", interaction.user.id)
