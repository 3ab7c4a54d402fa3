"""/replay game:<id>: the animation of a finished game of this server, turn by turn, and its log as JSON.

A finished game's replay is public: everything in it was public once the game was over (each frame is drawn from
the public view, hands and ticket choices never), so it is posted in the channel for everyone. Refusals (an unknown
id, a game of another server, one not finished) are private and come at once; the drawing takes seconds, so the
command is deferred first and the animation is drawn in the slow picture worker, never on the event loop.
"""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_name
from bot.i18n import fit, language_of, text
from bot.services.charts import as_logged
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private
from bot.ui.pictures import MAX_ALT_TEXT, draw_slow, labels, plain_names
from render.replay import EXTENSION, render_game_replay
from rules.history import replayable

if TYPE_CHECKING:
    from bot.app import Conductor

log = logging.getLogger(__name__)

LOG_VERSION = 1
"""The log's format: game, options, seed, seats (in seat order, with names) and every action's text in order."""


class ReplayCog(commands.Cog):
    """The /replay command."""

    def __init__(self, bot: Conductor) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description=text("en", "commands.replay.description"))
    @app_commands.describe(game=text("en", "commands.replay.game.description"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]) -> None:
        """Post a finished game's animation and log in this channel, or say privately why not."""
        language = language_of(interaction.locale)
        record = await self.bot.service.store.get(game)
        refusal = _refusal(record, interaction.guild_id)
        if refusal is not None:
            await reply_private(interaction, text(language, refusal, id=game))
            return
        assert record is not None
        await interaction.response.defer(thinking=True)
        public = await self.bot.public_language(record.guild_id)
        try:
            actions = await self.bot.service.store.actions(record.id)
            replaying = as_logged(record, actions)
            animation = await draw_slow(render_game_replay, *replaying, plain_names(record), labels(public))
        except Exception:
            log.exception("drawing the replay of game %s failed", record.id)
            await interaction.delete_original_response()
            await interaction.followup.send(text(language, "bot.failure.nothing_changed"), ephemeral=True)
            return
        files = [
            discord.File(
                io.BytesIO(animation.data),
                filename=f"replay-{record.id}.{EXTENSION}",
                description=fit(text(public, "replay.answer.alt", id=record.id), MAX_ALT_TEXT),
            ),
            discord.File(io.BytesIO(game_log(record, actions).encode("utf-8")), filename=f"game-{record.id}.json"),
        ]
        name = game_name(public, record.game)
        words = text(public, "replay.answer.posted", id=record.id, game=name, turns=animation.frames - 1)
        await interaction.followup.send(words, files=files, allowed_mentions=discord.AllowedMentions.none())


def _refusal(record: GameRecord | None, guild_id: int | None) -> str | None:
    """Why a game cannot be replayed here (a message key), or None."""
    if record is None:
        return "replay.reason.unknown"
    if record.guild_id != guild_id:
        return "replay.reason.elsewhere"
    if record.status != "finished":
        return "replay.reason.unfinished"
    if not replayable(record.game):
        return "replay.reason.unsupported"
    return None


def game_log(record: GameRecord, actions: list[tuple[int, str]]) -> str:
    """The game's log as JSON: enough to rebuild it exactly with the engine's `replay`."""
    return json.dumps(
        {
            "format": LOG_VERSION,
            "game": record.game,
            "id": record.id,
            "options": record.options,
            "seed": record.seed,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot_kind} for s in sorted(record.seats, key=lambda s: s.seat)
            ],
            "actions": [{"seat": seat, "action": action} for seat, action in actions],
        },
        ensure_ascii=False,
        indent=1,
    )
