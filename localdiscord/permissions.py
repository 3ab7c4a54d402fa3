"""Discord's permission arithmetic per channel: guild roles, then overwrites, then the implicit rules.

It mirrors discord.py's ``permissions_for`` (which mirrors Discord), so what the stand-in enforces on REST, what
it sends as ``app_permissions`` and what the bot computes from its cache agree.
"""

from __future__ import annotations

import discord

from localdiscord.models import LocalChannel, LocalGuild, LocalUser, Overwrite
from localdiscord.state import ADMINISTRATOR, ALL_PERMISSIONS, StandInState

ROLE, MEMBER = 0, 1

VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
EMBED_LINKS = discord.Permissions(embed_links=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
READ_MESSAGE_HISTORY = discord.Permissions(read_message_history=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
CREATE_PRIVATE_THREADS = discord.Permissions(create_private_threads=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value
ALL_CHANNEL = discord.Permissions.all_channel().value
NEED_SENDING = discord.Permissions(
    send_tts_messages=True, mention_everyone=True, embed_links=True, attach_files=True
).value


def in_channel(state: StandInState, person: LocalUser, place: LocalChannel) -> int:
    """What ``person`` may do in a channel or thread: guild roles, overwrites, then the implicit rules.

    A thread takes its parent's overwrites (then its own, which only the stand-in has) and needs Send Messages
    in Threads where a channel needs Send Messages.
    """
    guild = state.guild_of(place)
    value = state.permissions(person, guild)
    if value & ADMINISTRATOR:
        return ALL_PERMISSIONS
    parent = state.channels.get(place.parent_id or 0)
    for layer in (parent, place):
        if layer is not None:
            value = _overwritten(state, person, guild, value, layer.overwrites)
    if not value & send_permission(place):
        value &= ~NEED_SENDING
    if not value & VIEW_CHANNEL:
        value &= ~ALL_CHANNEL
    return value


def send_permission(place: LocalChannel) -> int:
    """The permission that lets one post in this place: Send Messages, or Send Messages in Threads."""
    return SEND_MESSAGES_IN_THREADS if place.is_thread else SEND_MESSAGES


def names(bits: int) -> list[str]:
    """The names of the permissions in ``bits``, for readable refusals (discord.py's, as Discord's for View)."""
    found = [name for name, granted in discord.Permissions(bits) if granted]
    return ["view_channel" if name == "read_messages" else name for name in found]


def _overwritten(
    state: StandInState, person: LocalUser, guild: LocalGuild, value: int, overwrites: dict[int, Overwrite]
) -> int:
    """Apply one channel's overwrites: @everyone's, then the person's roles' together, then the person's own."""
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    roles = set(state.role_ids(person, guild))
    allow = deny = 0
    for overwrite in overwrites.values():
        if overwrite.type == ROLE and overwrite.id in roles:
            allow |= overwrite.allow
            deny |= overwrite.deny
    value = (value & ~deny) | allow
    own = overwrites.get(person.id)
    if own is not None and own.type == MEMBER:
        value = (value & ~own.deny) | own.allow
    return value
