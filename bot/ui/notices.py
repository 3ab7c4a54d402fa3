"""Public notices where a game is played (reminders, timeouts, seats handed over), in the server's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import render
from bot.storage.games import GameRecord
from rules.engine import Message

if TYPE_CHECKING:
    from bot.app import Conductor


class ChannelAnnouncer:
    """Posts a notice in a game's channel or thread; `{player}` is the seat's name unless the notice sets it."""

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot

    async def __call__(self, record: GameRecord, message: Message, ping: int | None) -> None:
        """Post `message` worded in the server's language, pinging only the user `ping` (if any)."""
        language = await self.bot.public_language(record.guild_id)
        names = {s.seat: s.display_name for s in record.seats}
        mentions = discord.AllowedMentions(
            users=[discord.Object(id=ping)] if ping is not None else False, roles=False, everyone=False
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(render(language, message, names), allowed_mentions=mentions)
