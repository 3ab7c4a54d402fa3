"""What every game's controller shares: applying a clicked or typed move, refusing privately, replying."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, render, text
from bot.services.games import GameService, Outcome, ServiceError
from bot.storage.games import GameRecord
from bot.ui.custom_ids import ComponentId
from rules.engine import IllegalAction, Message

if TYPE_CHECKING:
    from bot.app import Conductor

log = logging.getLogger(__name__)


@dataclass
class TurnMessage:
    """A public game message to post or edit: text, embed, pictures, controls, and whether to ping."""

    content: str
    embed: discord.Embed
    pictures: dict[str, bytes] = field(default_factory=dict)
    view: discord.ui.View | None = None
    ping: bool = False

    def files(self) -> list[discord.File]:
        """Fresh discord.File objects for the pictures (a File can be sent only once)."""
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.pictures.items()]

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for send/edit; mentions ping only when asked (a new turn), never on edits."""
        kwargs: dict[str, Any] = {
            "content": self.content,
            "embed": self.embed,
            "allowed_mentions": discord.AllowedMentions(users=self.ping, roles=False, everyone=False),
        }
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


class GameController:
    """One game's presentation: subclasses draw its messages; this base applies moves and refuses."""

    game: str

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        """The game service of the running bot."""
        return self.bot.service

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle a click: `act` applies the action in the id (or the chosen select value); others go to on_verb."""
        if cid.verb == "act":
            action = cid.arg or (values[0] if values else "")
            await self.act(interaction, cid.game_id, action, version=cid.version)
        else:
            await self.on_verb(interaction, cid, values)

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle a game-specific verb; the base knows none."""
        await self.refuse(interaction, Message(key="bot.reason.unknown_component"))

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, action: str, *, version: int | None
    ) -> Outcome | None:
        """Apply a person's move and publish it, or tell them privately why not; never raises for bad input."""
        try:
            outcome = await self.service.act(game_id, interaction.user.id, action, version)
        except ServiceError as error:
            stale = error.message.key == "bot.reason.stale"
            await self.refuse(interaction, error.message, game_id=game_id if stale else None)
            return None
        except IllegalAction as error:
            await self.refuse(interaction, error.message)
            return None
        await self.publish(outcome, interaction)
        await self.service.after_move(outcome)
        return outcome

    async def refuse(
        self, interaction: discord.Interaction[Any], message: Message, *, game_id: int | None = None
    ) -> None:
        """Answer privately with the reason; with a game id, attach that player's current controls."""
        language = language_of(interaction.locale)
        content = render(language, message)
        view = None
        if game_id is not None:
            view = await self.fresh_controls(interaction, game_id, language)
        await reply_private(interaction, content, view=view)

    async def fresh_controls(
        self, interaction: discord.Interaction[Any], game_id: int, language: str
    ) -> discord.ui.View | None:
        """Return up-to-date controls for whoever clicked something stale (None: nothing to offer)."""
        return None

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Present a game that just left its lobby."""
        raise NotImplementedError

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Present an accepted move (interaction is None for bot players' moves)."""
        raise NotImplementedError

    async def show_turn(
        self,
        record: GameRecord,
        message: TurnMessage,
        interaction: discord.Interaction[Any] | None,
        *,
        in_place: bool = False,
    ) -> None:
        """Show a game's new public message: edit the clicked turn message in place, or retire the old turn
        message's buttons and post a new one (answering the interaction first, so its response is fast)."""
        store = self.service.store
        current = await store.get_message(record.id, "turn")
        clicked = interaction.message.id if interaction is not None and interaction.message is not None else None
        if in_place and interaction is not None and clicked is not None and current and clicked == current[1]:
            await interaction.response.edit_message(attachments=message.files(), **message.send_kwargs())
            return
        if interaction is not None and clicked is not None and current and clicked == current[1]:
            await interaction.response.edit_message(view=None)
        elif current is not None:
            await self._retire(current)
        if interaction is not None and not interaction.response.is_done():
            response = await interaction.response.send_message(files=message.files(), **message.send_kwargs())
            posted = getattr(response.resource, "id", None)
        else:
            channel = self.bot.get_partial_messageable(record.channel_id)
            posted = (await channel.send(files=message.files(), **message.send_kwargs())).id
        if posted is not None:
            await store.set_message(record.id, "turn", record.channel_id, posted)

    async def _retire(self, where: tuple[int, int]) -> None:
        """Remove the buttons of an older turn message; a message deleted meanwhile is not an error."""
        channel_id, message_id = where
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
        except discord.NotFound:
            log.info("turn message %s was deleted; nothing to retire", message_id)

    async def public_language(self, record: GameRecord) -> str:
        """Return the language of a game's public messages: the server's choice, else the bot's default."""
        return await self.bot.public_language(record.guild_id)

    @staticmethod
    def names(record: GameRecord) -> Mapping[int, str]:
        """Return seat -> display name for narrating a game (bot players marked)."""
        return {s.seat: s.display_name for s in record.seats}

    @staticmethod
    def picture_names(record: GameRecord) -> list[str]:
        """Return the plain names by seat, for pictures (their font has no emoji)."""
        return [s.name for s in sorted(record.seats, key=lambda s: s.seat)]

    @staticmethod
    def mention(record: GameRecord, seat: int) -> str:
        """Return a mention that pings the person in a seat (a bot player's name otherwise)."""
        found = next(s for s in record.seats if s.seat == seat)
        return f"<@{found.user_id}>" if found.user_id is not None else found.display_name


async def reply_private(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    view: discord.ui.View | None = None,
    files: list[discord.File] | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Answer only the person who clicked or typed (ephemeral), as a response or a follow-up."""
    kwargs: dict[str, Any] = {"content": content, "ephemeral": True, "files": files or []}
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def say(language: str, key: str, **params: Any) -> str:
    """Shorthand for a bot text in a language."""
    return text(language, key, **params)
