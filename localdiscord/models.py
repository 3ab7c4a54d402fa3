"""What the stand-in knows and records: people, channels, synced commands, messages and interactions."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from localdiscord.display import PHONE_COLUMN, ShownPicture, shown_gallery
from localdiscord.ids import next_snowflake

Json = dict[str, Any]

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

ACTION_ROW = 1
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
ATTACHMENT_SCHEME = "attachment://"


@dataclass
class LocalRole:
    """A guild role that people can be given; its permissions add to @everyone's."""

    name: str
    permissions: int = 0
    id: int = field(default_factory=next_snowflake)


@dataclass
class LocalUser:
    """A person (or the bot): in every guild it is a member of, ``permissions`` add to those of @everyone and roles.

    ``roles`` are role names; every guild the person joins must have them.
    """

    name: str
    locale: str = "en-US"
    permissions: int = 0
    roles: tuple[str, ...] = ()
    id: int = field(default_factory=next_snowflake)
    bot: bool = False
    dms_closed: bool = False
    """The person allows no direct messages from the bot: sending one is refused with 403 / 50007."""


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (``type`` 0; the guild's id is @everyone) or a member (1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0


@dataclass(eq=False)
class LocalGuild:
    """A server: its roles (``bot_role`` is the bot's managed one), members by id and preferred locale.

    Channels name their guild by ``LocalChannel.guild_id``; ``bot_present`` turns False when a test removes the bot.
    """

    name: str
    bot_role: LocalRole
    locale: str = "en-US"
    roles: list[LocalRole] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    id: int = field(default_factory=next_snowflake)
    owner_id: int = field(default_factory=next_snowflake)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    bot_present: bool = True

    def shard_id(self, shard_count: int) -> int:
        """The shard whose gateway session receives this guild's events: ``(id >> 22) % shard_count``."""
        return (self.id >> 22) % shard_count


@dataclass
class LocalChannel:
    """A text channel or a thread of guild ``guild_id``; ``edits`` keeps every PATCH the bot sent (e.g. archiving).

    ``overwrites`` are Discord's permission overwrites by target id; a thread's add to its parent's (on Discord
    threads have none of their own: the stand-in allows them so a test can take one thread away from the bot).
    """

    name: str
    id: int = field(default_factory=next_snowflake)
    type: int = 0
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    topic: str | None = None
    starter_message_id: int | None = None
    member_ids: set[int] = field(default_factory=set)
    edits: list[Json] = field(default_factory=list)
    created_at: datetime | None = None
    deleted: bool = False
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    guild_id: int = 0
    recipient_id: int | None = None
    """The person of a DM channel (``type`` 1, no guild), None for guild channels and threads."""

    @property
    def is_thread(self) -> bool:
        """Whether this is a public (11) or private (12) thread."""
        return self.type in (11, 12)


@dataclass
class SyncedCommand:
    """An application command as the bot registered it (``payload`` is what it sent, plus ids)."""

    id: int
    guild_id: int | None
    payload: Json

    @property
    def name(self) -> str:
        """The command's name, e.g. ``"newgame"``."""
        return str(self.payload["name"])

    @property
    def type(self) -> int:
        """1 for a slash command, 2 for a user menu, 3 for a message menu."""
        return int(self.payload.get("type", 1))

    @property
    def options(self) -> list[Json]:
        """The options (and subcommands) exactly as registered."""
        return list(self.payload.get("options") or [])

    @property
    def default_member_permissions(self) -> int | None:
        """The permission bits a member needs to see the command, or None for everyone."""
        value = self.payload.get("default_member_permissions")
        return None if value is None else int(value)

    def option(self, *path: str) -> Json:
        """Return the option at ``path`` (subcommand names then option name); KeyError when absent."""
        options = self.options
        found: Json | None = None
        for name in path:
            found = next((o for o in options if o["name"] == name), None)
            if found is None:
                raise KeyError(f"/{self.name} has no option {'/'.join(path)}")
            options = list(found.get("options") or [])
        if found is None:
            raise KeyError("an option path needs at least one name")
        return found


@dataclass(frozen=True)
class RecordedAttachment:
    """A file the bot uploaded, with its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        return len(self.data)


class Picture(NamedTuple):
    """An image a message shows, with its alt text (what a screen reader says instead), as tests compare it."""

    filename: str
    description: str | None
    size: int


@dataclass(frozen=True)
class MessageRevision:
    """One version of a message, as shown to users between two edits."""

    content: str
    embeds: list[Json]
    components: list[Json]
    attachments: list[RecordedAttachment]
    flags: int

    @property
    def text(self) -> str:
        """Everything this version says, whatever its form (see ``readable_text``)."""
        return readable_text(self.content, self.embeds, self.components)


class MessageKind(enum.StrEnum):
    """How the bot created a message."""

    CHANNEL = "channel"
    RESPONSE = "response"
    FOLLOWUP = "followup"


@dataclass(eq=False)
class RecordedMessage:
    """A message the bot created: its current state, its edit history and where it came from.

    ``history`` holds the earlier versions, oldest first; ``interaction_id`` says which interaction it
    answered (a ``RESPONSE``) or followed up (a ``FOLLOWUP``); ``recipient_id`` is who sees it when it is
    ephemeral.
    """

    id: int
    channel_id: int
    author_id: int
    author_name: str
    kind: MessageKind
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[RecordedAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_id: int | None = None
    recipient_id: int | None = None
    reference_id: int | None = None
    thread_id: int | None = None
    history: list[MessageRevision] = field(default_factory=list)
    deleted: bool = False
    created_at: datetime | None = None
    edited_at: datetime | None = None
    pinged: list[int] = field(default_factory=list)
    """The people its creation notified: those it mentions that ``allowed_mentions`` lets ping (edits ping nobody)."""

    @property
    def ephemeral(self) -> bool:
        """Whether only ``recipient_id`` sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "Bot is thinking..." placeholder not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        """Whether the message was changed after it was created."""
        return bool(self.history)

    @property
    def v2(self) -> bool:
        """Whether the message is a Components V2 layout (flag IS_COMPONENTS_V2: no content, no embeds)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """Everything the message says, whatever its form (see ``readable_text``)."""
        return readable_text(self.content, self.embeds, self.components)

    @property
    def pictures(self) -> list[Picture]:
        """The attached images in order, each with its alt text.

        The alt text is that of the gallery item or thumbnail showing the image when there is one (what
        the reader gets in a layout), else the attachment's ``description``.
        """
        shown = {
            url.removeprefix(ATTACHMENT_SCHEME): description
            for url, description in media_references(self.components)
            if url.startswith(ATTACHMENT_SCHEME) and description
        }
        return [
            Picture(file.filename, shown.get(file.filename) or file.description, file.size)
            for file in self.attachments
            if (file.content_type or "").startswith("image/")
        ]

    def shown(self, column: int = PHONE_COLUMN) -> list[list[ShownPicture]]:
        """How the chat shows the message's pictures in a column `column` pixels wide: one list per media gallery of a
        layout, in reading order (a classic message's images are one gallery). See ``localdiscord.display``."""
        files = {file.filename: file.data for file in self.attachments}
        if not self.v2:
            images = [(f.filename, f.data) for f in self.attachments if (f.content_type or "").startswith("image/")]
            return [shown_gallery(images, column)] if images else []
        galleries = []
        for component in walk_components(self.components):
            if component.get("type") == MEDIA_GALLERY:
                urls = [str((item.get("media") or {}).get("url") or "") for item in component.get("items") or []]
                names = [url.removeprefix(ATTACHMENT_SCHEME) for url in urls]
                galleries.append(shown_gallery([(name, files.get(name, b"")) for name in names], column))
        return galleries

    def revision(self) -> MessageRevision:
        """Return the current version as an immutable snapshot."""
        return MessageRevision(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
        )

    def walk_components(self) -> Iterator[Json]:
        """Yield every component, nested ones included (rows, sections, containers)."""
        yield from walk_components(self.components)

    def component(self, custom_id: str) -> Json | None:
        """Return the component with this custom id, or None."""
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[Json]:
        """Return the buttons in reading order."""
        return [c for c in self.walk_components() if c.get("type") == BUTTON]

    def custom_id(self, label: str) -> str:
        """Return the custom id of the button or select whose label or placeholder is ``label``."""
        for component in self.walk_components():
            if label in (component.get("label"), component.get("placeholder")) and "custom_id" in component:
                return str(component["custom_id"])
        known = [c.get("label") or c.get("placeholder") for c in self.walk_components() if "custom_id" in c]
        raise KeyError(f"message {self.id} has no component labelled {label!r}; it has {known}")


def readable_text(content: str, embeds: list[Json], components: list[Json]) -> str:
    """Everything a message says, one piece a line, so a test reads the same words from embeds or a layout.

    The content; each embed's author, title, description, fields (``name: value``) and footer; every
    TextDisplay, nested ones included. Button labels and select options are left out (``walk_components``
    finds those).
    """
    parts: list[Any] = [content]
    for embed in embeds:
        parts += [(embed.get("author") or {}).get("name"), embed.get("title"), embed.get("description")]
        for embed_field in embed.get("fields") or []:
            parts.append(f"{embed_field.get('name', '')}: {embed_field.get('value', '')}")
        parts.append((embed.get("footer") or {}).get("text"))
    parts += [c.get("content") for c in walk_components(components) if c.get("type") == TEXT_DISPLAY]
    return "\n".join(str(part) for part in parts if part)


def media_references(components: list[Json]) -> Iterator[tuple[str, str | None]]:
    """Yield the URL and alt text of every medium a layout shows: gallery items, thumbnails and files."""
    for component in walk_components(components):
        kind = component.get("type")
        if kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                yield str((item.get("media") or {}).get("url") or ""), item.get("description")
        elif kind == THUMBNAIL:
            yield str((component.get("media") or {}).get("url") or ""), component.get("description")
        elif kind == FILE:
            yield str((component.get("file") or {}).get("url") or ""), None


def walk_components(components: list[Json]) -> Iterator[Json]:
    """Yield components depth first, looking inside rows, sections, containers and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]
        if isinstance(component.get("component"), dict):
            yield component["component"]


class InteractionType(enum.IntEnum):
    """Discord's interaction types the stand-in sends."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


@dataclass(eq=False)
class RecordedInteraction:
    """An interaction the stand-in dispatched, and how the bot answered it.

    ``dispatched_at`` is ``time.monotonic()`` when INTERACTION_CREATE was sent; ``ack_seconds`` how long the
    bot then took to call back (its accepted acknowledgement, or the one refused as too late), None until then.
    """

    id: int
    token: str
    type: InteractionType
    user: LocalUser
    channel_id: int
    payload: Json
    created_at: float
    description: str
    source_message_id: int | None = None
    response_type: int | None = None
    response_data: Json | None = None
    original_message_id: int | None = None
    revisions_at_response: int = 0
    followup_ids: list[int] = field(default_factory=list)
    rejections: list[str] = field(default_factory=list)
    expired: bool = False
    dispatched_at: float = 0.0
    ack_seconds: float | None = None

    @property
    def answered(self) -> bool:
        """Whether the bot has acknowledged the interaction (any callback type)."""
        return self.response_type is not None


@dataclass(frozen=True)
class Choice:
    """An autocomplete choice the bot offered."""

    name: str
    value: str | int | float
