"""/draw, /hand, /board, /score and /tickets: one command each, answered by the game of the channel; and /hint, the
coach, which every game answers the same way."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.shared_commands import SharedCommands, lacking
from bot.i18n import FALLBACK, LANGUAGES, fit, language_of, render, text
from bot.services.errors import ServiceError, ServiceReason
from bot.services.guild_config import ECHO_LIMIT
from bot.storage.games import GameRecord
from bot.ui.answers import acknowledge, reply_private
from bot.ui.controller import board_link_view
from bot.ui.hints import hint_text

if TYPE_CHECKING:
    from bot.ui.parts import Bot

MAX_CHOICES = 25
"""Discord's limit on an autocomplete's suggestions."""


class PlayCog(commands.Cog):
    """The commands several games share: each finds the channel's game and hands over to that game's cog."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="draw", description=text("en", "commands.draw.description"))
    @app_commands.describe(card=text("en", "commands.draw.card.description"))
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction[Any], card: str) -> None:
        """Take a card, as the turn message's buttons do (also the second card of a turn)."""
        found = await self._game(interaction, "draw")
        if found is None:
            return
        record, game = found
        if not game.card_choices(FALLBACK):  # no /draw in this game: its answer says so
            await game.draw(interaction, record, card)
            return
        value = _card_value(game, card)
        if value is None:
            words = text(language_of(interaction.locale), "play.reason.not_a_card", typed=fit(card, ECHO_LIMIT))
            await reply_private(interaction, words)
            return
        await game.draw(interaction, record, value)

    @draw.autocomplete("card")
    async def draw_choices(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """The cards the channel's game lets one draw, matching what is typed (none without such a game)."""
        try:
            record = await self.bot.service.game_in_channel(interaction.channel_id or 0)
        except ServiceError:
            return []
        game = self._answers(record.game)
        if game is None:
            return []
        wanted = _folded(current)
        choices = game.card_choices(language_of(interaction.locale))
        return [c for c in choices if wanted in _folded(c.name) or wanted in _folded(c.value)][:MAX_CHOICES]

    @app_commands.command(name="tickets", description=text("en", "commands.tickets.description"))
    @app_commands.guild_only()
    async def tickets(self, interaction: discord.Interaction[Any]) -> None:
        """Draw tickets; the choice comes privately."""
        found = await self._game(interaction, "tickets")
        if found is not None:
            await found[1].tickets(interaction, found[0])

    @app_commands.command(name="hand", description=text("en", "commands.hand.description"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Show the person's hand privately, with what they can do now."""
        found = await self._game(interaction, "hand")
        if found is not None:
            await found[1].hand(interaction, found[0])

    @app_commands.command(name="board", description=text("en", "commands.board.description"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Show the board (or the table) privately, with the link to its live page when the board pages are on; a
        game that draws no board for /board answers with that link alone."""
        found = await self._game(interaction, "board", running=True, linked=True)
        if found is not None:
            await found[1].board(interaction, found[0])

    @app_commands.command(name="score", description=text("en", "commands.score.description"))
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        """Show privately where everyone stands."""
        found = await self._game(interaction, "score", running=True)
        if found is not None:
            await found[1].score(interaction, found[0])

    @app_commands.command(name="hint", description=text("en", "commands.hint.description"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the person to move, privately and in their language, what the hard player would do and why.

        Refused privately, before any thinking, to non-players, out of turn, outside a running game and where the
        server turned hints off; otherwise deferred first, as the thought takes up to the per-move budget.
        """
        language = language_of(interaction.locale)
        service = self.bot.service
        try:
            record = await service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
            if record.status != "active":
                raise ServiceError(ServiceReason.NOT_STARTED)
            seat = record.seat_of(interaction.user.id)
            if seat is None:
                raise ServiceError(ServiceReason.NOT_A_PLAYER)
            if seat not in service.engine(record.game).to_act(service.state(record.id)):
                raise ServiceError(ServiceReason.NOT_YOUR_MOVE)
            if not (await self.bot.config.get(interaction.guild_id)).hints:
                raise ServiceError(ServiceReason.HINTS_OFF)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        await acknowledge(interaction, private_answer=True)
        try:
            advice = await self.bot.bot_players.hint(record.id, interaction.user.id)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        await reply_private(interaction, hint_text(language, advice))

    async def _game(
        self, interaction: discord.Interaction[Any], command: str, *, running: bool = False, linked: bool = False
    ) -> tuple[GameRecord, SharedCommands] | None:
        """This channel's game and its answers; or a private answer why not: no game here (pointing to the
        person's game elsewhere, if any), a game without these commands (`linked`: the link to its live board page
        instead, when the board pages are on), or, if `running`, still a lobby."""
        language = language_of(interaction.locale)
        try:
            record = await self.bot.service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return None
        game = self._answers(record.game)
        link = board_link_view(self.bot, record.id, language) if linked and record.status == "active" else None
        if game is None and link is not None:
            await reply_private(interaction, text(language, "web.board.only"), view=link)
            return None
        if game is None:
            await lacking(interaction, record, command)
            return None
        if running and record.status != "active":
            await reply_private(interaction, text(language, "bot.reason.not_started"))
            return None
        return record, game

    def _answers(self, game: str) -> SharedCommands | None:
        """The loaded cog that answers the shared commands for this game, if any."""
        return next((c for c in self.bot.cogs.values() if isinstance(c, SharedCommands) and c.game == game), None)


def _card_value(game: SharedCommands, typed: str) -> str | None:
    """The card a person means: a suggestion's value, or its name typed out in any language."""
    wanted = _folded(typed)
    for language in LANGUAGES:
        for choice in game.card_choices(language):
            if wanted in (_folded(choice.value), _folded(choice.name)):
                return choice.value
    return None


def _folded(words: str) -> str:
    """Text folded for matching: lower case, accents off (ё as е), spaces trimmed."""
    plain = unicodedata.normalize("NFKD", words.casefold())
    return "".join(c for c in plain if not unicodedata.combining(c)).strip()
