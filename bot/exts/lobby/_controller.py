"""Lobby buttons: each calls the game service, then redraws the lobby message in place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.exts.lobby._presenter import lobby_embed, lobby_view
from bot.games import GAMES
from bot.services.games import ServiceError
from bot.storage.games import GameRecord
from bot.ui.controller import GameController
from bot.ui.custom_ids import ComponentId
from bot.ui.house_rules import lobby_house_rules
from rules.engine import Message


class LobbyController(GameController):
    """Handles `lobby:<game id>:<version>:<verb>` components."""

    game = "lobby"

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Join, leave, add or remove a bot player, start or cancel; refused privately when not allowed."""
        user = interaction.user
        service = self.service
        verbs: dict[str, Callable[[], Awaitable[GameRecord]]] = {
            "join": lambda: service.join(cid.game_id, user.id, user.display_name),
            "leave": lambda: service.leave(cid.game_id, user.id),
            "bot": lambda: service.add_bot(cid.game_id, user.id),
            "unbot": lambda: service.remove_bot(cid.game_id, user.id),
            "start": lambda: service.start(cid.game_id, user.id),
            "cancel": lambda: service.cancel(cid.game_id, user.id),
        }
        verb = verbs.get(cid.verb)
        if verb is None:
            await self.refuse(interaction, Message(key="bot.reason.unknown_component"))
            return
        if cid.verb == "bot" and not (await self.bot.config.get(interaction.guild_id)).bots_allowed:
            await self.refuse(interaction, Message(key="admin.reason.bots_not_allowed"))
            return
        try:
            record = await verb()
        except ServiceError as error:
            await self.refuse(interaction, error.message)
            return
        info = GAMES[record.game]
        language = await self.public_language(record)
        timers, bots_allowed = await lobby_house_rules(self.bot, record, language)
        await interaction.response.edit_message(
            embed=lobby_embed(language, info, record, timers=timers),
            view=lobby_view(language, info, record, bots_allowed=bots_allowed),
        )
        if record.status == "active":
            await self.bot.controllers[record.game].start(record, interaction)
        elif record.status == "cancelled":
            await self.service.after_close(record)  # archives its thread, once the lobby shows it
