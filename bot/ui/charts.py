"""Adding a finished game's score-over-time chart to its final message (bot/services/charts.py says when).

The chart is drawn in the picture workers from the game's stored log, and the message is edited to show it after all
it shows, before its buttons, keeping everything else (texts, pictures, buttons such as Rematch). An edit Discord
refuses (message deleted, no permission) is logged and dropped; in the game's thread, archived at its end, the thread
is opened for the edit and archived again.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.drawing import draw_once
from bot.i18n import fit, labels, text
from bot.storage.games import GameRecord
from bot.ui.pictures import MAX_ALT_TEXT, MAX_GALLERY_ALT_TEXT, plain_names
from render.chart import render_chart
from render.games import GamePictures
from rules.history import AnyEngine, tell_log

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

CHART = "score-chart.png"
THREAD_ARCHIVED = 50083
"""Discord's refusal to edit a message in an archived thread."""


class ChartPoster:
    """Edits a finished game's final message to show its chart."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def post(self, record: GameRecord, actions: list[tuple[int, str]], final: tuple[int, int]) -> None:
        """Draw the chart of a finished game (its stored log: `actions`) and add it to its final message; an edit
        Discord refuses is logged and dropped."""
        try:
            try:
                await self._add(record, actions, final)
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED:
                    raise
                await self._add_in_archived_thread(record, actions, final)
        except (discord.HTTPException, OSError) as error:
            log.warning("could not add the chart to game %s's final message: %r", record.id, error)

    async def _add_in_archived_thread(
        self, record: GameRecord, actions: list[tuple[int, str]], where: tuple[int, int]
    ) -> None:
        """Add the chart in a game's thread, archived at the game's end (Discord edits no message there): open it
        for the edit, and archive it again."""
        thread = self.bot.get_channel(where[0]) or await self.bot.fetch_channel(where[0])
        if not isinstance(thread, discord.Thread):
            raise TypeError(f"channel {where[0]} refused an edit as an archived thread but is no thread")
        await thread.edit(archived=False)
        try:
            await self._add(record, actions, where)
        finally:
            await thread.edit(archived=True)

    async def _add(self, record: GameRecord, actions: list[tuple[int, str]], where: tuple[int, int]) -> None:
        language = await self.bot.public_language(record.guild_id)
        game = self.bot.games[record.game]
        replaying = as_logged(game.engine, record, actions)
        png, alt = await draw_once(record.id, draw_chart, game.pictures, *replaying, plain_names(record), language)
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        posted = await partial.fetch()
        if any(a.filename == CHART for a in posted.attachments):
            return  # added before a restart that came before the note
        chart = discord.File(io.BytesIO(png), filename=CHART, description=fit(alt, MAX_ALT_TEXT))
        if posted.flags.components_v2:
            await partial.edit(view=with_chart(posted, alt), attachments=[*posted.attachments, chart])
        else:
            await partial.edit(attachments=[*posted.attachments, chart])


def with_chart(posted: discord.Message, alt: str) -> discord.ui.LayoutView:
    """A posted Components V2 message rebuilt as it is, with the chart added just before its buttons (after all it
    shows); its pictures are its own attachments again, not their expiring CDN addresses."""
    layout = discord.ui.LayoutView.from_message(posted, timeout=None)
    own = {a.filename for a in posted.attachments}
    galleries = [item for item in layout.walk_children() if isinstance(item, discord.ui.MediaGallery)]
    for media in (media for gallery in galleries for media in gallery.items):
        name = media.media.url.split("?")[0].rsplit("/", 1)[-1]  # Discord's addresses end in the file's name
        if name in own:
            media.media = f"attachment://{name}"
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{CHART}", description=fit(alt, MAX_GALLERY_ALT_TEXT))
    )
    holder: Any = next((c for c in layout.children if isinstance(c, discord.ui.Container)), layout)
    children = list(holder.children)
    place = next((i for i, c in enumerate(children) if isinstance(c, discord.ui.ActionRow)), len(children))
    for child in children[place:]:
        holder.remove_item(child)
    holder.add_item(gallery)
    for child in children[place:]:
        holder.add_item(child)
    return layout


def as_logged(
    engine: AnyEngine, record: GameRecord, actions: list[tuple[int, str]]
) -> tuple[AnyEngine, dict[str, Any], int, int, list[Any]]:
    """What replays a stored game, as the drawing jobs take it: its engine, options, seats, seed and its log."""
    return engine, record.options, len(record.seats), record.seed, actions


def draw_chart(
    pictures: GamePictures,
    engine: AnyEngine,
    options: dict[str, Any],
    n_players: int,
    seed: int,
    actions: list[tuple[int, str]],
    names: list[str],
    language: str,
) -> tuple[bytes, str]:
    """A picture worker's job: a stored game's log replayed, its chart drawn, with its alt text (the totals)."""
    story = tell_log(engine, options, n_players, seed, actions)
    png = render_chart(story.history(), pictures.seat_colours(n_players), names, labels(language))
    players = story.result.players if story.result is not None else []
    scores = ", ".join(
        text(language, "replay.chart.score", player=names[p.seat], points=p.total)
        for p in sorted(players, key=lambda p: p.seat)
    )
    return png, text(language, "replay.chart.alt", scores=scores)
