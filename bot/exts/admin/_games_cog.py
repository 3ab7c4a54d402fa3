"""/endgame and /leave, for every game: end one early (recorded as abandoned; a host's loss in the ratings while
others still play it), or hand one's seat to a bot player."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.lobby._presenter import lobby_embed
from bot.games import GAMES
from bot.i18n import escaped, language_of, render, text
from bot.services.errors import ServiceError
from bot.services.ratings import rated_as_loss
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private, say_in_public, think
from bot.ui.house_rules import is_admin
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


class GamesCog(commands.Cog):
    """Commands about the game played where they are typed (a person elsewhere is pointed to their game)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="endgame", description=text("en", "commands.endgame.description"))
    @app_commands.guild_only()
    async def endgame(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's game now: only its host or a server admin; a lobby is cancelled. A host who is no admin
        ending a running game that other people still play loses it in the ratings (docs/ratings.md)."""
        record = await self._game_here(interaction)
        if record is None:
            return
        hosting = interaction.user.id == record.host_id and record.seat_of(interaction.user.id) is not None
        if not hosting and not is_admin(interaction):  # a host who left the game is no longer its host
            await self._refuse(interaction, Message(key="admin.reason.only_host_or_admin"))
            return
        try:
            ended = await self.bot.moves.end(record.id)
        except ServiceError as error:
            await self._refuse(interaction, error.message)
            return
        language = await self.bot.public_language(ended.guild_id)
        as_loss = ended.status == "abandoned" and hosting and not is_admin(interaction)
        as_loss = as_loss and rated_as_loss(ended, interaction.user.id)
        key = "admin.notice.ended_as_loss" if as_loss else "admin.notice.ended"
        if ended.status == "cancelled":
            await self._redraw_lobby(language, ended)
            key = "admin.notice.lobby_cancelled"
        notice = text(language, key, player=escaped(interaction.user.display_name), id=ended.id)
        await say_in_public(interaction, content=notice, allowed_mentions=discord.AllowedMentions.none())
        await self.bot.service.after_close(ended)
        if as_loss:
            await self.bot.ratings.forfeit(ended, interaction.user.id)

    @app_commands.command(name="leave", description=text("en", "commands.leave.description"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave this channel's running game: a bot player takes the seat for the rest of the game; a host who
        leaves passes the host role to the next person in seat order (announced in the game's place)."""
        record = await self._game_here(interaction)
        if record is None:
            return
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            await self._refuse(interaction, Message(key="bot.reason.not_a_player"))
            return
        if record.status == "lobby":
            await self._refuse(interaction, Message(key="admin.reason.leave_lobby"))
            return
        await think(interaction, private=True)
        notice = Message(key="admin.notice.left", params={"seat": seat})
        try:
            after = await self.bot.timers.hand_over(record.id, seat, notice)
        except ServiceError as error:
            await self._refuse(interaction, error.message)
            return
        language = language_of(interaction.locale)
        if after.status == "abandoned":
            said = text(language, "admin.saved.left_ended", id=record.id)
        else:
            said = text(language, "admin.saved.left", id=record.id)
            heir = await self._pass_host(after, interaction.user.id, seat)
            if heir is not None:
                said += " " + text(language, "admin.saved.left_host", player=heir)
        await reply_private(interaction, said)

    async def _pass_host(self, record: GameRecord, user_id: int, seat: int) -> str | None:
        """If the person who left hosted the game, pass the role on and announce it; the new host's name, or None."""
        if record.host_id != user_id or record.status != "active":
            return None
        try:
            passed = await self.bot.moves.pass_host(record.id, user_id, seat=seat)
        except ServiceError:
            return None  # it ended meanwhile
        if passed.host_id == user_id:
            return None
        heir = next(s for s in passed.seats if s.user_id == passed.host_id)
        name = escaped(heir.name)
        notice = Message(key="admin.notice.new_host", params={"player": name, "id": passed.id})
        try:
            await self.bot.timers.announce(passed, notice, None)
        except discord.HTTPException as error:
            log.warning("could not announce the new host of game %s: %s", passed.id, error)
        return name

    async def _game_here(self, interaction: discord.Interaction[Any]) -> GameRecord | None:
        """The open game of this channel or thread; None after telling the person where theirs is (or that none is)."""
        try:
            return await self.bot.service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
        except ServiceError as error:
            await self._refuse(interaction, error.message)
            return None

    async def _redraw_lobby(self, language: str, record: GameRecord) -> None:
        """Show a lobby ended by /endgame as cancelled, without its buttons."""
        where = await self.bot.shown.message(record.id, "lobby")
        if where is None:
            return
        channel_id, message_id = where
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(embed=lobby_embed(language, GAMES[record.game], record), view=None)
        except discord.HTTPException:
            return  # deleted meanwhile: nothing to redraw

    @staticmethod
    async def _refuse(interaction: discord.Interaction[Any], message: Message) -> None:
        await reply_private(interaction, render(language_of(interaction.locale), message))
