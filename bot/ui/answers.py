"""The one way the bot answers a person: acknowledged in time, never empty, within Discord's limits, and true.

Discord refuses an answer that comes more than 3 s after the click or command, and refuses an empty message or one
over 2000 characters. Everything here is built so none of that can happen: slow work is preceded by
`acknowledge`, and every private answer goes through `answer`, which fills and cuts the text.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.i18n import fit, language_of, text
from bot.ui.components import GameComponent, view_of
from bot.ui.pictures import Picture, files_of

log = logging.getLogger(__name__)


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
    except discord.NotFound:
        log.warning("interaction %s expired before it could be acknowledged", interaction.id)


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
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content or None, **kwargs)


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


def is_private(message: discord.Message | None) -> bool:
    """Whether an interaction came from an ephemeral message."""
    return message is not None and message.flags.ephemeral
