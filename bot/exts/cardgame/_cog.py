"""The card game's slash commands (/draw, /tickets, /hand, /board, /score) and its controller's registration.

Ticket to Ride has commands of the same names, and Discord allows one command per name. So these commands
serve the game of the channel they are typed in: the card game here, and any other game through the command of
that name that was registered before this cog (Ticket to Ride's), which this cog takes over on load and gives
back on unload. Each move goes through the controller's `act`, so a typed move and a clicked one are refused
or accepted alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.cardgame._controller import CardGameController
from bot.exts.cardgame._presenter import GAME
from bot.i18n import language_of, render, text
from bot.services.games import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private
from rules.cardgame.cards import KIND_NAMES

if TYPE_CHECKING:
    from bot.app import Conductor

CARD_CHOICES = [
    app_commands.Choice(name=text("en", "cardgame_bot.command.deck"), value="deck"),
    *(app_commands.Choice(name=text("en", f"cardgame.color.{c}"), value=c) for c in KIND_NAMES),
]
"""The deck or a face-up colour (the same values as Ticket to Ride's colours)."""

AnyCommand = app_commands.Command[Any, Any, Any]


class CardGameCog(commands.Cog):
    """Typed moves and looks at the game in this channel: the card game's own, or handed to the other game."""

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot
        self.controller = CardGameController(bot)
        self._others: dict[str, AnyCommand] = {}
        """Commands of the same names registered before this cog, for games other than the card game."""

    async def cog_load(self) -> None:
        """Register the controller and the bot-move publisher; take over the commands of the same names."""
        self.bot.controllers[GAME] = self.controller
        self.bot.service.register_publisher(GAME, self.controller.publish_bot_move)
        for command in self.__cog_app_commands__:
            other = self.bot.tree.get_command(command.name)
            if isinstance(other, app_commands.Command):
                self._others[command.name] = other
                self.bot.tree.remove_command(command.name)

    async def cog_unload(self) -> None:
        """Undo cog_load (discord.py removes this cog's commands first, so the others' names are free again)."""
        self.bot.controllers.pop(GAME, None)
        self.bot.service.unregister_publisher(GAME)
        for other in self._others.values():
            self.bot.tree.add_command(other, override=True)
        self._others.clear()

    @app_commands.command(name="draw", description=text("en", "commands.draw.description"))
    @app_commands.describe(card=text("en", "commands.draw.card.description"))
    @app_commands.choices(card=CARD_CHOICES)
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction[Any], card: str) -> None:
        """Take a card, as the turn message's buttons do (also the second card of a turn)."""
        record = await self._game(interaction, "draw", card=card)
        if record is not None:
            await self.controller.act(interaction, record.id, f"draw:{card}", version=None)

    @app_commands.command(name="tickets", description=text("en", "commands.tickets.description"))
    @app_commands.guild_only()
    async def tickets(self, interaction: discord.Interaction[Any]) -> None:
        """Draw tickets; the choice comes privately."""
        record = await self._game(interaction, "tickets")
        if record is not None:
            await self.controller.act(interaction, record.id, "tickets", version=None)

    @app_commands.command(name="hand", description=text("en", "commands.hand.description"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Show the player's hand privately, with the plays they can make now."""
        record = await self._game(interaction, "hand")
        if record is not None:
            await self.controller.show_hand(interaction, record.id)

    @app_commands.command(name="board", description=text("en", "commands.board.description"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Show the table privately."""
        record = await self._game(interaction, "board")
        if record is not None and await self._running(interaction, record):
            await self.controller.show_table(interaction, record.id)

    @app_commands.command(name="score", description=text("en", "commands.score.description"))
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        """Where everyone stands: yard, stack, hand and tickets held, and the first scoring's points (4 players)."""
        record = await self._game(interaction, "score")
        if record is None or not await self._running(interaction, record):
            return
        language = language_of(interaction.locale)
        public = self.controller.public_view(record.id)
        names = self.controller.names(record)
        first = {s.seat: s.points for s in public.first_scoring or []}
        lines = [text(language, "cardgame_bot.score.title")]
        for player in public.players:
            line = text(
                language,
                "cardgame_bot.score.line",
                player=names[player.seat],
                yard=sum(g.cards for g in player.yard),
                stack=player.stack_size,
                hand=player.hand_size,
                tickets=player.ticket_count,
            )
            if player.seat in first:
                line += text(language, "cardgame_bot.score.first", points=first[player.seat])
            lines.append(line)
        lines.append(text(language, "cardgame_bot.score.note"))
        await reply_private(interaction, "\n".join(lines))

    async def _game(self, interaction: discord.Interaction[Any], command: str, **params: Any) -> GameRecord | None:
        """This channel's card game; a channel playing another game gets that game's own command instead, and a
        channel with none says so (pointing to the person's game elsewhere, if they play one)."""
        language = language_of(interaction.locale)
        try:
            record = await self.bot.service.game_in_channel(interaction.channel_id or 0, user_id=interaction.user.id)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return None
        if record.game == GAME:
            return record
        other = self._others.get(command)
        if other is not None:
            await _invoke(other, interaction, params)
        else:
            await reply_private(interaction, text(language, "bot.reason.no_game_here"))
        return None

    async def _running(self, interaction: discord.Interaction[Any], record: GameRecord) -> bool:
        """Whether the game has left its lobby; a lobby is answered privately."""
        if record.status == "active":
            return True
        await reply_private(interaction, text(language_of(interaction.locale), "bot.reason.not_started"))
        return False


async def _invoke(command: AnyCommand, interaction: discord.Interaction[Any], params: dict[str, Any]) -> None:
    """Run another cog's command of the same name for this interaction."""
    if command.binding is not None:
        await command.callback(command.binding, interaction, **params)
    else:
        await command.callback(interaction, **params)  # type: ignore[call-arg]
