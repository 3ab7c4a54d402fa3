"""/replay game:<id>: the animation of a finished game of this server, turn by turn, and its public log as JSON.

Only members who can view the game's channel may have it (`bot.ui.visibility`). It is posted for everyone in the
game's own channel (or its thread, or the channel that thread was opened from); asked for anywhere else, it is
answered privately, so a game never shows in a channel where it was not played. Each frame is drawn from the public
view and the log holds only what the table showed (`rules.history.spectate`): never the seed, a blind card's
colour, a returned ticket or a hand before the end; the full log stays in the database. Refusals (an unknown id, a
game of another server or of a channel the person cannot see, one not finished) are private and come at once; the
drawing takes seconds, so the command is deferred first and the animation is drawn in the slow picture worker,
never on the event loop.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.drawing import draw_slow
from bot.games import GAMES, game_name
from bot.i18n import fit, labels, language_of, text
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private, think
from bot.ui.charts import as_logged
from bot.ui.pictures import MAX_ALT_TEXT, plain_names
from bot.ui.visibility import visible_place
from render.replay import EXTENSION, render_game_log, render_game_replay

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


class ReplayCog(commands.Cog):
    """The /replay command."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description=text("en", "commands.replay.description"))
    @app_commands.describe(game=text("en", "commands.replay.game.description"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]) -> None:
        """Post a finished game's animation and public log in its channel (privately when asked elsewhere), or say
        privately why not."""
        language = language_of(interaction.locale)
        record = await self.bot.records.get(game)
        refusal = _refusal(record, interaction.guild_id)
        place = None if record is None or refusal else await visible_place(self.bot, interaction.user, record)
        if refusal is None and place is None:
            refusal = "replay.reason.hidden"
        if refusal is not None:
            await reply_private(interaction, text(language, refusal, id=game))
            return
        assert record is not None
        here = interaction.channel_id in (record.channel_id, place)
        await think(interaction, private=not here)
        words = await self.bot.public_language(record.guild_id) if here else language
        try:
            actions = await self.bot.records.actions(record.id)
            replaying = as_logged(GAMES[record.game].engine, record, actions)
            pictures = GAMES[record.game].pictures
            animation = await draw_slow(render_game_replay, pictures, *replaying, plain_names(record), labels(words))
            told = await draw_slow(render_game_log, *replaying, _about(record))
        except Exception:
            log.exception("drawing the replay of game %s failed", record.id)
            await interaction.delete_original_response()
            await interaction.followup.send(text(language, "bot.failure.nothing_changed"), ephemeral=True)
            return
        files = [
            discord.File(
                io.BytesIO(animation.data),
                filename=f"replay-{record.id}.{EXTENSION}",
                description=fit(text(words, "replay.answer.alt", id=record.id), MAX_ALT_TEXT),
            ),
            discord.File(io.BytesIO(told), filename=f"game-{record.id}.json"),
        ]
        name = game_name(words, record.game)
        posted = text(words, "replay.answer.posted", id=record.id, game=name, turns=animation.frames - 1)
        await interaction.followup.send(
            posted, files=files, ephemeral=not here, allowed_mentions=discord.AllowedMentions.none()
        )


def _refusal(record: GameRecord | None, guild_id: int | None) -> str | None:
    """Why a game cannot be replayed here (a message key), or None."""
    if record is None:
        return "replay.reason.unknown"
    if record.guild_id != guild_id:
        return "replay.reason.elsewhere"
    if record.status != "finished":
        return "replay.reason.unfinished"
    if record.game not in GAMES:
        return "replay.reason.unsupported"
    return None


def _about(record: GameRecord) -> dict[str, Any]:
    """What the public log says of the game before its moves: which game, its options and who sat where."""
    seats = sorted(record.seats, key=lambda s: s.seat)
    return {
        "game": record.game,
        "id": record.id,
        "options": record.options,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_kind} for s in seats],
    }
