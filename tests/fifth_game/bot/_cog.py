"""The coin race's cog and controller: every move is a click on the turn message's Flip button."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.drawing import build_once
from bot.services.games import Outcome
from bot.storage.games import GameRecord
from bot.ui.controller import GameController
from tests.fifth_game.bot._presenter import GAME, final_message, told, turn_message
from tests.fifth_game.rules import CoinView

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class CoinController(GameController):
    """A new message for each flip, the end in the last."""

    game = GAME

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Show the race, unless a catch-up already did."""
        async with self.showing(record) as needed:
            if needed:
                await self._show(record, interaction, [])
            else:
                await self.acknowledge_turn(interaction)
        self.bot.bot_players.wake_bots(record.id)

    async def catch_up(self, record: GameRecord) -> None:
        """Show the race as it stands."""
        async with self.showing(record) as needed:
            if needed:
                await self._show(record, None, [])

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Show the race after a flip, with what it did."""
        async with self.publishing(outcome):
            if interaction is not None:
                await self.acknowledge_turn(interaction)
            async with self.presenting_in_turn(outcome):
                if self.bot.shown.shown(outcome.record.id) < outcome.record.version:
                    language = await self.public_language(outcome.record)
                    await self._show(outcome.record, interaction, told(language, outcome.record, outcome.events))

    async def _show(self, record: GameRecord, interaction: discord.Interaction[Any] | None, lines: list[str]) -> None:
        language = await self.public_language(record)
        engine = self.service.engine(GAME)
        if record.status == "finished" and record.state:
            view: CoinView = engine.view(engine.load_state(record.state), None)  # type: ignore[assignment]
        else:
            view = self.service.view(record.id, None)  # type: ignore[assignment]
        if view.turn is None:
            message = await build_once(final_message, language, record, view, lines)
            await self.show_turn(record, message, interaction, kind="final")
            self.forget(record.id)
        else:
            await self.show_turn(record, await build_once(turn_message, language, record, view, lines), interaction)


class CoinCog(commands.Cog):
    """No commands of its own: registers the controller for the coin race's buttons and bot players' moves."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.controller = CoinController(bot)

    async def cog_load(self) -> None:
        """Register the controller."""
        self.controller.attach()

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        self.controller.detach()


async def setup(bot: Bot) -> None:
    """Load the coin race's cog (discord.py extension entry point)."""
    await bot.add_cog(CoinCog(bot))
