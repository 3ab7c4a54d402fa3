"""Ticket to Ride's own slash commands (/claim, /station) with their autocomplete, and its answers to the shared
/draw, /tickets, /hand, /board and /score.

Each command does what the matching button does; the moves go through the controller's `act`, so a typed move and
a clicked one are refused or accepted alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.shared_commands import SharedCommands, own_game
from bot.exts.ttr._controller import TtrController
from bot.exts.ttr._map import (
    MENU_SIZE,
    by_name,
    city_name,
    claims_in,
    find_city,
    find_route,
    fold,
    game_map,
    route_details,
    route_matches,
    route_name,
    stations_in,
    track,
)
from bot.exts.ttr._presenter import standings
from bot.exts.ttr._private import GAME, Target
from bot.i18n import language_of, text
from bot.services.errors import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private
from rules.ttr.actions import DECK, BuildStation, Claim, DrawCard, DrawTickets
from rules.ttr.board import CARD_CODES, CARD_NAMES, LOCO
from rules.ttr.view import PublicView

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class TtrCog(commands.Cog, SharedCommands):
    """Typed moves and looks at a Ticket to Ride game in this channel."""

    game = GAME

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.controller = TtrController(bot)

    async def cog_load(self) -> None:
        """Register the controller for `ticket-to-ride:` components, bot players' moves and games that end."""
        self.controller.attach()

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        self.controller.detach()

    async def _running_game(
        self, interaction: discord.Interaction[Any], command: str
    ) -> tuple[GameRecord, PublicView, str] | None:
        """This channel's running game, its public view and the typer's language; or a private answer why not."""
        record = await own_game(self.bot, interaction, GAME, command)
        if record is None:
            return None
        language = language_of(interaction.locale)
        public = self._public(record)
        if public is None:
            await reply_private(interaction, text(language, "bot.reason.not_running"))
            return None
        return record, public, language

    @app_commands.command(name="claim", description=text("en", "commands.claim.description"))
    @app_commands.describe(route=text("en", "commands.claim.route.description"))
    @app_commands.guild_only()
    async def claim(self, interaction: discord.Interaction[Any], route: str) -> None:
        """Claim a route (asking how to pay when there is a choice); a route you cannot claim is explained."""
        found_game = await self._running_game(interaction, "claim")
        if found_game is None:
            return
        record, public, language = found_game
        track_id = find_route(language, public.map, route)
        if track_id is None:
            await reply_private(interaction, text(language, "ttr_bot.reason.not_a_route", typed=route[:80]))
            return
        mine = await self.controller.seat_view(record.id, interaction.user.id)
        if mine is not None and any(c.track == track_id for c in claims_in(mine.legal_moves)):
            await self.controller.offer_payment(interaction, record.id, Target.claim(track_id))
            return
        # Not claimable now: let the engine say exactly why (taken, double, cars, cards, turn) with a plain claim.
        found = track(public.map, track_id)
        colour = found.color if found is not None and found.color in CARD_CODES else _most_held(mine)
        claim = Claim(track=track_id, color=colour, locomotives=0)
        await self.controller.act(interaction, record.id, claim, version=None)

    @claim.autocomplete("route")
    async def claim_routes(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """The routes this player can claim now that match what is typed (city names, either order)."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        language = language_of(interaction.locale)
        tracks = {c.track for c in claims_in(mine.legal_moves)}
        matching = [t for t in tracks if not current.strip() or route_matches(language, mine.map, t, current)]
        matching.sort(key=lambda t: fold(route_name(language, mine.map, t)))
        return [
            app_commands.Choice(
                name=f"{route_name(language, mine.map, t)} · {route_details(language, mine.map, t)}"[:100], value=str(t)
            )
            for t in matching[:MENU_SIZE]
        ]

    @app_commands.command(name="station", description=text("en", "commands.station.description"))
    @app_commands.describe(city=text("en", "commands.station.city.description"))
    @app_commands.guild_only()
    async def station(self, interaction: discord.Interaction[Any], city: str) -> None:
        """Build a station (asking how to pay when there is a choice); a city you cannot build in, or a map without
        stations, is explained."""
        found_game = await self._running_game(interaction, "station")
        if found_game is None:
            return
        record, public, language = found_game
        if not game_map(public.map).rules.stations_per_player:  # said before any city is looked up
            map_name = text(language, f"ttr.map.{public.map}")
            await reply_private(interaction, text(language, "ttr.reason.no_stations_on_map", map=map_name))
            return
        city_id = find_city(language, public.map, city)
        if city_id is None:
            await reply_private(interaction, text(language, "ttr_bot.reason.not_a_city", typed=city[:80]))
            return
        mine = await self.controller.seat_view(record.id, interaction.user.id)
        if mine is not None and any(s.city == city_id for s in stations_in(mine.legal_moves)):
            await self.controller.offer_payment(interaction, record.id, Target.station(city_id))
            return
        station = BuildStation(city=city_id, color=_most_held(mine), locomotives=0)
        await self.controller.act(interaction, record.id, station, version=None)

    @station.autocomplete("city")
    async def station_cities(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The cities where this player can build a station now that match what is typed."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        language = language_of(interaction.locale)
        wanted = fold(current)
        cities = [
            c
            for c in by_name(language, [s.city for s in stations_in(mine.legal_moves)])
            if wanted in fold(city_name(language, c)) or wanted in fold(city_name("en", c))
        ]
        return [app_commands.Choice(name=city_name(language, c), value=c) for c in cities[:MENU_SIZE]]

    def card_choices(self, language: str) -> list[app_commands.Choice[str]]:
        """The deck, then the card colours (locomotive last)."""
        return [
            app_commands.Choice(name=text(language, "ttr_bot.command.deck"), value=DECK),
            *(app_commands.Choice(name=text(language, f"ttr.color.{c}"), value=c) for c in CARD_NAMES),
        ]

    async def draw(self, interaction: discord.Interaction[Any], record: GameRecord, card: str) -> None:
        """Take a card, as the turn message's buttons do (also the second card of a turn)."""
        await self.controller.act(interaction, record.id, DrawCard(source=card), version=None)

    async def tickets(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Draw destination tickets; the choice comes privately."""
        await self.controller.act(interaction, record.id, DrawTickets(), version=None)

    async def hand(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the player's hand privately, with what they can do now."""
        await self.controller.show_hand(interaction, record.id)

    async def board(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the current board privately."""
        await self.controller.board(interaction, record.id)

    async def score(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show everyone's public standing: route points, cars, cards and tickets held."""
        language = language_of(interaction.locale)
        public = self._public(record)
        assert public is not None, "the shared /score asks only running games"
        scores = [text(language, "ttr_bot.score.title"), standings(language, record, public)]
        await reply_private(interaction, "\n".join(scores))

    def _public(self, record: GameRecord) -> PublicView | None:
        """The public view of a running game, None for a lobby."""
        if record.status != "active":
            return None
        return self.bot.service.view(record.id, None)  # type: ignore[return-value]

    async def _mine(self, interaction: discord.Interaction[Any]) -> Any:
        """The typing person's seat view of this channel's game, or None."""
        try:
            record = await self.bot.service.game_in_channel(interaction.channel_id or 0, GAME)
        except ServiceError:
            return None
        return await self.controller.seat_view(record.id, interaction.user.id)


def _most_held(view: Any) -> str:
    """The colour a player holds most of (for a claim or station the engine is asked to judge)."""
    hand: dict[str, int] = dict(view.hand) if view is not None else {}
    colours = [c for c in CARD_NAMES if CARD_CODES[c] != LOCO]
    return max(colours, key=lambda c: (hand.get(c, 0), -CARD_CODES[c]))


async def setup(bot: Bot) -> None:
    """Load the Ticket to Ride cog (discord.py extension entry point)."""
    await bot.add_cog(TtrCog(bot))
