"""/newgame <game>: open a lobby in this channel for a game (its Start opens the game's thread, where the server wants
one); idle lobbies shown expired."""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.exts.lobby._control import INVITE_MENU
from bot.exts.lobby._controller import LobbyController
from bot.exts.lobby._options import OptionParameter, chosen_options, option_parameters
from bot.exts.lobby._presenter import lobby_embed, lobby_view
from bot.exts.lobby._seating import Seating
from bot.games import GAMES, GameInfo
from bot.i18n import fit, language_of, render, text
from bot.services.errors import ServiceError, ServiceReason
from bot.services.guild_config import ECHO_LIMIT, LobbyLimits
from bot.storage.database import StoreLock
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private, say_in_public
from bot.ui.house_rules import (
    TIMER_CHOICES,
    TIMER_DESCRIPTIONS,
    TIMER_OVERRIDES,
    NewGamePlan,
    plan_new_game,
    timer_lines,
    timer_parameters,
)
from bot.ui.permissions import FOR_THREADS, explain, missing_here
from bot.ui.places import can_open_thread
from rules.engine import Message

if TYPE_CHECKING:
    from bot.services.lobby_expiry import LobbyExpiry
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


class LobbyCog(commands.Cog):
    """Opening games; the lobby's buttons are handled by its controller, idle lobbies shown expired here."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._caps = StoreLock()
        self._opening: dict[object, tuple[int | None, int]] = {}
        """/newgame calls past their caps check whose lobby is not stored yet: (server, person) each."""
        self._seatings: dict[object, Seating] = {}
        """Lobbies opened on someone's behalf (rematch, invitation), by the token of their /newgame call."""

    async def cog_load(self) -> None:
        """Register the lobby's controller for its components, and /newgame (built from the options models)."""
        controller = LobbyController(self.bot, self.newgame)
        controller.attach()
        self.bot.tree.add_command(newgame_group(self))
        self.bot.tree.add_command(controller.control.menu())
        expiry: LobbyExpiry | None = getattr(self.bot, "lobbies", None)
        if expiry is not None:
            expiry.present = self.show_expired

    async def cog_unload(self) -> None:
        """Undo cog_load."""
        controller = self.bot.controllers.get("lobby")
        if controller is not None:
            controller.detach()
        self.bot.tree.remove_command("newgame")
        self.bot.tree.remove_command(INVITE_MENU, type=discord.AppCommandType.user)
        expiry: LobbyExpiry | None = getattr(self.bot, "lobbies", None)
        if expiry is not None and expiry.present == self.show_expired:
            expiry.present = None

    async def newgame(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        chosen: dict[str, Any],
        timers: dict[str, Any],
        seating: Seating | None = None,
    ) -> None:
        """Open a lobby of `game` with these options and timer overrides here, the invoker as host; a `seating`
        names its first seats and is given the lobby once stored.

        Refusals come first and privately: the server's rules, missing permissions, caps, a channel with an open
        game. Then the lobby in the channel is the answer itself. Where the server wants a thread per game, Start
        opens it (so a lobby cancelled or expired leaves none); a host who asked for threads where the bot may not
        open them is told why the game will stay in the channel.
        """
        language = language_of(interaction.locale)
        assert interaction.channel_id is not None, "/newgame is for servers only: Discord always says the channel"
        try:  # the server's rules: who may create, locked options, timers, threads, caps
            plan = await plan_new_game(self.bot, interaction, game, chosen, timers)
            _check_options(game, plan.options)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        lacking = missing_here(interaction)
        if lacking:
            await reply_private(interaction, explain(language, lacking, interaction.channel_id))
            return
        asked = plan.threads is True and can_open_thread(interaction)
        no_threads = [n for n in missing_here(interaction, threads=True) if n in FOR_THREADS] if asked else []
        busy = await self.bot.records.in_channel(interaction.channel_id)  # a friendly fast path:
        if busy:  # the database decides below, whatever raced
            await reply_private(interaction, text(language, "bot.reason.channel_busy", id=busy[0].id))
            return
        token = object()
        async with self._caps:  # the caps check and the reservation are one step: simultaneous calls count each other
            cap = await self._cap_reached(interaction.guild_id, interaction.user.id, plan.limits)
            if cap is None:
                self._opening[token] = (interaction.guild_id, interaction.user.id)
        if cap is not None:
            await reply_private(interaction, render(language, cap))
            return
        if seating is not None:
            self._seatings[token] = seating
        try:
            await self._open(interaction, game, plan, token, no_threads=no_threads)
        finally:
            self._opening.pop(token, None)
            self._seatings.pop(token, None)

    async def _open(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        plan: NewGamePlan,
        token: object,
        *,
        no_threads: list[str],
    ) -> None:
        """Open the lobby in this channel and answer with it; with threads wanted but impossible, say why."""
        language = language_of(interaction.locale)
        assert interaction.channel_id is not None
        try:
            record = await self._store_lobby(interaction, game, plan, token)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        public = await self.bot.public_language(interaction.guild_id)
        embed, view = _lobby(public, game, record, plan)
        message_id = await say_in_public(interaction, embed=embed, view=view)
        if message_id is not None:
            self.bot.shown.remember_message(record.id, "lobby", interaction.channel_id, message_id)
        if no_threads:
            await reply_private(interaction, _no_threads(language, no_threads, interaction.channel_id))

    async def _store_lobby(
        self, interaction: discord.Interaction[Any], game: str, plan: NewGamePlan, token: object
    ) -> GameRecord:
        """Store the lobby in this channel (the database refuses a second open game there) and fix its timers."""
        assert interaction.channel_id is not None
        seating = self._seatings.get(token)
        try:
            record = await self.bot.lobby.open_lobby(
                game=game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=plan.options,
                seats=seating.seats if seating is not None else (),
            )
        finally:
            self._opening.pop(token, None)  # stored (or refused): the database counts it from now on
        await self.bot.timers.adopt(record.id, plan.timers)
        if seating is not None:
            seating.record = record
        return record

    async def _cap_reached(self, guild_id: int | None, user_id: int, limits: LobbyLimits) -> Message | None:
        """The first cap this person would pass by opening one more game here, or None."""
        if guild_id is None:
            return None
        store = self.bot.records
        mine = sum(1 for opening in self._opening.values() if opening == (guild_id, user_id))
        here = sum(1 for g, _ in self._opening.values() if g == guild_id)
        lobbies = await store.count_open(guild_id=guild_id, host_id=user_id, status="lobby") + mine
        if lobbies >= limits.lobbies_per_person:
            return Message(key="admin.reason.cap_lobbies_per_person", params={"limit": limits.lobbies_per_person})
        games = await store.count_open(guild_id=guild_id, user_id=user_id) + mine
        if games >= limits.games_per_person:
            return Message(key="admin.reason.cap_games_per_person", params={"limit": limits.games_per_person})
        total = await store.count_open(guild_id=guild_id) + here
        if total >= limits.games_per_server:
            return Message(key="admin.reason.cap_games_per_server", params={"limit": limits.games_per_server})
        return None

    async def show_expired(self, record: GameRecord, minutes: int) -> None:
        """Show a lobby that expired: its message without buttons, and a word in its channel or thread."""
        language = await self.bot.public_language(record.guild_id)
        where = await self.bot.shown.message(record.id, "lobby")
        if where is not None:
            channel_id, message_id = where
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            try:
                await message.edit(
                    embed=lobby_embed(language, GAMES[record.game], record, expired_after=minutes), view=None
                )
            except discord.HTTPException as error:
                log.info("could not redraw the expired lobby of game %s: %s", record.id, error)
        notice = text(language, "admin.notice.lobby_expired", id=record.id, minutes=minutes)
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(notice, allowed_mentions=discord.AllowedMentions.none())


def _check_options(game: str, options: dict[str, Any]) -> None:
    """Refuse options that do not go together before anything is shown (the service checks them again)."""
    try:
        GAMES[game].engine.load_options(dict(options))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        detail = fit(f"{where}: {first.get('msg', '')}".strip(": "), ECHO_LIMIT * 3)
        raise ServiceError(ServiceReason.BAD_OPTIONS, detail=detail) from error


def _lobby(language: str, game: str, record: GameRecord, plan: NewGamePlan) -> tuple[discord.Embed, discord.ui.View]:
    """A new lobby's embed and buttons."""
    info = GAMES[game]
    view = lobby_view(language, info, record, bots_allowed=plan.bots_allowed)
    assert view is not None, "a new lobby always has its buttons"
    return lobby_embed(language, info, record, timers=timer_lines(language, plan.timers)), view


def _no_threads(language: str, names: list[str], channel_id: int | None) -> str:
    """Threads are on, but the bot may not open them here: which permissions an admin should grant."""
    listed = ", ".join(text(language, f"bot.permission.{name}") for name in names)
    where = f"<#{channel_id}>" if channel_id is not None else text(language, "bot.permission.here")
    return text(language, "admin.lobby.no_threads", permissions=listed, channel=where)


def newgame_group(cog: LobbyCog) -> app_commands.Group:
    """Build /newgame: one subcommand per game, named by its id, with that game's variant options and the timers."""
    group = app_commands.guild_only(
        app_commands.Group(name="newgame", description=text("en", "commands.newgame.description"))
    )
    for game, info in GAMES.items():
        group.add_command(_newgame_for(cog, game, info))
    return group


def _newgame_for(cog: LobbyCog, game: str, info: GameInfo) -> app_commands.Command[Any, Any, None]:
    """/newgame <game>: its options (each optional, with its description), then the timers for this one game."""
    options = option_parameters(info)
    clash = {p.name for p in options} & set(TIMER_OVERRIDES)
    if clash:
        raise TypeError(f"{game}: options {sorted(clash)} would hide /newgame's timer options of the same names")

    async def newgame(interaction: discord.Interaction[Any], **given: Any) -> None:
        timers = {name: given.get(name) for name in TIMER_OVERRIDES}
        await cog.newgame(interaction, game, chosen_options(options, given), timers)

    newgame.__signature__ = inspect.Signature(_parameters(options))  # type: ignore[attr-defined]
    callback: Any = app_commands.describe(**{p.name: p.description for p in options}, **TIMER_DESCRIPTIONS)(newgame)
    callback = app_commands.choices(**{p.name: list(p.choices) for p in options if p.choices}, **TIMER_CHOICES)(
        callback
    )
    return app_commands.Command(
        name=game, description=text("en", f"commands.newgame_{game}.description"), callback=callback
    )


def _parameters(options: list[OptionParameter]) -> list[inspect.Parameter]:
    """The subcommand's signature: the interaction, the game's options, the timers."""
    return [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        *(
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, annotation=p.annotation, default=None)
            for p in options
        ),
        *timer_parameters(),
    ]
