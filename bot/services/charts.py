"""The score-over-time chart, added to a finished game's final message once that message is out.

Nothing here slows a move: the game's last move stores only a note that its chart is due (a `chart` row of
`game_messages` with message id 0, in the move's own transaction); once the final message is shown, the chart is
drawn in the picture workers from the game's stored log and the message is edited to show it after all it
shows, before its buttons, keeping everything else (texts, pictures, buttons such as Rematch). The note then names the
message. A chart still due when the bot starts (it stopped in between) is added after the channels caught up. An
edit Discord refuses (message deleted, no permission) is logged and dropped, never retried; in the game's thread,
archived at its end, the thread is opened for the edit and archived again.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import fit, text
from bot.services.games import GameListener, MoveWrite, Outcome
from bot.storage.games import GameRecord
from bot.ui.pictures import MAX_ALT_TEXT, MAX_GALLERY_ALT_TEXT, draw_once, labels, plain_names
from render.chart import render_chart, seat_colours
from rules.history import replayable, tell_log

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

KIND = "chart"
"""The `game_messages` kind noting a game's chart: message id 0 while it is due, else the message it was added to."""
DUE = 0
CHART = "score-chart.png"
THREAD_ARCHIVED = 50083
"""Discord's refusal to edit a message in an archived thread."""
CLOSE_WAIT = 10.0
"""Seconds a stopping bot gives the charts being added."""


class FinalCharts(GameListener):
    """Adds the chart to each finished game's final message, after the final message is out."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._adding: set[asyncio.Task[None]] = set()
        self._closing = False
        self.resumed = asyncio.Event()
        """Set once the charts due at start are being added (for tests and tools to wait on)."""

    async def with_move(self, outcome: Outcome) -> MoveWrite | None:
        """With a game's last move, note that its chart is due (so a restart before it is added still adds it)."""
        record = outcome.record
        if not outcome.finished or not replayable(record.game):
            return None
        return MoveWrite([self.bot.service.store.message_statement(record.id, KIND, record.channel_id, DUE)])

    async def on_moved(self, outcome: Outcome) -> None:
        """Once a game's end is shown, add its chart in the background (the mover's answer never waits for it)."""
        if outcome.finished and replayable(outcome.record.game):
            self._start(outcome.record.id)

    async def resume(self) -> None:
        """Add the charts still due (the bot stopped before adding them), of the games this process drives."""
        for game_id in await self.bot.service.store.games_with_message(KIND, DUE):
            self._start(game_id)
        self.resumed.set()

    async def close(self) -> None:
        """Let the charts being added finish, and start no more (the bot stops; those cut short stay due)."""
        self._closing = True
        await self.settled()
        for task in self._adding:
            task.cancel()
        await asyncio.gather(*self._adding, return_exceptions=True)

    async def settled(self) -> None:
        """Wait for the charts being added (up to `CLOSE_WAIT` seconds)."""
        if self._adding:
            await asyncio.wait(set(self._adding), timeout=CLOSE_WAIT)

    def _start(self, game_id: int) -> None:
        if self._closing:
            return  # still due: added at the next start
        task = asyncio.create_task(self.add(game_id), name=f"chart-{game_id}")
        self._adding.add(task)
        task.add_done_callback(self._adding.discard)

    async def add(self, game_id: int) -> None:
        """Draw a finished game's chart and add it to its final message; any failure is logged and the chart
        dropped (it is noted as done either way, so nothing retries it forever)."""
        record = await self.bot.service.store.get(game_id)
        final = await self.bot.service.message(game_id, "final")
        if record is None or record.status != "finished" or final is None:
            log.info("game %s has no final message to add a chart to", game_id)
            return  # still due: its final message may come with the channel's catch-up at the next start
        if not self.bot.service.drives(record):
            return
        try:
            try:
                await self._add(record, final)
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED:
                    raise
                await self._add_in_archived_thread(record, final)
        except (discord.HTTPException, OSError) as error:
            log.warning("could not add the chart to game %s's final message: %r", game_id, error)
        except Exception:
            log.exception("drawing or adding the chart of game %s failed", game_id)
        await self.bot.service.store.database.write(
            [self.bot.service.store.message_statement(game_id, KIND, final[0], final[1])]
        )

    async def _add_in_archived_thread(self, record: GameRecord, where: tuple[int, int]) -> None:
        """Add the chart in a game's thread, archived at the game's end (Discord edits no message there): open it
        for the edit, and archive it again."""
        thread = self.bot.get_channel(where[0]) or await self.bot.fetch_channel(where[0])
        if not isinstance(thread, discord.Thread):
            raise TypeError(f"channel {where[0]} refused an edit as an archived thread but is no thread")
        await thread.edit(archived=False)
        try:
            await self._add(record, where)
        finally:
            await thread.edit(archived=True)

    async def _add(self, record: GameRecord, where: tuple[int, int]) -> None:
        language = await self.bot.public_language(record.guild_id)
        actions = await self.bot.service.store.actions(record.id)
        png, alt = await draw_once(record.id, draw_chart, *as_logged(record, actions), plain_names(record), language)
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


def as_logged(record: GameRecord, actions: list[tuple[int, str]]) -> tuple[str, dict[str, Any], int, int, list[Any]]:
    """What replays a stored game, as the drawing jobs take it: game, options, seats, seed and its log."""
    return record.game, record.options, len(record.seats), record.seed, actions


def draw_chart(
    game: str,
    options: dict[str, Any],
    n_players: int,
    seed: int,
    actions: list[tuple[int, str]],
    names: list[str],
    language: str,
) -> tuple[bytes, str]:
    """A picture worker's job: a stored game's log replayed, its chart drawn, with its alt text (the totals)."""
    story = tell_log(game, options, n_players, seed, actions)
    png = render_chart(story.history(), seat_colours(game, n_players), names, labels(language))
    players = story.result.players if story.result is not None else []
    scores = ", ".join(
        text(language, "replay.chart.score", player=names[p.seat], points=p.total)
        for p in sorted(players, key=lambda p: p.seat)
    )
    return png, text(language, "replay.chart.alt", scores=scores)
