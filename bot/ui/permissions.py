"""The permissions a game needs where it is played, checked before a game is shown and named when missing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import text

if TYPE_CHECKING:
    from bot.ui.parts import Bot

IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
"""What the bot needs in a channel to show a game there."""
IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files", "read_message_history")
"""What the bot needs in a thread to show a game there (Discord's own permission for sending in threads)."""
FOR_THREADS = ("create_public_threads", "send_messages_in_threads", "manage_threads")
"""What the bot needs in a channel to open each game in a thread of it, and archive it at the end."""


def missing(permissions: discord.Permissions, needed: tuple[str, ...]) -> list[str]:
    """The permissions among `needed` that are not granted (an administrator has them all)."""
    if permissions.administrator:
        return []
    return [name for name in needed if not getattr(permissions, name)]


def needed_to_play(place: object) -> tuple[str, ...]:
    """The permissions a game needs in this channel or thread."""
    return IN_THREAD if isinstance(place, discord.Thread) else IN_CHANNEL


def missing_here(interaction: discord.Interaction[Any], *, threads: bool = False) -> list[str]:
    """What the bot lacks where this interaction happened to play a game there (and open threads, if asked)."""
    needed = needed_to_play(interaction.channel)
    if threads:
        needed = tuple(dict.fromkeys((*needed, *FOR_THREADS)))
    return missing(interaction.app_permissions, needed)


def missing_in(bot: Bot, channel_id: int) -> list[str] | None:
    """What the bot lacks in a channel or thread it knows (None when it cannot tell: not cached)."""
    place = bot.get_channel(channel_id)
    if not isinstance(place, discord.TextChannel | discord.Thread):
        return None
    return missing(place.permissions_for(place.guild.me), needed_to_play(place))


def explain(language: str, names: list[str], channel_id: int | None) -> str:
    """Say which permissions are missing where, in words a server admin can act on."""
    listed = ", ".join(text(language, f"bot.permission.{name}") for name in names)
    where = f"<#{channel_id}>" if channel_id is not None else text(language, "bot.permission.here")
    return text(language, "bot.reason.missing_permissions", permissions=listed, channel=where)
