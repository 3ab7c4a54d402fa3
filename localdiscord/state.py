"""Everything the stand-in remembers across bot sessions, and the one place tests wait on it."""

from __future__ import annotations

import asyncio
import mimetypes
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Literal, TypeVar

import discord

from localdiscord.errors import StandInTimeout
from localdiscord.ids import next_snowflake
from localdiscord.models import (
    EPHEMERAL,
    LOADING,
    Json,
    LocalChannel,
    LocalGuild,
    LocalRole,
    LocalUser,
    MessageKind,
    MessageRevision,
    RecordedAttachment,
    RecordedInteraction,
    RecordedMessage,
    SyncedCommand,
)

T = TypeVar("T")

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
BOT_PERMISSIONS = (
    discord.Permissions.text()
    | discord.Permissions(view_channel=True, manage_threads=True, manage_messages=True, create_private_threads=True)
).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
ALL_PERMISSIONS = discord.Permissions.all().value
TOKEN_LIFETIME_SECONDS = 15 * 60
RECHECK = 0.05
"""Seconds between two looks at a waited-for condition when nothing here changed."""


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request: ``files[index]``."""

    index: int
    filename: str
    data: bytes


@dataclass(frozen=True)
class MessageAction:
    """One entry of the ordered log of what the bot did to messages."""

    kind: Literal["create", "edit", "delete"]
    message: RecordedMessage


class StandInState:
    """The guilds, their people and channels, synced commands, messages and interactions.

    It outlives bot sessions: a restarted bot finds the same messages and commands. Every change calls
    ``notify()`` so that ``wait_until`` wakes up and re-checks its condition. ``ack_deadline`` is the seconds
    the bot has to acknowledge an interaction (None: no deadline). The first guild is the default one: names of
    channels and roles are looked up there first.
    """

    def __init__(
        self,
        *,
        guild_name: str,
        guild_locale: str,
        channel_names: Iterable[str],
        roles: Iterable[LocalRole],
        users: Iterable[LocalUser],
        bot_name: str,
        clock: Callable[[], float],
        ack_deadline: float | None,
    ) -> None:
        self._waiters: set[asyncio.Future[None]] = set()
        self._holds = 0
        self._notify_pending = False
        self.clock = clock
        self.ack_deadline = ack_deadline
        self.created_at = datetime.now(UTC)
        self.bot_user = LocalUser(bot_name, bot=True)
        self.users: dict[int, LocalUser] = {}
        self.guilds: dict[int, LocalGuild] = {}
        self.channels: dict[int, LocalChannel] = {}
        self.dm_channels: dict[int, LocalChannel] = {}
        """User id → the bot's DM channel with that person (apart from guild channels: no guild, no transcript)."""
        default = self.add_guild(guild_name, guild_locale, channel_names=channel_names, roles=roles)
        for user in users:
            self.add_user(user, default)
        self.commands: dict[tuple[int | None, str, int], SyncedCommand] = {}
        self.command_syncs: dict[int | None, int] = {}
        """Scope (a guild's id; None: global) → bulk overwrites of its commands accepted, the writes Discord limits."""
        self.messages: dict[int, RecordedMessage] = {}
        self._by_channel: dict[int, list[RecordedMessage]] = {}
        """Channel id → its messages, oldest first (a load of thousands of channels looks one up per click)."""
        self.log: list[MessageAction] = []
        self.interactions: dict[int, RecordedInteraction] = {}
        self.uploads: dict[int, RecordedAttachment] = {}
        self.requests: list[str] = []
        self.unhandled: list[str] = []
        self.rejected: list[str] = []
        self.logged_errors: list[str] = []
        self.timeouts: list[str] = []
        """Each wait that ran out of time instead of ending on what it waited for, as its headline says it."""

    @property
    def application_id(self) -> int:
        """The bot's application id, equal to its user id as for every modern Discord app."""
        return self.bot_user.id

    # --- guilds, people, roles and channels ----------------------------------------------------------

    @property
    def default_guild(self) -> LocalGuild:
        """The first guild: the one tests and ``python -m bot`` use unless they name another."""
        return next(iter(self.guilds.values()))

    def add_guild(
        self,
        name: str,
        locale: str,
        *,
        channel_names: Iterable[str],
        roles: Iterable[LocalRole],
        guild_id: int | None = None,
    ) -> LocalGuild:
        """Create a guild with the bot in it (its own managed role included) and text channels."""
        bot_role = LocalRole(self.bot_user.name, permissions=BOT_PERMISSIONS)
        guild = LocalGuild(name, bot_role, locale=locale, roles=list(roles), id=guild_id or next_snowflake())
        self.guilds[guild.id] = guild
        for channel_name in channel_names:
            self.add_channel(channel_name, guild)
        self.notify()
        return guild

    def guild(self, guild_id: int | None = None) -> LocalGuild:
        """Find a guild by id; None is the default guild."""
        if guild_id is None:
            return self.default_guild
        if guild_id in self.guilds:
            return self.guilds[guild_id]
        raise KeyError(f"no guild {guild_id!r}; known: {[(g.name, g.id) for g in self.guilds.values()]}")

    def guild_of(self, place: LocalChannel) -> LocalGuild:
        """The guild a channel or thread belongs to."""
        return self.guilds[place.guild_id]

    def add_channel(self, name: str, guild: LocalGuild) -> LocalChannel:
        """Add a text channel at the end of a guild's list."""
        position = sum(1 for c in self.channels.values() if c.guild_id == guild.id and not c.is_thread)
        channel = LocalChannel(name.lstrip("#"), position=position, created_at=self.created_at, guild_id=guild.id)
        self.channels[channel.id] = channel
        self.notify()
        return channel

    def add_user(self, user: LocalUser, guild: LocalGuild) -> LocalUser:
        """Make ``user`` a member of ``guild`` (it may already be one of others); its role names must exist there."""
        known = {role.name for role in guild.roles}
        missing = [name for name in user.roles if name not in known]
        if missing:
            raise KeyError(f"{user.name} holds roles {missing} that guild {guild.name!r} does not have")
        self.users[user.id] = user
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)
        self.notify()
        return user

    def members(self, guild: LocalGuild) -> list[LocalUser]:
        """The human members of a guild, in the order they joined."""
        return [self.users[user_id] for user_id in guild.member_ids]

    def is_member(self, user: LocalUser, guild: LocalGuild) -> bool:
        """Whether ``user`` is in ``guild`` (the bot is, while present)."""
        return guild.bot_present if user.bot else user.id in guild.member_ids

    def user(self, ref: LocalUser | str | int) -> LocalUser:
        """Find a person by object, name or id (the bot included), whatever guilds they are in."""
        if isinstance(ref, LocalUser):
            return ref
        for user in [*self.users.values(), self.bot_user]:
            if ref in (user.name, user.id):
                return user
        raise KeyError(f"no user {ref!r}; known: {[u.name for u in self.users.values()]}")

    def role(self, ref: LocalRole | str | int, guild: LocalGuild | None = None) -> LocalRole:
        """Find a role by object, id (in any guild) or name (in ``guild``, by default the default guild)."""
        if isinstance(ref, LocalRole):
            return ref
        places = [guild or self.default_guild] if isinstance(ref, str) else list(self.guilds.values())
        for place in places:
            for role in [*place.roles, place.bot_role]:
                if ref in (role.name, role.id):
                    return role
        raise KeyError(f"no role {ref!r}; known: {[r.name for p in places for r in p.roles]}")

    def channel(self, ref: LocalChannel | str | int, guild: LocalGuild | None = None) -> LocalChannel:
        """Find a channel or thread by object, id or name (``"trains"`` or ``"#trains"``).

        A name is looked up in ``guild`` when given, else in the default guild first, then the others in order.
        """
        if isinstance(ref, LocalChannel):
            return ref
        if isinstance(ref, int) and ref in self.channels:
            return self.channels[ref]
        if isinstance(ref, str):
            for place in [guild] if guild is not None else list(self.guilds.values()):
                for channel in self.channels.values():
                    if channel.guild_id == place.id and channel.name == ref.lstrip("#") and not channel.deleted:
                        return channel
        raise KeyError(f"no channel {ref!r}; known: {[c.name for c in self.channels.values()]}")

    def delete_channel(self, place: LocalChannel) -> None:
        """Mark a channel deleted, with its threads (Discord deletes them along)."""
        for channel in self.channels.values():
            if channel is place or channel.parent_id == place.id:
                channel.deleted = True
        self.notify()

    def role_ids(self, user: LocalUser, guild: LocalGuild) -> list[int]:
        """The ids of the roles ``user`` holds in ``guild`` (not @everyone)."""
        if user.bot:
            return [guild.bot_role.id]
        return [self.role(name, guild).id for name in user.roles]

    def permissions(self, user: LocalUser, guild: LocalGuild) -> int:
        """Guild permissions of ``user``: @everyone's, plus its roles', plus its own; all if administrator."""
        value = EVERYONE_PERMISSIONS | user.permissions
        for role_id in self.role_ids(user, guild):
            value |= self.role(role_id).permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    # --- commands ----------------------------------------------------------------------------------------

    def sync_commands(self, guild_id: int | None, payloads: list[Json]) -> list[SyncedCommand]:
        """Replace the commands of one scope (global or the guild), keeping ids of commands that stay."""
        kept: dict[tuple[int | None, str, int], SyncedCommand] = {
            key: command for key, command in self.commands.items() if key[0] != guild_id
        }
        synced: list[SyncedCommand] = []
        for payload in payloads:
            key = (guild_id, str(payload["name"]), int(payload.get("type", 1)))
            previous = self.commands.get(key)
            command = SyncedCommand(previous.id if previous else next_snowflake(), guild_id, dict(payload))
            kept[key] = command
            synced.append(command)
        self.commands = kept
        self.command_syncs[guild_id] = self.command_syncs.get(guild_id, 0) + 1
        self.notify()
        return synced

    def scope_commands(self, guild_id: int | None) -> list[SyncedCommand]:
        """The commands registered in one scope, in registration order."""
        return [command for key, command in self.commands.items() if key[0] == guild_id]

    def command(self, name: str, guild: LocalGuild | None = None, command_type: int = 1) -> SyncedCommand:
        """Find a synced command by name, preferring the guild's over a global one, as Discord shows them."""
        for scope in ((guild or self.default_guild).id, None):
            found = self.commands.get((scope, name, command_type))
            if found is not None:
                return found
        known = sorted({key[1] for key in self.commands})
        raise KeyError(f"the bot has not synced a command named {name!r}; synced: {known}")

    # --- messages ----------------------------------------------------------------------------------------

    def create_message(
        self,
        channel: LocalChannel,
        payload: Json,
        files: list[UploadedFile],
        *,
        kind: MessageKind,
        interaction: RecordedInteraction | None = None,
        message_type: int = 0,
    ) -> RecordedMessage:
        """Record a new message from the bot built from a create payload."""
        flags = int(payload.get("flags") or 0)
        message = RecordedMessage(
            id=next_snowflake(),
            channel_id=channel.id,
            author_id=self.bot_user.id,
            author_name=self.bot_user.name,
            kind=kind,
            flags=flags,
            type=message_type,
            interaction_id=interaction.id if interaction else None,
            recipient_id=interaction.user.id if interaction and flags & EPHEMERAL else None,
            reference_id=_reference_id(payload),
            created_at=datetime.now(UTC),
        )
        self._apply(message, payload, files, creating=True)
        message.pinged = _pinged(payload, message.text)
        self.messages[message.id] = message
        self._by_channel.setdefault(message.channel_id, []).append(message)
        self.log.append(MessageAction("create", message))
        self.notify()
        return message

    def edit_message(self, message: RecordedMessage, payload: Json, files: list[UploadedFile]) -> None:
        """Apply an edit payload, keeping the previous version in the message's history."""
        message.history.append(message.revision())
        self._apply(message, payload, files, creating=False)
        message.flags &= ~LOADING
        message.edited_at = datetime.now(UTC)
        self.log.append(MessageAction("edit", message))
        self.notify()

    def preview_edit(self, message: RecordedMessage, payload: Json, files: list[UploadedFile]) -> MessageRevision:
        """The message as an edit would leave it, without changing it (to refuse an edit Discord would refuse)."""
        copy = replace(message, history=[])
        self._apply(copy, payload, files, creating=False)
        return copy.revision()

    def preview_create(self, payload: Json, files: list[UploadedFile]) -> MessageRevision:
        """The message a create payload would make, without recording it (to check it as a whole)."""
        draft = RecordedMessage(0, 0, self.bot_user.id, self.bot_user.name, MessageKind.CHANNEL)
        draft.flags = int(payload.get("flags") or 0)
        self._apply(draft, payload, files, creating=True)
        return draft.revision()

    def delete_message(self, message: RecordedMessage) -> None:
        """Mark a message deleted (it stays in the records)."""
        message.deleted = True
        self.log.append(MessageAction("delete", message))
        self.notify()

    def channel_messages(self, channel: LocalChannel) -> list[RecordedMessage]:
        """The messages everyone sees in a channel, oldest first (ephemeral and deleted ones left out)."""
        return [m for m in self._by_channel.get(channel.id, ()) if not m.ephemeral and not m.deleted]

    def dm_channel(self, user: LocalUser) -> LocalChannel:
        """The bot's DM channel with ``user``, opened on first use (``POST /users/@me/channels``)."""
        if user.id not in self.dm_channels:
            place = LocalChannel(user.name, type=1, recipient_id=user.id, created_at=self.created_at)
            self.dm_channels[user.id] = place
        return self.dm_channels[user.id]

    def dm_place(self, channel_id: int) -> LocalChannel | None:
        """The DM channel with this id, or None for any other channel."""
        return next((place for place in self.dm_channels.values() if place.id == channel_id), None)

    def dms(self, user: LocalUser) -> list[RecordedMessage]:
        """The direct messages the bot sent ``user``, oldest first."""
        place = self.dm_channels.get(user.id)
        return [] if place is None else self.channel_messages(place)

    def ephemerals(self, user: LocalUser) -> list[RecordedMessage]:
        """The ephemeral messages ``user`` received and still sees, oldest first."""
        return [m for m in self.messages.values() if m.recipient_id == user.id and not m.deleted]

    def new_attachment(self, upload: UploadedFile, description: str | None = None) -> RecordedAttachment:
        """Turn an uploaded file part into a stored attachment with a fresh id."""
        content_type = mimetypes.guess_type(upload.filename)[0]
        return RecordedAttachment(next_snowflake(), upload.filename, upload.data, content_type, description)

    def attachment(self, attachment_id: int) -> RecordedAttachment | None:
        """Find any file ever uploaded, by the bot or as a command option, by id (to serve its bytes)."""
        if attachment_id in self.uploads:
            return self.uploads[attachment_id]
        for message in self.messages.values():
            for revision in [*message.history, message.revision()]:
                for attachment in revision.attachments:
                    if attachment.id == attachment_id:
                        return attachment
        return None

    def _apply(self, message: RecordedMessage, payload: Json, files: list[UploadedFile], *, creating: bool) -> None:
        if "content" in payload:
            message.content = str(payload["content"] or "")
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if not creating and payload.get("flags") is not None:
            kept = message.flags & (EPHEMERAL | LOADING)
            message.flags = kept | (int(payload["flags"]) & ~(EPHEMERAL | LOADING))
        message.attachments = self._attachments_after(message, payload, files, creating=creating)

    def _attachments_after(
        self, message: RecordedMessage, payload: Json, files: list[UploadedFile], *, creating: bool
    ) -> list[RecordedAttachment]:
        existing = {attachment.id: attachment for attachment in ([] if creating else message.attachments)}
        uploads = {upload.index: upload for upload in files}
        listed = payload.get("attachments")
        if listed is None:
            return [*existing.values(), *(self.new_attachment(upload) for upload in files)]
        result: list[RecordedAttachment] = []
        for entry in listed:
            key = int(entry["id"])
            if key in existing:
                result.append(existing[key])
            elif key in uploads:
                upload = uploads.pop(key)
                result.append(self.new_attachment(upload, entry.get("description")))
        result += [self.new_attachment(upload) for upload in uploads.values()]
        return result

    # --- interactions ------------------------------------------------------------------------------------

    def token_expired(self, interaction: RecordedInteraction) -> bool:
        """Whether Discord would refuse this interaction's token now (15 minutes, or expired on purpose)."""
        return interaction.expired or self.clock() - interaction.created_at > TOKEN_LIFETIME_SECONDS

    def interaction_by_token(self, token: str) -> RecordedInteraction | None:
        """Find an interaction by its token."""
        return next((i for i in self.interactions.values() if i.token == token), None)

    # --- waiting -----------------------------------------------------------------------------------------

    @contextmanager
    def notifications_held(self) -> Iterator[None]:
        """Delay waking waiters until the block ends (the REST layer holds them until its answer is sent)."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if self._holds == 0 and self._notify_pending:
                self.notify()

    def notify(self) -> None:
        """Wake every ``wait_until`` so it re-checks its condition."""
        if self._holds:
            self._notify_pending = True
            return
        self._notify_pending = False
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_until(self, condition: Callable[[], T | None], *, timeout: float, what: str) -> T:
        """Return the first value of ``condition()`` that is not None or False, re-checked on every change here and
        every ``RECHECK`` seconds (a condition may read the bot's own state, which changes without telling us).

        Raises StandInTimeout after ``timeout`` seconds, with what the stand-in saw to help find the cause.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = condition()
            if result is not None and result is not False:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout(self.explain(self.timed_out(timeout, what)))
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            await asyncio.wait({waiter}, timeout=min(remaining, RECHECK))
            self._waiters.discard(waiter)

    def timed_out(self, timeout: float, what: str) -> str:
        """Record that a wait for ``what`` ran out after ``timeout`` seconds; return the headline saying so."""
        headline = f"Timed out after {timeout:g} s waiting for {what}."
        self.timeouts.append(headline)
        return headline

    def explain(self, headline: str) -> str:
        """Add to ``headline`` the recent requests and anything that went wrong, for error messages."""
        lines = [headline]
        sections = (
            ("discord.py logged errors", self.logged_errors[-5:]),
            ("requests the stand-in does not handle", self.unhandled[-5:]),
            ("requests the stand-in refused", self.rejected[-5:]),
            ("last requests from the bot", self.requests[-8:]),
        )
        for title, entries in sections:
            if entries:
                lines.append(f"{title}:")
                lines += [f"  {entry}" for entry in entries]
        return "\n".join(lines)


_MENTION = re.compile(r"<@!?(\d+)>")


def _pinged(payload: Json, text: str) -> list[int]:
    """The people a new message notifies: those it mentions, as far as its ``allowed_mentions`` lets (none given:
    everyone mentioned, as on Discord)."""
    mentioned = [int(found) for found in dict.fromkeys(_MENTION.findall(text))]
    allowed = payload.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(user_id) for user_id in allowed.get("users") or []}
    return [user_id for user_id in mentioned if user_id in listed]


def _reference_id(payload: Json) -> int | None:
    reference = payload.get("message_reference")
    if isinstance(reference, dict) and reference.get("message_id"):
        return int(reference["message_id"])
    return None
