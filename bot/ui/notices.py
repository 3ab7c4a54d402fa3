"""Public notices where a game is played (reminders, timeouts, seats handed over), in the server's language."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import render
from bot.storage.games import GameRecord
from bot.ui.controller import MISSING_PERMISSIONS, place_gone
from bot.ui.names import seat_names
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


class ChannelAnnouncer:
    """Posts a notice in a game's channel or thread; `{player}` is the seat's name unless the notice sets it.

    A notice that cannot be posted is not retried: a game whose place is gone is ended, and a missing permission
    is logged once per game (a reminder is not worth an admin's inbox of errors).
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._unheard: set[int] = set()
        """Games whose channel refuses their notices now (said once in the log; forgotten once one gets through)."""

    async def __call__(self, record: GameRecord, message: Message, ping: int | None) -> None:
        """Post `message` worded in the server's language, pinging only the user `ping` (if any, and if they kept
        the channel ping on in /notify)."""
        language = await self.bot.public_language(record.guild_id)
        if ping is not None and ping not in await self.bot.notifications.pinged(record):
            ping = None
        mentions = discord.AllowedMentions(
            users=[discord.Object(id=ping)] if ping is not None else False, roles=False, everyone=False
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        try:
            await channel.send(render(language, message, seat_names(record)), allowed_mentions=mentions)
        except discord.HTTPException as error:
            if place_gone(error):
                await self.bot.places.gone(record, reason=str(error))
            elif isinstance(error, discord.Forbidden) and error.code == MISSING_PERMISSIONS:
                if record.id not in self._unheard:
                    self._unheard.add(record.id)
                    log.warning("game %s: no permission to post notices in channel %s", record.id, record.channel_id)
            else:
                raise
        else:
            self._unheard.discard(record.id)
