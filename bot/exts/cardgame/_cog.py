"""The card game's answers to the shared /draw, /tickets, /hand, /board and /score, and its controller's registration.

Each move goes through the controller's `act`, so a typed move and a clicked one are refused or accepted alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.cardgame._controller import CardGameController
from bot.exts.cardgame._private import GAME
from bot.exts.shared_commands import SharedCommands
from bot.i18n import language_of, text
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private
from rules.cardgame.actions import DRAW_TICKETS, DrawCard
from rules.cardgame.cards import KIND_NAMES, kind_of

if TYPE_CHECKING:
    from bot.ui.parts import Bot

DECK = "deck"
"""The /draw choice for the deck's top card (the others are the card kinds' names)."""


def card_drawn(card: str) -> DrawCard | None:
    """The draw a /draw choice names (None for a card the game does not know)."""
    if card == DECK:
        return DrawCard()
    kind = kind_of(card)
    return DrawCard(kind=kind) if kind is not None else None


class CardGameCog(commands.Cog, SharedCommands):
    """Typed moves and looks at a card game in this channel (the commands themselves are shared, in bot.exts.play)."""

    game = GAME

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.controller = CardGameController(bot)

    async def cog_load(self) -> None:
        """Register the controller for `ticket-to-ride-cards:` components, bot players' moves and games that end."""
        self.controller.attach()

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        self.controller.detach()

    def card_choices(self, language: str) -> list[app_commands.Choice[str]]:
        """The deck, then the kinds of train cards (locomotive last)."""
        return [
            app_commands.Choice(name=text(language, "cardgame_bot.command.deck"), value=DECK),
            *(app_commands.Choice(name=text(language, f"cardgame.color.{c}"), value=c) for c in KIND_NAMES),
        ]

    async def draw(self, interaction: discord.Interaction[Any], record: GameRecord, card: str) -> None:
        """Take a card, as the turn message's buttons do (also the second card of a turn)."""
        await self.controller.act(interaction, record.id, card_drawn(card), version=None)

    async def tickets(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Draw tickets; the choice comes privately."""
        await self.controller.act(interaction, record.id, DRAW_TICKETS, version=None)

    async def hand(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the player's hand privately, with the plays they can make now."""
        await self.controller.show_hand(interaction, record.id)

    async def board(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the table privately."""
        await self.controller.show_table(interaction, record.id)

    async def score(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Where everyone stands: yard, stack, hand and tickets held, and the first scoring's points (4 players)."""
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


async def setup(bot: Bot) -> None:
    """Load the card game's cog (discord.py extension entry point)."""
    await bot.add_cog(CardGameCog(bot))
