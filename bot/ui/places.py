"""Where a game is played: opening its thread, pointing people to it from elsewhere, and closing it at the end."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.services.errors import ServiceError
from bot.services.games import GameListener, Outcome
from bot.storage.games import GameRecord
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread stays open a week without messages (Discord's longest); turns can be slow."""
THREAD_ALREADY_CREATED = 160004
"""Discord's refusal of a second thread from one message."""


def can_open_thread(interaction: discord.Interaction[Any]) -> bool:
    """Whether a thread can be opened where this interaction happened (a text channel; not inside a thread)."""
    return isinstance(interaction.channel, discord.TextChannel)


async def open_thread(message: discord.Message, name: str, members: Sequence[int]) -> discord.Thread | None:
    """Open a public thread from a message (a lobby's, at Start) with these people in it; None when Discord
    refuses it (someone it cannot add is left out); one opened from it before (by a Start that then failed to
    be stored) makes it a thread of the message's channel instead."""
    try:
        thread = await _new_thread(message, name[:100])
    except discord.HTTPException as error:
        log.warning("could not open a game thread from message %s: %s", message.id, error)
        return None
    for user_id in members:
        try:
            await thread.add_user(discord.Object(id=user_id))
        except discord.HTTPException as error:
            log.info("could not add %s to the game thread %s: %s", user_id, thread.id, error)
    return thread


async def remove_thread(thread: discord.Thread) -> None:
    """Delete a thread opened for a game that did not start after all (archive it if it cannot be deleted)."""
    try:
        await thread.delete()
    except discord.HTTPException as error:
        log.warning("could not delete the unused game thread %s (%s); archiving it", thread.id, error)
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as again:
            log.warning("could not archive the unused game thread %s either: %s", thread.id, again)


class GamePlaces(GameListener):
    """Opens a thread per game when the server wants it, archives it at the end, and retires dead buttons."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._gone: set[int] = set()
        """Games closed because their place is gone: nothing is left there to edit or archive."""

    async def elsewhere(self, channel_id: int, user_id: int | None, game: str | None) -> Message | None:
        """Point to where a game is played instead: the person's own open game, else one in a thread of here."""
        ids = await self.bot.records.open_games_of(user_id, game) if user_id is not None else []
        ids = ids or await self.bot.records.open_games_in_threads_of(channel_id, game)
        if not ids:
            return None
        record = await self.bot.records.get(ids[0])
        if record is None or record.channel_id == channel_id:
            return None
        return Message(
            key="admin.reason.game_elsewhere", params={"id": record.id, "channel": f"<#{record.channel_id}>"}
        )

    async def channel_gone(self, channel_id: int) -> None:
        """A channel or thread was deleted: end the games played there (or in threads of it)."""
        for record in await self.bot.records.open_in_place(channel_id):
            await self.gone(record, reason=f"channel {channel_id} was deleted")

    async def guild_gone(self, guild_id: int) -> None:
        """The bot is no longer in a server: end its games there."""
        for record in await self.bot.records.open_in_guild(guild_id):
            await self.gone(record, reason=f"the bot left server {guild_id}")

    async def gone(self, record: GameRecord, *, reason: str) -> None:
        """End a game whose place is gone, once: abandoned, its timers stopped, nothing retried there."""
        try:
            ended = await self.bot.moves.end(record.id)
        except ServiceError:
            return  # already closed
        log.warning("game %s ended as abandoned: %s", record.id, reason)
        self._gone.add(record.id)
        await self.bot.service.after_close(ended)

    async def on_moved(self, outcome: Outcome) -> None:
        """Archive a game's thread once its final move is shown."""
        if outcome.finished:
            await self._archive(outcome.record)

    async def on_closed(self, record: GameRecord) -> None:
        """A game ended early: its turn message loses its buttons, and its thread is archived."""
        if record.id in self._gone:
            self._gone.discard(record.id)
            return
        controller = self.bot.controllers.get(record.game)
        if controller is not None:
            try:
                await controller.retire_turn(record.id)
            except discord.HTTPException as error:
                log.info("could not retire the turn message of game %s: %s", record.id, error)
            controller.forget(record.id)
        await self._archive(record)

    async def _archive(self, record: GameRecord) -> None:
        thread_id = await self.bot.records.thread_of(record.id)
        if thread_id is None:
            return
        try:
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
        except discord.HTTPException as error:
            log.warning("could not archive the thread of game %s: %s", record.id, error)


async def _new_thread(message: discord.Message, name: str) -> discord.Thread:
    """A public thread from the message, or from its channel when the message already had one."""
    try:
        return await message.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    except discord.HTTPException as error:
        if error.code != THREAD_ALREADY_CREATED or not isinstance(message.channel, discord.TextChannel):
            raise
    return await message.channel.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES
    )
