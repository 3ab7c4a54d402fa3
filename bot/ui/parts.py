"""What the bot's inner layers (ui and exts) need of the bot: its parts and the few Discord calls they make.

Typed against this rather than the composition root (bot/app.py), so no module below it imports it; the bot
(`bot.app.Conductor`) is the one object that has all of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.game_entry import GameInfo
from bot.metrics import Metrics
from bot.services.bot_players import BotPlayers
from bot.services.games import GameService
from bot.services.guild_config import GuildConfigService
from bot.services.lobby import LobbyService
from bot.services.moves import Moves
from bot.services.notifications import InvitationRecords, NotificationService
from bot.services.ratings import RatingRecords, RatingService
from bot.services.records import GameRecords
from bot.services.shown import ShownGames
from bot.services.timers import TimerService
from bot.settings import Settings
from bot.storage.games import GameRecord
from bot.storage.votes import VoteStore

if TYPE_CHECKING:
    from bot.ui.custom_ids import ComponentId


class Controller(Protocol):
    """What the bot and the other games' parts ask of a game's controller (bot/ui/controller.py's is the one kind)."""

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle a click on one of its game's components."""

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Show a game that just started (its lobby's Start)."""

    async def catch_up(self, record: GameRecord) -> None:
        """Show a game whose channel missed moves as it stands."""

    async def ensure_shown(self, game_id: int) -> None:
        """Bring a game's channel up to date if a stored move is not shown there yet."""

    async def publish_failed(
        self, record: GameRecord, interaction: discord.Interaction[Any] | None, error: Exception
    ) -> None:
        """Tell the truth about a stored move that could not be shown."""

    async def retire_turn(
        self, game_id: int, where: tuple[int, int] | None = None, story: Sequence[str] | None = None
    ) -> None:
        """Take the buttons off a game's turn message."""

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a game that is over."""

    def detach(self) -> None:
        """Stop answering its game's components and hearing of its games."""


class Places(Protocol):
    """What the ui asks of the places games are played in (bot/ui/places.py)."""

    async def gone(self, record: GameRecord, *, reason: str) -> None:
        """End a game whose place is gone."""


class Bot(Protocol):
    """The running bot as ui and exts see it: the services, the settings, the games' controllers and places, and
    the discord.py calls they use."""

    settings: Settings
    games: Mapping[str, GameInfo]
    service: GameService
    lobby: LobbyService
    moves: Moves
    shown: ShownGames
    bot_players: BotPlayers
    config: GuildConfigService
    timers: TimerService
    notifications: NotificationService
    ratings: RatingService
    rating_records: RatingRecords
    invitations: InvitationRecords
    records: GameRecords
    votes: VoteStore
    controllers: dict[str, Controller]
    clock: Callable[[], float]
    metrics: Metrics

    @property
    def places(self) -> Places:
        """Where games are played: threads, and games whose place is gone."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]:
        """The slash command tree."""

    @property
    def cogs(self) -> Mapping[str, commands.Cog]:
        """The loaded cogs by name."""

    def get_cog(self, name: str, /) -> commands.Cog | None:
        """A loaded cog by name."""

    async def add_cog(self, cog: commands.Cog, /) -> None:
        """Load a cog."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Route clicks on components whose custom ids match these items."""

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Stop routing these items."""

    def get_channel(self, id: int, /) -> Any:
        """A cached channel or thread, or None."""

    async def fetch_channel(self, channel_id: int, /) -> Any:
        """A channel or thread, asked of Discord."""

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable:
        """A channel to send to or edit in, without fetching it."""

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A cached server, or None."""

    async def create_dm(self, user: discord.abc.Snowflake, /) -> discord.DMChannel:
        """The direct-message channel with a person."""

    async def admit(self, interaction: discord.Interaction[Any], kind: str | None) -> bool:
        """Let an interaction in, or answer privately why not."""

    async def route_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Send a click to the controller of its game."""

    async def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages."""

    async def default_options(self, guild_id: int | None, game: str) -> dict[str, Any]:
        """The server's defaults for a game's variant options."""

    def board_link(self, game_id: int) -> str | None:
        """The signed address of a game's live board page, fresh now; None while the board pages are off."""
