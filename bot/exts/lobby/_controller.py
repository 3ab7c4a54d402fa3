"""Lobby buttons: each calls the game service, then redraws the lobby message in place (the answer to the click)."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.exts.lobby._control import VERBS as CONTROL_VERBS
from bot.exts.lobby._control import LobbyControl
from bot.exts.lobby._presenter import bot_kind_view, lobby_embed, lobby_view
from bot.exts.lobby._seating import OpenLobby
from bot.games import GAMES
from bot.i18n import language_of, text
from bot.services.errors import ServiceError, ServiceReason
from bot.services.guild_config import GuildConfig
from bot.storage.games import GameRecord
from bot.ui.answers import Reply, acknowledge, answer, reply_private, update
from bot.ui.controller import GameController
from bot.ui.custom_ids import ComponentId
from bot.ui.hints import kind_name
from bot.ui.house_rules import lobby_house_rules
from bot.ui.permissions import FOR_THREADS, explain, missing_here
from bot.ui.places import can_open_thread, open_thread, remove_thread
from rules.engine import Message

log = logging.getLogger(__name__)


class LobbyController(GameController):
    """Handles `lobby:<game id>:<version>:<verb>` components.

    Clicks on one lobby are applied in turn by the service, but their redraws travel to Discord concurrently: each
    redraw is sent under the lobby's drawing lock and shows the lobby as it is then, so the one that lands last
    shows the last change (never an older lobby whose buttons would all be stale)."""

    game = "lobby"

    def __init__(self, bot: Any, open_lobby: OpenLobby) -> None:
        super().__init__(bot)
        self._drawing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.control = LobbyControl(bot, self._redraw, open_lobby)

    async def on_closed(self, record: GameRecord) -> None:
        """Forget a lobby closed without a click on it (expired, or ended by an admin)."""
        self._drawing.pop(record.id, None)
        self.control.forget(record.id)

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Join, leave, add (after choosing which, privately) or remove a bot player, start or cancel; refused
        privately when not allowed.

        The bot player's choice, Remove bot and Start carry the version the button was drawn for, and the service
        refuses them (privately, nothing changed) when the lobby has changed since. Join and Leave act on the
        clicker's own seat and are idempotent, so they ignore the version; Cancel is the host's and means it whatever
        changed.
        """
        if cid.verb in CONTROL_VERBS:  # removing a person, Rematch, invitations
            await self.control.on_verb(interaction, cid, values)
            return
        user = interaction.user
        lobby = self.bot.lobby
        version = cid.version
        config = await self.bot.config.get(interaction.guild_id)
        verbs: dict[str, Callable[[], Awaitable[GameRecord]]] = {
            "join": lambda: self.control.join(cid.game_id, user),
            "leave": lambda: lobby.leave(cid.game_id, user.id),
            "unbot": lambda: lobby.remove_bot(cid.game_id, user.id, version=version),
            "start": lambda: self._start(interaction, cid, in_thread=self._thread_wanted(interaction, config)),
            "cancel": lambda: lobby.cancel(cid.game_id, user.id),
        }
        if cid.verb in ("bot", "botkind"):  # Add bot player asks which one, privately; the choice seats it
            if not config.bots_allowed:
                await self.refuse(interaction, Message(key="admin.reason.bots_not_allowed"))
            elif cid.verb == "bot":
                await self._choose_bot(interaction, cid)
            else:
                await self._add_bot(interaction, cid, values)
            return
        verb = verbs.get(cid.verb)
        if verb is None:
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))
            return
        if cid.verb == "join" and interaction.guild_id is not None:  # the same cap /newgame applies to hosts
            limit = config.limits.games_per_person
            if await self.bot.records.count_open(guild_id=interaction.guild_id, user_id=user.id) >= limit:
                await self.refuse(
                    interaction, Message(key="admin.reason.cap_games_per_person", params={"limit": limit})
                )
                return
        if cid.verb == "start":  # never mark a game started that cannot be shown where its lobby is
            lacking = missing_here(interaction)
            if lacking:
                language = language_of(interaction.locale)
                await reply_private(interaction, explain(language, lacking, interaction.channel_id))
                return
        try:
            record = await verb()
        except ServiceError as error:
            await self.refuse(interaction, await self.control.why_not(cid.game_id, user.id, error))
            return
        try:
            async with self._drawing[record.id]:
                shown = await self._latest(record)
                embed, view = await self._drawn(shown)
                await update(interaction, content=await self._pointer(record, interaction), embed=embed, view=view)
        finally:
            if record.status != "lobby":
                self._drawing.pop(record.id, None)  # a started or cancelled game goes on even if this one answer failed
                self.control.forget(record.id)
            if record.status == "active":
                await self.bot.controllers[record.game].start(record, interaction)
            elif record.status == "cancelled":
                await self.service.after_close(record)  # its listeners hear of it once the lobby shows it

    async def _start(self, interaction: discord.Interaction[Any], cid: ComponentId, *, in_thread: bool) -> GameRecord:
        """Start the lobby; `in_thread`, in a thread opened from the lobby message once the start is certain (so a
        lobby cancelled or expired leaves no thread), removed again if the start is not stored after all."""
        opened: list[discord.Thread] = []

        async def thread(record: GameRecord) -> int | None:
            await acknowledge(interaction)  # opening a thread and adding the players take round trips
            found = await self._open_thread(interaction, record)
            if found is None:
                return None
            opened.append(found)
            return found.id

        try:
            return await self.bot.lobby.start(
                cid.game_id, interaction.user.id, version=cid.version, thread=thread if in_thread else None
            )
        except Exception:  # not stored (a cancelled task may have stored it: its thread stays)
            for unused in opened:
                await remove_thread(unused)
            raise

    def _thread_wanted(self, interaction: discord.Interaction[Any], config: GuildConfig) -> bool:
        """Whether a Start here opens the game's thread: the server wants threads (or never chose), one can be
        opened from this channel, and the bot may open, use and archive it (else the game is played in the
        channel, as a host who asked for threads was told at /newgame)."""
        if config.threads is False or not can_open_thread(interaction) or interaction.message is None:
            return False
        return not [name for name in missing_here(interaction, threads=True) if name in FOR_THREADS]

    async def _open_thread(self, interaction: discord.Interaction[Any], record: GameRecord) -> discord.Thread | None:
        """Open the game's thread from the lobby message with its players in it; if Discord refuses, tell the host
        the game is played in the channel."""
        language = await self.public_language(record)
        name = text(
            language,
            "admin.thread.name",
            game=text(language, f"bot.game.{GAMES[record.game].namespace}"),
            host=interaction.user.display_name,
        )
        members = [seat.user_id for seat in record.seats if seat.user_id is not None]
        assert interaction.message is not None, "Start is a button on the lobby message"
        opened = await open_thread(interaction.message, name, members)
        if opened is None:
            await reply_private(interaction, text(language_of(interaction.locale), "admin.lobby.thread_failed"))
        return opened

    async def _pointer(self, record: GameRecord, interaction: discord.Interaction[Any]) -> str | None:
        """The lobby message's line pointing to the thread its game moved to at Start (None: none)."""
        if record.status != "active" or record.channel_id == interaction.channel_id:
            return None
        return text(await self.public_language(record), "admin.thread.played_in", thread=f"<#{record.channel_id}>")

    async def _choose_bot(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        """Ask the clicker privately which bot player to seat (the lobby stays as it is until they choose)."""
        try:
            record = await self.service.get(cid.game_id)
            if record.status != "lobby":
                raise ServiceError(ServiceReason.ALREADY_STARTED)
            if record.seat_of(interaction.user.id) is None:
                raise ServiceError(ServiceReason.NOT_IN_LOBBY)
            self.bot.lobby.check_lobby_version(record, cid.version)
        except ServiceError as error:
            await self.refuse(interaction, error.message)
            return
        language = language_of(interaction.locale)
        view = bot_kind_view(language, GAMES[record.game], record)
        await answer(interaction, Reply(text(language, "players.lobby.choose"), controls=view))

    async def _add_bot(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Seat the bot player chosen privately, redraw the lobby, and say so in the private message."""
        kind = values[0] if values else ""
        try:
            record = await self.bot.lobby.add_bot(cid.game_id, interaction.user.id, kind, version=cid.version)
        except ServiceError as error:
            await self.refuse(interaction, error.message)
            return
        language = language_of(interaction.locale)
        seated = record.seats[-1]
        said = text(language, "players.lobby.added", name=seated.name, level=kind_name(language, kind))
        await self._redraw(record)  # first, so whoever is told the bot sits down sees it in the lobby
        await answer(interaction, Reply(said), replace=True)

    async def _redraw(self, record: GameRecord) -> None:
        """Show the lobby as it is now in its message (a change made from a private message)."""
        where = await self.bot.shown.message(record.id, "lobby")
        if where is None:
            return
        message = self.bot.get_partial_messageable(where[0]).get_partial_message(where[1])
        try:
            async with self._drawing[record.id]:
                embed, view = await self._drawn(await self._latest(record))
                await message.edit(embed=embed, view=view)
        except discord.HTTPException as error:
            log.warning("could not redraw the lobby of game %s: %s", record.id, error)

    async def _latest(self, record: GameRecord) -> GameRecord:
        """The lobby as the service has it now, or `record` if that is newer or the lobby is gone."""
        try:
            latest = await self.service.get(record.id)
        except ServiceError:
            return record
        return latest if latest.version >= record.version else record

    async def _drawn(self, record: GameRecord) -> tuple[discord.Embed, discord.ui.View | None]:
        """The lobby message's embed and buttons for this record."""
        info = GAMES[record.game]
        language = await self.public_language(record)
        timers, bots_allowed = await lobby_house_rules(self.bot, record, language)
        return lobby_embed(language, info, record, timers=timers), lobby_view(
            language, info, record, bots_allowed=bots_allowed
        )
