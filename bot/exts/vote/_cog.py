"""/undo and /vote pause|resume|end: ask the people of the channel's game, in a public message with buttons."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.vote._controller import VoteController
from bot.exts.vote._presenter import GAME, vote_text, vote_view
from bot.i18n import language_of, render, text
from bot.services.consent import ConsentService, Vote
from bot.services.errors import ServiceError
from bot.storage.games import GameRecord
from bot.storage.votes import VoteKind
from bot.ui.answers import reply_private, say_in_public

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class VoteCog(commands.Cog):
    """Opens undo requests and votes; their buttons go to the vote controller."""

    vote = app_commands.Group(name="vote", description=text("en", "commands.vote.description"), guild_only=True)

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.consent = ConsentService(
            bot.votes,
            bot.service,
            bot.moves,
            clock=lambda: bot.clock(),
            resync=self._resync,
            cooldown=bot.settings.vote_cooldown_minutes * 60,
        )
        self.controller = VoteController(bot, self.consent)
        self.consent.present = self.controller.show_lapsed

    async def cog_load(self) -> None:
        """Pause the games paused by vote (before bot players are woken), and take the votes' buttons."""
        await self.consent.load()
        self.bot.controllers[GAME] = self.controller
        self.bot.service.add_listener(self.consent)

    async def cog_unload(self) -> None:
        """Undo cog_load; open votes lapse at the next start."""
        self.bot.controllers.pop(GAME, None)
        self.bot.service.remove_listener(self.consent)
        await self.consent.close()

    @app_commands.command(name="undo", description=text("en", "commands.undo.description"))
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Ask the others to let you take back your last move (while it revealed nothing and nobody moved since)."""
        await self._ask(interaction, lambda record: self.consent.ask_undo(record.id, interaction.user.id))

    @vote.command(name="pause", description=text("en", "commands.vote_pause.description"))
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        """Propose to pause this channel's game: no moves and no turn timers until a vote resumes it."""
        await self._ask(interaction, self._asking(interaction, "pause"))

    @vote.command(name="resume", description=text("en", "commands.vote_resume.description"))
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        """Propose to resume this channel's paused game."""
        await self._ask(interaction, self._asking(interaction, "resume"))

    @vote.command(name="end", description=text("en", "commands.vote_end.description"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Propose to end this channel's game now (recorded as abandoned and unrated: a majority chose it)."""
        await self._ask(interaction, self._asking(interaction, "end"))

    def _asking(self, interaction: discord.Interaction[Any], kind: VoteKind) -> Callable[[GameRecord], Awaitable[Vote]]:
        return lambda record: self.consent.ask(record.id, interaction.user.id, kind)

    async def _ask(self, interaction: discord.Interaction[Any], ask: Callable[[GameRecord], Awaitable[Vote]]) -> None:
        """Open the vote for the channel's game and post it as the public answer; refused privately with the reason.
        A vote its asker's yes decides (the others are bot players) is posted decided."""
        language = language_of(interaction.locale)
        try:
            record = await self.bot.service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
            vote = await ask(record)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        public = await self.bot.public_language(record.guild_id)
        view = vote_view(public, vote)
        await say_in_public(
            interaction,
            content=vote_text(public, vote),
            view=view if view is not None else discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        if vote.outcome is None:
            sent = await interaction.original_response()
            await self.consent.shown_at(vote, sent.channel.id, sent.id)
        await self.controller.decided(vote)

    async def _resync(self, game_id: int) -> None:
        """Match the game's turn timers to who is to act now (none while paused)."""
        timers = getattr(self.bot, "timers", None)
        if timers is not None:
            await timers.sync(game_id)
