"""The game services built over one store as the bot builds them (bot/app.py), for tests that drive them directly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.services.bot_players import BotPlayers
from bot.services.games import AnyEngine, GameService
from bot.services.moves import Moves
from bot.services.shown import ShownGames
from bot.services.thinking import Thinker
from bot.storage.games import GameStore


@dataclass
class GameParts:
    """The loaded games, what their channels show, the move core and the bot players, over one store."""

    games: GameService
    shown: ShownGames
    moves: Moves
    bots: BotPlayers

    async def close(self, timeout: float = 5.0) -> None:
        """Stop them in the bot's order: the bot players' last moves, what the channels show, then the clean stop."""
        await self.bots.close(timeout)
        await self.shown.close()
        await self.games.close()


def game_parts(
    store: GameStore, engines: Mapping[str, AnyEngine], *, bot_move_delay: float = 1.5, thinker: Thinker | None = None
) -> GameParts:
    """Build the game services over a store, wired as the bot wires them."""
    games = GameService(store, engines)
    shown = ShownGames(games)
    moves = Moves(games, shown)
    return GameParts(games, shown, moves, BotPlayers(moves, bot_move_delay=bot_move_delay, thinker=thinker))
