"""Lobby buttons: each calls the game service, then redraws the lobby message in place (the answer to the click)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.exts.lobby._presenter import lobby_embed, lobby_view
from bot.games import GAMES
from bot.i18n import language_of
from bot.services.games import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private
from bot.ui.controller import GameController
from bot.ui.custom_ids import ComponentId
from bot.ui.house_rules import lobby_house_rules
from bot.ui.permissions import explain, missing_here
from rules.engine import Message


class LobbyController(GameController):
    """Handles `lobby:<game id>:<version>:<verb>` components."""

    game = "lobby"

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Join, leave, add or remove a bot player, start or cancel; refused privately when not allowed.

        Add bot, Remove bot and Start carry the version the button was drawn for, and the service refuses them
        (privately, nothing changed) when the lobby has changed since. Join and Leave act on the clicker's own seat
        and are idempotent, so they ignore the version; Cancel is the host's and means it whatever changed.
        """
        user = interaction.user
        service = self.service
        version = cid.version
        verbs: dict[str, Callable[[], Awaitable[GameRecord]]] = {
            "join": lambda: service.join(cid.game_id, user.id, user.display_name),
            "leave": lambda: service.leave(cid.game_id, user.id),
            "bot": lambda: service.add_bot(cid.game_id, user.id, version=version),
            "unbot": lambda: service.remove_bot(cid.game_id, user.id, version=version),
            "start": lambda: service.start(cid.game_id, user.id, version=version),
            "cancel": lambda: service.cancel(cid.game_id, user.id),
        }
        verb = verbs.get(cid.verb)
        if verb is None:
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))
            return
        config = await self.bot.config.get(interaction.guild_id)
        if cid.verb == "bot" and not config.bots_allowed:
            await self.refuse(interaction, Message(key="admin.reason.bots_not_allowed"))
            return
        if cid.verb == "join" and interaction.guild_id is not None:  # the same cap /newgame applies to hosts
            limit = config.limits.games_per_person
            if await service.store.count_open(guild_id=interaction.guild_id, user_id=user.id) >= limit:
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
            await self.refuse(interaction, error.message)
            return
        info = GAMES[record.game]
        language = await self.public_language(record)
        timers, bots_allowed = await lobby_house_rules(self.bot, record, language)
        try:
            await interaction.response.edit_message(
                embed=lobby_embed(language, info, record, timers=timers),
                view=lobby_view(language, info, record, bots_allowed=bots_allowed),
            )
        finally:  # a started or cancelled game goes on even if this one answer failed
            if record.status == "active":
                await self.bot.controllers[record.game].start(record, interaction)
            elif record.status == "cancelled":
                await self.service.after_close(record)  # archives its thread, once the lobby shows it
