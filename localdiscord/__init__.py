"""A local Discord stand-in (REST + gateway on 127.0.0.1) that the real discord.py connects to.

It is the floor of the end-to-end tests and of the offline sandbox; see README.md in this folder.
"""

from localdiscord.display import MAX_HEIGHT, PHONE_COLUMN, ShownPicture
from localdiscord.errors import (
    ImpossibleInteraction,
    LocalDiscordError,
    MissedDeadline,
    NotConnected,
    RejectedResponse,
    StandInTimeout,
)
from localdiscord.faults import FailedRequests, HeldRequests
from localdiscord.local_discord import LocalDiscord, default_users
from localdiscord.models import (
    Choice,
    LocalChannel,
    LocalGuild,
    LocalRole,
    LocalUser,
    MessageKind,
    MessageRevision,
    Overwrite,
    Picture,
    RecordedAttachment,
    RecordedInteraction,
    RecordedMessage,
    SyncedCommand,
)
from localdiscord.outcome import InteractionOutcome
from localdiscord.state import MessageAction

__all__ = [
    "MAX_HEIGHT",
    "PHONE_COLUMN",
    "Choice",
    "FailedRequests",
    "HeldRequests",
    "ImpossibleInteraction",
    "InteractionOutcome",
    "LocalChannel",
    "LocalDiscord",
    "LocalDiscordError",
    "LocalGuild",
    "LocalRole",
    "LocalUser",
    "MessageAction",
    "MessageKind",
    "MessageRevision",
    "MissedDeadline",
    "NotConnected",
    "Overwrite",
    "Picture",
    "RecordedAttachment",
    "RecordedInteraction",
    "RecordedMessage",
    "RejectedResponse",
    "ShownPicture",
    "StandInTimeout",
    "SyncedCommand",
    "default_users",
]
