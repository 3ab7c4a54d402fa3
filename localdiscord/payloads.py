"""Discord API JSON for the stand-in's objects, with every field discord.py 2.7 reads (ids as strings)."""

from __future__ import annotations

import struct
from datetime import datetime
from typing import Any

from localdiscord import permissions
from localdiscord.models import (
    ATTACHMENT_SCHEME,
    Json,
    LocalChannel,
    LocalGuild,
    LocalRole,
    LocalUser,
    MessageKind,
    Overwrite,
    RecordedAttachment,
    RecordedInteraction,
    RecordedMessage,
    SyncedCommand,
)
from localdiscord.state import EVERYONE_PERMISSIONS, StandInState
from localdiscord.validation import ATTACHMENT_SIZE_LIMIT

API_VERSION = 1


def iso(moment: datetime | None) -> str | None:
    """Format a timestamp the way Discord does (ISO 8601 with offset)."""
    return moment.isoformat() if moment else None


def user(person: LocalUser) -> Json:
    """A user object."""
    return {
        "id": str(person.id),
        "username": person.name,
        "discriminator": "0",
        "global_name": person.name,
        "avatar": None,
        "bot": person.bot,
        "public_flags": 0,
    }


def member(
    state: StandInState,
    person: LocalUser,
    guild: LocalGuild,
    *,
    with_permissions: bool = False,
    place: LocalChannel | None = None,
) -> Json:
    """A member of ``guild`` (with ``permissions`` as interactions carry them: in ``place`` when given)."""
    payload: Json = {
        "user": user(person),
        "roles": [str(role_id) for role_id in state.role_ids(person, guild)],
        "joined_at": iso(guild.created_at),
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_permissions:
        value = state.permissions(person, guild) if place is None else permissions.in_channel(state, person, place)
        payload["permissions"] = str(value)
    return payload


def role(guild: LocalGuild, guild_role: LocalRole, position: int) -> Json:
    """A role object of ``guild``."""
    return {
        "id": str(guild_role.id),
        "name": guild_role.name,
        "permissions": str(guild_role.permissions),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": guild_role is guild.bot_role,
        "mentionable": False,
        "flags": 0,
    }


def everyone_role(guild: LocalGuild) -> Json:
    """The @everyone role, whose id is the guild's."""
    return role(guild, LocalRole("@everyone", EVERYONE_PERMISSIONS, guild.id), 0)


def roles(guild: LocalGuild) -> list[Json]:
    """Every role of a guild, @everyone first and the bot's managed role last."""
    listed = [everyone_role(guild)]
    return listed + [role(guild, r, position) for position, r in enumerate([*guild.roles, guild.bot_role], start=1)]


def channel(state: StandInState, place: LocalChannel) -> Json:
    """A text channel or thread object."""
    payload: Json = {
        "id": str(place.id),
        "type": place.type,
        "guild_id": str(place.guild_id),
        "name": place.name,
        "last_message_id": _last_message_id(state, place),
        "rate_limit_per_user": 0,
        "flags": 0,
        "nsfw": False,
    }
    if not place.is_thread:
        payload |= {
            "position": place.position,
            "parent_id": None,
            "topic": place.topic,
            "permission_overwrites": [overwrite(o) for o in place.overwrites.values()],
            "default_auto_archive_duration": 1440,
        }
        return payload
    sent = sum(1 for m in state.messages.values() if m.channel_id == place.id)
    payload |= {
        "parent_id": str(place.parent_id),
        "owner_id": str(place.owner_id),
        "message_count": sent,
        "total_message_sent": sent,
        "member_count": len(place.member_ids),
        "thread_metadata": {
            "archived": place.archived,
            "auto_archive_duration": place.auto_archive_duration,
            "archive_timestamp": iso(place.created_at),
            "locked": place.locked,
            "invitable": place.invitable,
            "create_timestamp": iso(place.created_at),
        },
    }
    return payload


def overwrite(entry: Overwrite) -> Json:
    """A permission overwrite as channel objects carry it."""
    return {"id": str(entry.id), "type": entry.type, "allow": str(entry.allow), "deny": str(entry.deny)}


def deletion(state: StandInState, place: LocalChannel) -> tuple[str, Json]:
    """The gateway event telling the bot a channel (CHANNEL_DELETE) or a thread (THREAD_DELETE) is gone."""
    if not place.is_thread:
        return "CHANNEL_DELETE", channel(state, place)
    data = {"id": str(place.id), "guild_id": str(place.guild_id), "parent_id": str(place.parent_id), "type": place.type}
    return "THREAD_DELETE", data


def guild(server: LocalGuild) -> Json:
    """A guild object as REST answers it (``GET /guilds/{id}``): no members, channels or threads."""
    return {
        "id": str(server.id),
        "name": server.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(server.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": roles(server),
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "preferred_locale": server.locale,
        "premium_tier": 0,
        "nsfw_level": 0,
        "approximate_member_count": len(server.member_ids) + 1,
    }


def guild_create(state: StandInState, server: LocalGuild) -> Json:
    """The full guild object sent in GUILD_CREATE: channels, active threads, roles and members."""
    members = [member(state, person, server) for person in [*state.members(server), state.bot_user]]
    places = [p for p in state.channels.values() if p.guild_id == server.id and not p.deleted]
    return guild(server) | {
        "joined_at": iso(server.created_at),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": members,
        "channels": [channel(state, p) for p in places if not p.is_thread],
        "threads": [channel(state, p) for p in places if p.is_thread and not p.archived],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application(state: StandInState) -> Json:
    """The bot's application object (GET /oauth2/applications/@me)."""
    owner = {"id": str(state.default_guild.owner_id), "username": "owner", "discriminator": "0", "avatar": None}
    return {
        "id": str(state.application_id),
        "name": state.bot_user.name,
        "icon": None,
        "description": "Local Discord stand-in application",
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": owner,
        "team": None,
        "flags": 0,
        "interactions_endpoint_url": None,
        "rpc_origins": [],
        "summary": "",
    }


def command(state: StandInState, synced: SyncedCommand) -> Json:
    """A registered command as Discord returns it: what the bot sent plus ids and defaults."""
    payload: Json = {
        "type": 1,
        "description": "",
        "default_member_permissions": None,
        "nsfw": False,
        **synced.payload,
        "id": str(synced.id),
        "application_id": str(state.application_id),
        "version": str(synced.id),
    }
    if synced.guild_id is not None:
        payload["guild_id"] = str(synced.guild_id)
    return payload


def attachment_url(base_url: str, file: RecordedAttachment) -> str:
    """Where the stand-in serves an attachment's bytes."""
    return f"{base_url}/attachments/{file.id}/{file.filename}"


def attachment(base_url: str, file: RecordedAttachment) -> Json:
    """An attachment object whose URL serves the bytes from the stand-in."""
    url = attachment_url(base_url, file)
    payload: Json = {
        "id": str(file.id),
        "filename": file.filename,
        "size": file.size,
        "url": url,
        "proxy_url": url,
        "content_type": file.content_type,
    }
    if file.description is not None:
        payload["description"] = file.description
    size = _png_size(file.data)
    if size is not None:
        payload["width"], payload["height"] = size
    return payload


def message(state: StandInState, base_url: str, recorded: RecordedMessage) -> Json:
    """A message object in its current version."""
    guild_id = str(state.channels[recorded.channel_id].guild_id)
    payload: Json = {
        "id": str(recorded.id),
        "channel_id": str(recorded.channel_id),
        "guild_id": guild_id,
        "author": user(state.user(recorded.author_id)),
        "content": recorded.content,
        "timestamp": iso(recorded.created_at),
        "edited_timestamp": iso(recorded.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(base_url, a) for a in recorded.attachments],
        "embeds": recorded.embeds,
        "components": _resolved(recorded.components, base_url, {a.filename: a for a in recorded.attachments}),
        "reactions": [],
        "pinned": False,
        "type": recorded.type,
        "flags": recorded.flags,
    }
    if recorded.kind is not MessageKind.CHANNEL:
        payload["webhook_id"] = str(state.application_id)
        payload["application_id"] = str(state.application_id)
    interaction = state.interactions.get(recorded.interaction_id or 0)
    if interaction is not None:
        payload["interaction_metadata"] = _interaction_metadata(interaction, recorded, guild_id)
    if recorded.reference_id is not None:
        payload["message_reference"] = {
            "type": 0,
            "message_id": str(recorded.reference_id),
            "channel_id": str(recorded.channel_id),
            "guild_id": guild_id,
        }
    if recorded.thread_id is not None and recorded.thread_id in state.channels:
        payload["thread"] = channel(state, state.channels[recorded.thread_id])
    return payload


def interaction(
    state: StandInState,
    base_url: str,
    recorded: RecordedInteraction,
    data: Json,
    source: RecordedMessage | None,
) -> Json:
    """An INTERACTION_CREATE payload with every field discord.py 2.7 reads."""
    place = state.channels[recorded.channel_id]
    server = state.guild_of(place)
    place_payload = channel(state, place) | {"permissions": str(permissions.in_channel(state, recorded.user, place))}
    payload: Json = {
        "id": str(recorded.id),
        "application_id": str(state.application_id),
        "type": int(recorded.type),
        "token": recorded.token,
        "version": API_VERSION,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "guild_id": str(server.id),
        "guild": {"id": str(server.id), "locale": server.locale, "features": []},
        "channel": place_payload,
        "channel_id": str(place.id),
        "member": member(state, recorded.user, server, with_permissions=True, place=place),
        "app_permissions": str(permissions.in_channel(state, state.bot_user, place)),
        "locale": recorded.user.locale,
        "guild_locale": server.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(server.id)},
        "context": 0,
        "data": data,
    }
    if source is not None:
        payload["message"] = message(state, base_url, source)
    return payload


def _resolved(value: object, base_url: str, files: dict[str, RecordedAttachment]) -> Any:
    """Components as Discord returns them: each ``attachment://name`` medium unfurled to that file."""
    if isinstance(value, list):
        return [_resolved(item, base_url, files) for item in value]
    if not isinstance(value, dict):
        return value
    resolved = {key: _resolved(item, base_url, files) for key, item in value.items()}
    url = value.get("url")
    if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME) and url.removeprefix(ATTACHMENT_SCHEME) in files:
        file = files[url.removeprefix(ATTACHMENT_SCHEME)]
        address = attachment_url(base_url, file)
        resolved |= {"url": address, "proxy_url": address, "content_type": file.content_type, "flags": 0}
        resolved |= {"attachment_id": str(file.id)}
        size = _png_size(file.data)
        if size is not None:
            resolved["width"], resolved["height"] = size
    return resolved


def _interaction_metadata(recorded: RecordedInteraction, reply: RecordedMessage, guild_id: str) -> Json:
    metadata: Json = {
        "id": str(recorded.id),
        "type": int(recorded.type),
        "user": user(recorded.user),
        "authorizing_integration_owners": {"0": guild_id},
    }
    if reply.kind is MessageKind.FOLLOWUP and recorded.original_message_id is not None:
        metadata["original_response_message_id"] = str(recorded.original_message_id)
    if recorded.source_message_id is not None:
        metadata["interacted_message_id"] = str(recorded.source_message_id)
    return metadata


def _last_message_id(state: StandInState, place: LocalChannel) -> str | None:
    found = (m.id for m in reversed(state.messages.values()) if m.channel_id == place.id and not m.ephemeral)
    last = next(found, None)
    return None if last is None else str(last)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)
