"""The buttons of a vote: `vote:<game id>:<version>:yes|no:<vote id>`, answered by redrawing the vote in place."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.vote._presenter import GAME, vote_text, vote_view
from bot.services.consent import ConsentService, Vote
from bot.services.errors import ServiceError
from bot.ui.answers import update
from bot.ui.controller import GameController
from bot.ui.custom_ids import ComponentId
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

VERBS = {"yes": True, "no": False}


class VoteController(GameController):
    """Counts a click on a vote's buttons and shows what it decided (a carried undo: the turn again)."""

    game = GAME

    def __init__(self, bot: Bot, consent: ConsentService) -> None:
        super().__init__(bot)
        self.consent = consent

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Count the voter's yes or no, then redraw the vote (and, once it decides, carry it out)."""
        if cid.verb not in VERBS or not cid.arg.isdigit():
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))
            return
        try:
            vote = await self.consent.cast(int(cid.arg), interaction.user.id, VERBS[cid.verb])
        except ServiceError as error:
            await self.refuse(interaction, error.message)
            return
        language = await self.bot.public_language(vote.game.guild_id)
        await update(interaction, content=vote_text(language, vote), view=vote_view(language, vote))
        await self.decided(vote)

    async def decided(self, vote: Vote) -> None:
        """After a vote closes by its ballots: an ended game is closed for everyone who listens (a carried undo is
        shown by bringing the channel up to date, which follows every click and command)."""
        if vote.record.kind == "end" and vote.outcome == "carried":
            await self.service.after_close(vote.game)

    async def show_lapsed(self, vote: Vote) -> None:
        """Redraw a vote that lapsed without a click: its outcome, and no buttons."""
        if vote.where is None:
            return
        channel_id, message_id = vote.where
        language = await self.bot.public_language(vote.game.guild_id)
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=vote_text(language, vote), view=None)
        except discord.HTTPException as error:
            log.info("vote %s lapsed; its message could not be redrawn: %s", vote.record.id, error)
