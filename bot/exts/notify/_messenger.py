"""The notification service's hands on Discord: DMs (closed ones told apart), a line in a channel, server and game
names."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games import game_name

if TYPE_CHECKING:
    from bot.ui.parts import Bot

CANNOT_DM = 50007
"""Discord's code for a DM it refuses: the person closed DMs from server members (or blocked the bot)."""


class DirectMessenger:
    """Sends DMs and channel lines for the notification service through the bot's connection."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def dm(self, user_id: int, content: str) -> bool:
        """DM a person; False when Discord refuses because their DMs are closed (other failures raise)."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                return False
            raise
        return True

    async def post(self, channel_id: int, content: str, ping: list[int]) -> None:
        """Post a public line in a channel, pinging these people only."""
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in ping], roles=False, everyone=False)
        await self.bot.get_partial_messageable(channel_id).send(content, allowed_mentions=mentions)

    def server_name(self, guild_id: int | None) -> str:
        """The name of a server, as the bot knows it (its id if it is not in the cache)."""
        guild = self.bot.get_guild(guild_id or 0)
        return discord.utils.escape_markdown(guild.name) if guild is not None else str(guild_id)

    def game_name(self, language: str, game: str) -> str:
        """The name of a game in a language, from the list of games."""
        return game_name(language, game)
