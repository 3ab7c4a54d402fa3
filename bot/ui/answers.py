"""The one way the bot answers a person: acknowledged in time, never empty, within Discord's limits, and true.

Discord refuses an answer that comes more than 3 s after the click or command, and refuses an empty message or one
over 2000 characters. Everything here is built so none of that can happen: slow work is preceded by
`acknowledge`, an interaction kept waiting by a slow store is acknowledged by `attend` before the deadline, and
every private answer goes through `answer`, which fills and cuts the text. So an answer may always come after an
acknowledgement: `update` and `say_in_public` answer either way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
import discord

from bot.i18n import fit, language_of, text
from bot.storage.database import WAITING, Waiting
from bot.ui.components import GameComponent, view_of
from bot.ui.parts import Bot
from bot.ui.pictures import Picture, files_of

log = logging.getLogger(__name__)

STORE_PATIENCE = 1.5
"""Seconds an interaction may wait on the store before it is acknowledged: within Discord's 3, with room for the
acknowledgement's own round trip."""
_THINKING_IN_PUBLIC = "conductor.thinking_in_public"
"""`Interaction.extras` key: a command `attend` acknowledged with a public "thinking…" that may yet be private."""


class PrivateReply(Protocol):
    """An ephemeral answer as a game builds it: text, pictures and controls."""

    @property
    def content(self) -> str:
        """The text of the answer."""
        ...

    def files(self) -> list[discord.File]:
        """Fresh discord.File objects for the pictures."""
        ...

    def view(self) -> discord.ui.View | None:
        """The controls as a View, or None when there are none."""
        ...


@dataclass
class Reply:
    """A private answer: text, pictures, controls and an embed, each optional (not all at once)."""

    content: str = ""
    pictures: Sequence[Picture] = ()
    controls: discord.ui.View | None = None
    embed: discord.Embed | None = None

    def files(self) -> list[discord.File]:
        """Fresh discord.File objects for the pictures (a File can be sent only once)."""
        return files_of(self.pictures)

    def view(self) -> discord.ui.View | None:
        """The controls, if any."""
        return self.controls


@dataclass
class PrivateMessage:
    """A game's private answer: text, pictures and persistent controls (a hand, a menu), for one player's eyes."""

    content: str
    pictures: list[Picture] = field(default_factory=list)
    items: list[GameComponent] = field(default_factory=list)

    def files(self) -> list[discord.File]:
        """Fresh discord.File objects for the pictures."""
        return files_of(self.pictures)

    def view(self) -> discord.ui.View | None:
        """The controls as a View, or None when there are none."""
        return view_of(self.items) if self.items else None


async def acknowledge(interaction: discord.Interaction[Any], *, private_answer: bool = False) -> None:
    """Tell Discord the bot is on it before slow work (drawing, posting), so its 3-second deadline always holds.

    A command, or a public click that `private_answer`s, "thinks" privately until `answer` fills that in; a click
    on a private message defers its update (the answer replaces that message); any other click defers its update
    (the answer is the public messages). Idempotent.
    """
    if interaction.response.is_done():
        return
    click = interaction.type is discord.InteractionType.component
    try:
        if click and (not private_answer or is_private(interaction.message)):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        _acknowledged(interaction)
    except discord.NotFound:
        log.warning("interaction %s expired before it could be acknowledged", interaction.id)


def attend(interaction: discord.Interaction[Any]) -> None:
    """Have this task's waits on the store (or on a game's lock, held by whoever writes) acknowledge the interaction
    once they keep it waiting past `STORE_PATIENCE` (a file another program locked), so it is never left unanswered
    however long the store takes; a wait that ends sooner changes nothing."""
    if interaction.response.is_done():
        return
    by = asyncio.get_running_loop().time() + STORE_PATIENCE
    WAITING.set(Waiting(by, asyncio.current_task(), lambda: _acknowledge_waiting(interaction)))


async def _acknowledge_waiting(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge an interaction kept waiting by the store, keeping every answer open: a click defers its update;
    a command "thinks" in public (a private answer removes that first: `answer`)."""
    if interaction.response.is_done():
        return
    try:
        if interaction.type is discord.InteractionType.application_command:
            await interaction.response.defer(thinking=True)
            _acknowledged(interaction)
            interaction.extras[_THINKING_IN_PUBLIC] = True
        else:
            await acknowledge(interaction)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:  # the store's answer still counts
        log.warning("could not acknowledge interaction %s while the store was slow: %r", interaction.id, error)


async def think(interaction: discord.Interaction[Any], *, private: bool) -> None:
    """Tell Discord a command's answer is coming, for everyone or for the person alone (a "thinking…" that
    `interaction.followup.send` fills in); one acknowledged in public while the store kept it waiting has that
    withdrawn when the answer is private, so the answer is not shown to all."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=private)
        _acknowledged(interaction)
    elif private and interaction.extras.pop(_THINKING_IN_PUBLIC, False):
        await _withdraw_public_thinking(interaction)


async def update(interaction: discord.Interaction[Any], **changes: Any) -> None:
    """Change the message clicked, as the answer to the click (after an acknowledgement too)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)
        _acknowledged(interaction)


async def say_in_public(interaction: discord.Interaction[Any], **message: Any) -> int | None:
    """Answer a command with a message everyone sees (after an acknowledgement too); return its id if known."""
    if interaction.response.is_done():
        interaction.extras.pop(_THINKING_IN_PUBLIC, None)
        return (await interaction.followup.send(wait=True, **message)).id
    response = await interaction.response.send_message(**message)
    _acknowledged(interaction)
    return getattr(response.resource, "id", None)


async def answer(interaction: discord.Interaction[Any], reply: PrivateReply, *, replace: bool = False) -> None:
    """Answer the person privately; `replace` edits the private message they clicked instead of adding one.

    An answer with nothing in it is a bug: it is logged and a plain "done" is sent, so Discord never refuses it.
    """
    content = fit(reply.content)
    files = reply.files()
    view = reply.view()
    embed = getattr(reply, "embed", None)
    if not (content.strip() or files or view is not None or embed is not None):
        log.error("an empty answer was about to be sent to interaction %s", interaction.id)
        content = text(language_of(interaction.locale), "bot.answer.done")
    try:
        if replace and is_private(interaction.message):
            await _replace(interaction, content, files, view, embed)
        else:
            await _send(interaction, content, files, view, embed)
    except discord.NotFound:
        log.warning("interaction %s expired before its answer was sent", interaction.id)


async def reply_private(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Answer only the person who clicked or typed, with text (and optionally controls or an embed)."""
    await answer(interaction, Reply(content, controls=view, embed=embed))


async def _send(
    interaction: discord.Interaction[Any],
    content: str,
    files: list[discord.File],
    view: discord.ui.View | None,
    embed: discord.Embed | None,
) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True, "files": files}
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if interaction.response.is_done():
        if interaction.extras.pop(_THINKING_IN_PUBLIC, False):
            await _withdraw_public_thinking(interaction)
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content or None, **kwargs)
        _acknowledged(interaction)


async def _withdraw_public_thinking(interaction: discord.Interaction[Any]) -> None:
    """Remove a public "thinking…" not filled in yet, so the private answer that follows is not shown to all."""
    original = await interaction.original_response()
    if original.flags.loading:
        await interaction.delete_original_response()


async def _replace(
    interaction: discord.Interaction[Any],
    content: str,
    files: list[discord.File],
    view: discord.ui.View | None,
    embed: discord.Embed | None,
) -> None:
    kwargs: dict[str, Any] = {"content": content or None, "attachments": files, "embed": embed, "view": view}
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
        _acknowledged(interaction)


def _acknowledged(interaction: discord.Interaction[Any]) -> None:
    """Count how long after its creation (its id's time) an interaction got the bot's first answer."""
    bot: Bot = interaction.client
    bot.metrics.acknowledged((discord.utils.utcnow() - interaction.created_at).total_seconds())


def is_private(message: discord.Message | None) -> bool:
    """Whether an interaction came from an ephemeral message."""
    return message is not None and message.flags.ephemeral
