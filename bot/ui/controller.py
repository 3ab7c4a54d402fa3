"""What every game's controller shares: applying a clicked or typed move, refusing privately, showing the table.

A move is stored before anyone is told; what happens after that (posting the table, answering the mover) may fail
without undoing it. So the mover is told the truth ("recorded, but not shown"), the listeners (timers, threads) are
told in any case, and the channel catches up later: each game records the newest version its channel shows, and a
channel that fell behind is shown the table as it stands on the next click, on /board and at start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import fit, language_of, render, text
from bot.services.errors import ServiceError, ServiceReason
from bot.services.games import GameListener, GameService, Outcome
from bot.storage.games import GameRecord
from bot.ui import permissions
from bot.ui.answers import Reply, acknowledge, answer, think
from bot.ui.components import GameComponent
from bot.ui.custom_ids import ACT, ComponentId, read_act
from bot.ui.names import seat_names
from bot.ui.pictures import Picture, files_of
from rules.engine import Action, CommonReason, IllegalAction, Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

BAD_REQUEST = 400
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


MAX_TEXT = 4000
"""Discord's limit on all the text of a Components V2 message."""
MAX_ROW = 5
"""Buttons in one action row."""


@dataclass
class TurnMessage:
    """A public game message, sent as Components V2: one container in the accent colour holding the heading, the
    call to whoever plays, the pictures, text blocks (what happened), the status (last round, standings), the hint
    and the controls, then a small footer line.

    Text carries what must be readable at any size (whose turn, scores, the last move); the picture shows the table.
    Each picture is a media gallery of its own, in the order given, so each shows the column's full width: Discord
    lays a gallery of two side by side at half the width each and crops them to its tiles.
    Once its turn is over (`finished`), the message keeps its heading, pictures and story, and loses the rest.
    """

    heading: str
    call: str = ""
    """Who is to do what now (may mention them)."""
    blocks: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    """The state of play while the turn is on (the last-round banner, the standings)."""
    hint: str = ""
    """How to play this turn."""
    controls: list[GameComponent] = field(default_factory=list)
    accent: int | None = None
    footer: str = ""
    ping: bool = False
    link: tuple[str, str] | None = None
    """(label, address) of a link button after the controls: the game's live board page."""

    def layout(self) -> discord.ui.LayoutView:
        """The message as a Components V2 layout, its text cut to fit Discord's limit (the story first)."""
        room = MAX_TEXT - len(self.footer) - len(self.hint) - 16
        container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=self.accent)
        for number, block in enumerate(
            ["\n".join(filter(None, [self.heading, self.call])), *self.blocks, *self.status]
        ):
            if block.strip() and room > 0:
                block = fit(block, room)
                room -= len(block)
                container.add_item(discord.ui.TextDisplay(block))
            if number == 0:
                for picture in self.pictures:
                    container.add_item(discord.ui.MediaGallery(picture.gallery_item()))
        if self.hint:
            container.add_item(discord.ui.TextDisplay(f"-# {self.hint}"))
        for row in _rows(self.controls):
            container.add_item(discord.ui.ActionRow(*row))
        if self.link is not None:
            label, url = self.link
            container.add_item(discord.ui.ActionRow(discord.ui.Button(label=label, url=url)))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        if self.footer:
            view.add_item(discord.ui.TextDisplay(f"-# {self.footer}"))
        return view

    def files(self) -> list[discord.File]:
        """Fresh discord.File objects for the pictures (a File can be sent only once)."""
        return files_of(self.pictures)

    def as_posted(self) -> TurnMessage:
        """This message as kept once posted: its pictures are the posted message's attachments now, kept by name and
        alt text only, not their bytes (edit it in place with `same_pictures`)."""
        return replace(self, pictures=[attached(p) for p in self.pictures])

    def finished(self, story: Sequence[str] | None = None) -> TurnMessage:
        """This message once its turn is over: its story told as `story` (the whole turn as it reads afterwards;
        None: as it reads now), and no call, status or controls."""
        blocks = self.blocks if story is None else ["\n".join(story)]
        return replace(self, call="", blocks=blocks, status=[], hint="", controls=[], ping=False)

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for send/edit; mentions ping only when asked (a new turn), never on edits."""
        return {
            "view": self.layout(),
            "allowed_mentions": discord.AllowedMentions(users=self.ping, roles=False, everyone=False),
        }


@dataclass
class LiveTurn:
    """The message of a person's turn in play: where it is, what it shows, and what it told when posted."""

    where: tuple[int, int]
    message: TurnMessage
    """What it shows, its pictures by name only (`TurnMessage.as_posted`): a game keeps no picture's bytes."""
    told: list[str]

    def __post_init__(self) -> None:
        self.message = self.message.as_posted()

    def shows(self, message: TurnMessage) -> None:
        """Remember that the message now shows `message` (its pictures by name only)."""
        self.message = message.as_posted()


def attached(picture: Picture) -> Picture:
    """A picture already attached to a posted message: its name and alt text, without its bytes."""
    return replace(picture, data=b"")


def _rows(items: list[GameComponent]) -> list[list[GameComponent]]:
    """Controls in action rows: each keeps the row it asked for, at most five to a row, selects alone."""
    rows: dict[int, list[list[GameComponent]]] = {}
    for item in items:
        wanted = item.item.row if item.item.row is not None else 0
        lines = rows.setdefault(wanted, [[]])
        alone = isinstance(item.item, discord.ui.Select)
        if lines[-1] and (alone or len(lines[-1]) >= MAX_ROW or isinstance(lines[-1][0].item, discord.ui.Select)):
            lines.append([])
        lines[-1].append(item)
    return [line for wanted in sorted(rows) for line in rows[wanted] if line]


def _without_controls(message: discord.Message) -> discord.ui.LayoutView:
    """A posted Components V2 message rebuilt without its action rows (and so without buttons); its pictures are
    referred to as its own attachments again (`attachment://name`), not by their expiring CDN addresses."""
    layout = discord.ui.LayoutView.from_message(message, timeout=None)
    attached = {url.split("?")[0]: a.filename for a in message.attachments for url in (a.url, a.proxy_url)}
    for item in list(layout.walk_children()):
        if isinstance(item, discord.ui.MediaGallery):
            for media in item.items:
                name = attached.get(media.media.url.split("?")[0])
                if name is not None:
                    media.media = f"attachment://{name}"
        if isinstance(item, discord.ui.ActionRow):
            parent = item.parent
            if isinstance(parent, discord.ui.Container):
                parent.remove_item(item)
            else:
                layout.remove_item(item)
    return layout


def board_link_view(bot: Bot, game_id: int, language: str) -> discord.ui.View | None:
    """A private answer's link button to a game's live board page, fresh, when the board pages are on."""
    url = bot.board_link(game_id)
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=text(language, "web.button.open"), url=url))
    return view


def place_gone(error: BaseException) -> bool:
    """Whether Discord says the channel or thread (or the whole server) is gone for the bot."""
    if isinstance(error, discord.NotFound):
        return error.code == UNKNOWN_CHANNEL
    return isinstance(error, discord.Forbidden) and error.code == MISSING_ACCESS


class GameController(GameListener):
    """One game's presentation: subclasses draw its messages; this base applies moves, refuses and recovers.

    It listens to the game service (its cog adds it), so whatever ends one of its games (the last move, /endgame, a
    deleted channel or thread, a server that removed the bot, timeouts) it forgets all it kept about that game.
    """

    game: str

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Condition] = {}
        self._pending: dict[int, set[int]] = {}
        """Game id → versions of moves being published (answered, not yet shown)."""
        self._live: dict[int, LiveTurn] = {}
        """Game id → the message of a person's turn in play, with its controls (none while bot players play)."""
        self._retired: dict[int, tuple[int, int]] = {}
        """Game id → its last turn message whose controls are already gone."""

    def presenting(self, game_id: int) -> asyncio.Condition:
        """The lock (a condition) held while a game's public messages change: one change at a time."""
        return self._locks.setdefault(game_id, asyncio.Condition())

    @asynccontextmanager
    async def showing(self, record: GameRecord) -> AsyncIterator[bool]:
        """The presentation lock, and whether the channel still lacks `record`'s version (a finished game's end is
        always told): Start and every catch-up show a game under it, so whichever comes first shows it and marks it
        shown, and the other finds it shown and posts nothing."""
        async with self.presenting(record.id):
            yield record.status != "active" or self.bot.shown.shown(record.id) < record.version

    @asynccontextmanager
    async def publishing(self, outcome: Outcome) -> AsyncIterator[None]:
        """Around all of a move's publishing: the move is known as pending at once (before anything is awaited),
        so moves made just after it are shown after it, whichever answer finishes first."""
        game_id, version = outcome.record.id, outcome.record.version
        pending = self._pending.setdefault(game_id, set())
        pending.add(version)
        try:
            yield
        finally:
            pending.discard(version)
            if not pending:
                self._pending.pop(game_id, None)
            condition = self._locks.get(game_id)  # gone once the game has ended
            if condition is not None:
                async with condition:
                    condition.notify_all()

    @asynccontextmanager
    async def presenting_in_turn(self, outcome: Outcome) -> AsyncIterator[None]:
        """The presentation lock, once every earlier move still being published has been shown (inside
        `publishing`): a later move is never taken for a missed one just because its answer was faster."""
        game_id, version = outcome.record.id, outcome.record.version
        condition = self.presenting(game_id)
        async with condition:
            await condition.wait_for(lambda: min(self._pending.get(game_id, ()), default=version) >= version)
            yield

    def attach(self) -> None:
        """Answer the components of its game and hear of its games (its cog loaded)."""
        self.bot.controllers[self.game] = self
        self.service.add_listener(self)

    def detach(self) -> None:
        """Undo `attach` (its cog unloaded)."""
        self.bot.controllers.pop(self.game, None)
        self.service.remove_listener(self)

    @property
    def service(self) -> GameService:
        """The game service of the running bot."""
        return self.bot.service

    # ---- moves --------------------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle a click: `act` applies the move the id (or the chosen select value) names; others go to on_verb."""
        if cid.verb == ACT:
            await self.act_clicked(interaction, cid, read_act(self.service.engine(cid.game), cid, values))
        else:
            await self.on_verb(interaction, cid, values)

    async def act_clicked(self, interaction: discord.Interaction[Any], cid: ComponentId, action: Action | None) -> None:
        """Apply a clicked move, refused if the game moved on since it was drawn (unless its kind is judged as the
        game stands: `Action.judged_when_stale`)."""
        version = None if action is not None and action.judged_when_stale else cid.version
        await self.act(interaction, cid.game_id, action, version=version)

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle a game-specific verb; the base knows none."""
        await self.refuse(interaction, Message(key="bot.reason.unknown_component"))

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, action: Action | None, *, version: int | None
    ) -> Outcome | None:
        """Apply a person's move and show it, or tell them privately why not; never raises for bad input.

        The move is None for a click or a command that names no move (refused as malformed). Once the move is
        stored, a failure to show it is told to the mover as such, and the listeners (timers, threads, the game's
        end) hear of the move whatever happened to the messages.
        """
        if action is None:
            await self.refuse(interaction, IllegalAction(CommonReason.MALFORMED_ACTION).message)
            return None
        try:
            outcome = await self.bot.moves.act(game_id, interaction.user.id, action, version)
        except ServiceError as error:
            stale = error.reason is ServiceReason.STALE
            await self.refuse(interaction, error.message, game_id=game_id if stale else None)
            return None
        except IllegalAction as error:
            await self.refuse(interaction, error.message)
            return None
        try:
            await self.publish(outcome, interaction)
        except Exception as error:
            await self.publish_failed(outcome.record, interaction, error)
        finally:
            await self.service.after_move(outcome)
        return outcome

    async def on_unclicked_move(self, outcome: Outcome) -> None:
        """Show a move nobody clicked for (a bot player's, or one played for an absent person) in one of this
        controller's games."""
        if outcome.record.game != self.game:
            return
        try:
            await self.publish(outcome, None)
        except Exception as error:
            await self.publish_failed(outcome.record, None, error)

    async def publish_failed(
        self, record: GameRecord, interaction: discord.Interaction[Any] | None, error: Exception
    ) -> None:
        """A stored move could not be shown: close a game whose place is gone, else tell the mover the truth."""
        if place_gone(error):
            await self.bot.places.gone(record, reason=str(error))
            self.forget(record.id)  # also when it had finished already (no close to hear of then)
            return
        if record.status == "finished":  # its end is shown later from the store (catch-up), not from memory
            self.forget(record.id)
        language = language_of(interaction.locale) if interaction is not None else "en"
        if isinstance(error, discord.Forbidden) and error.code == MISSING_PERMISSIONS:
            lacking = permissions.missing_in(self.bot, record.channel_id)
            if not lacking and interaction is not None:
                lacking = permissions.missing(interaction.app_permissions, permissions.IN_CHANNEL)
            listed = ", ".join(text(language, f"bot.permission.{name}") for name in lacking or ["send_messages"])
            why = text(language, "bot.failure.why_permissions", permissions=listed)
            log.warning("game %s: no permission to show a move in channel %s", record.id, record.channel_id)
        elif isinstance(error, discord.HTTPException | aiohttp.ClientError | ConnectionError | TimeoutError):
            why = text(language, "bot.failure.why_discord")
            log.warning("game %s: Discord refused or did not answer a post: %r", record.id, error)
        else:
            why = text(language, "bot.failure.why_internal")
            log.error("game %s: showing a move failed", record.id, exc_info=error)
        if interaction is not None:
            await answer(interaction, Reply(text(language, "bot.failure.recorded_not_shown", why=why)))

    # ---- refusals -----------------------------------------------------------------------------------------

    async def refuse(
        self, interaction: discord.Interaction[Any], message: Message, *, game_id: int | None = None
    ) -> None:
        """Answer privately with the reason; with a game id (a stale click), with that player's controls now, or
        whose turn it is when they have nothing to do."""
        language = language_of(interaction.locale)
        content = render(language, message)
        view = None
        if game_id is not None:
            view = await self.fresh_controls(interaction, game_id, language)
            if view is None:
                content = await self._whose_turn(language, game_id) or content
        await answer(interaction, Reply(content, controls=view))

    async def fresh_controls(
        self, interaction: discord.Interaction[Any], game_id: int, language: str
    ) -> discord.ui.View | None:
        """Return up-to-date controls for whoever clicked something stale (None: nothing to offer)."""
        return None

    async def _whose_turn(self, language: str, game_id: int) -> str | None:
        """ "That button is from an earlier turn; it is X's turn now", for a stale click with nothing to offer."""
        try:
            record = await self.service.get(game_id)
            state = self.service.state(game_id)
        except ServiceError:
            return None
        names = self.names(record)
        acting = sorted(self.service.engine(record.game).to_act(state))
        if not acting:
            return None
        return text(language, "bot.reason.stale_not_yours", player=", ".join(names[seat] for seat in acting))

    # ---- the public messages ------------------------------------------------------------------------------

    async def start(self, record: GameRecord, interaction: discord.Interaction[Any]) -> None:
        """Present a game that just left its lobby (under `showing`: a catch-up may have shown it first)."""
        raise NotImplementedError

    async def publish(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Present an accepted move (interaction is None for bot players' moves)."""
        raise NotImplementedError

    async def catch_up(self, record: GameRecord) -> None:
        """Show the game as it stands now in its channel, which missed one or more moves (or its end, or its
        start: shown as the opening when nobody has moved yet); nothing if it was shown meanwhile (`showing`)."""
        raise NotImplementedError

    async def ensure_shown(self, game_id: int) -> None:
        """Bring a running game's channel up to date if a move was stored but not shown (one still being
        published shows itself; of Start and a catch-up, whichever comes first shows the game: `showing`)."""
        if not self.bot.shown.behind(game_id) or game_id in self._pending:
            return
        try:
            record = await self.service.get(game_id)
        except ServiceError:
            return
        try:
            await self.catch_up(record)
        except Exception as error:
            await self.publish_failed(record, None, error)

    async def show_turn(
        self,
        record: GameRecord,
        message: TurnMessage,
        interaction: discord.Interaction[Any] | None,
        *,
        in_place: bool = False,
        kind: str = "turn",
    ) -> None:
        """Show a game's new public message: edit the turn message in place, or post a new one (of this kind: the
        final one is no turn's) and retire the old one's controls; the click is acknowledged first, so drawing and
        posting never make it late."""
        typed = interaction is not None and interaction.type is discord.InteractionType.application_command
        if interaction is not None:
            await self.acknowledge_turn(interaction)
        live = self._live.get(record.id)
        if in_place and live is not None and await self._edit(record, live.where, message):
            live.shows(message)
            if typed and interaction is not None:
                await answer(interaction, Reply(text(language_of(interaction.locale), "bot.answer.done")))
        else:
            await self.post_turn(record, message, answering=interaction if typed else None, kind=kind)
        self.bot.shown.mark_shown(record.id, record.version)

    async def post_turn(
        self,
        record: GameRecord,
        message: TurnMessage,
        told: Sequence[str] = (),
        *,
        answering: discord.Interaction[Any] | None = None,
        kind: str = "turn",
    ) -> None:
        """Post a new turn message and remember it as the live one (or the game's message of another kind); then
        retire the turn message before (in this order, so a failed post leaves controls to click)."""
        previous = await self.bot.shown.message(record.id, "turn")
        where = await self.post(record, message, kind=kind, answering=answering)
        if previous is not None:
            await self.retire_turn(record.id, previous)
        if kind == "turn":
            self._live[record.id] = LiveTurn(where, message, list(told))

    async def retire_turn(
        self, game_id: int, where: tuple[int, int] | None = None, story: Sequence[str] | None = None
    ) -> None:
        """Take the controls off a turn message (the game's current one by default), its story told as `story`
        when it is the live one (see `TurnMessage.finished`); a message already retired is left alone."""
        where = where or await self.bot.shown.message(game_id, "turn")
        if where is None or self._retired.get(game_id) == where:
            return
        live = self._live.get(game_id)
        if live is not None and live.where == where:
            del self._live[game_id]
            await self.retire(where, live.message.finished(story))
        else:
            await self.retire(where)
        self._retired[game_id] = where

    def forget(self, game_id: int) -> None:
        """Drop what is kept in memory about a game that ended."""
        for table in (self._locks, self._live, self._retired):
            table.pop(game_id, None)

    # ---- the game service's news ----------------------------------------------------------------------------

    async def on_moved(self, outcome: Outcome) -> None:
        """Forget a game of ours that a move finished, or that closed while the move was being shown."""
        game_id = outcome.record.id
        if outcome.record.game == self.game and (outcome.finished or await self._closed(game_id)):
            self.forget(game_id)

    async def on_closed(self, record: GameRecord) -> None:
        """Forget a game of ours that was cancelled or ended early, however (after its message was retired)."""
        if record.game == self.game:
            self.forget(record.id)

    async def _closed(self, game_id: int) -> bool:
        """Whether a game is over (a running game is in memory: no database read)."""
        try:
            record = await self.service.get(game_id)
        except ServiceError:
            return True
        return record.status not in ("lobby", "active")

    @staticmethod
    async def acknowledge_turn(interaction: discord.Interaction[Any]) -> None:
        """Acknowledge a move answered by the public turn message: a command "thinks" publicly (the new message
        will be its answer), a click defers its update. Idempotent."""
        if interaction.type is discord.InteractionType.application_command:
            await think(interaction, private=False)
        else:
            await acknowledge(interaction)

    async def post(
        self,
        record: GameRecord,
        message: TurnMessage,
        *,
        kind: str = "turn",
        answering: discord.Interaction[Any] | None = None,
    ) -> tuple[int, int]:
        """Post a public message where the game is played (as the answer to a command that "thinks" publicly, if
        given) and remember it as the game's message of this kind; return where it is."""
        posted: discord.Message
        kwargs = (await self.linked(record, message)).send_kwargs()
        if message.ping:  # only the players who kept the channel ping on (/notify)
            pinged = [discord.Object(id=user_id) for user_id in await self.bot.notifications.pinged(record)]
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=pinged, roles=False, everyone=False)
        if answering is not None:
            posted = await answering.followup.send(files=message.files(), wait=True, **kwargs)
        else:
            channel = self.bot.get_partial_messageable(record.channel_id)
            posted = await channel.send(files=message.files(), **kwargs)
        self.bot.shown.remember_message(record.id, kind, record.channel_id, posted.id)
        return record.channel_id, posted.id

    async def retire(self, where: tuple[int, int], finished: TurnMessage | None = None) -> None:
        """Take the controls off an older message: show `finished` (its turn as it ended; its pictures are kept, not
        sent again) or, when that is not known (after a restart), the message as it is without its action rows.
        A message deleted meanwhile is not an error."""
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            if finished is not None:
                await partial.edit(**finished.send_kwargs())
                return
            posted = await partial.fetch()
            if posted.flags.components_v2:
                await partial.edit(view=_without_controls(posted))
            elif posted.components:
                await partial.edit(view=None)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            log.info("turn message %s was deleted; nothing to retire", message_id)

    async def _edit(
        self, record: GameRecord, where: tuple[int, int], message: TurnMessage, *, same_pictures: bool = False
    ) -> bool:
        """Edit a public message of a game in place (its pictures are sent again unless `same_pictures`); False when
        it was deleted meanwhile or is of the older kind that cannot become Components V2 (post a new one instead)."""
        channel_id, message_id = where
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        kwargs = (await self.linked(record, message)).send_kwargs()
        if not same_pictures:
            kwargs["attachments"] = message.files()
        try:
            await partial.edit(**kwargs)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            return False
        except discord.HTTPException as error:
            if error.status != BAD_REQUEST:
                raise
            log.info("message %s cannot be edited into the new form (%s); posting a new one", message_id, error)
            return False
        return True

    async def linked(self, record: GameRecord, message: TurnMessage) -> TurnMessage:
        """A game's public message with the link to its live board page, fresh, when the board pages are on."""
        url = self.bot.board_link(record.id)
        if url is None:
            return message
        return replace(message, link=(text(await self.public_language(record), "web.button.open"), url))

    async def public_language(self, record: GameRecord) -> str:
        """Return the language of a game's public messages: the server's choice, else the bot's default."""
        return await self.bot.public_language(record.guild_id)

    @staticmethod
    def names(record: GameRecord) -> Mapping[int, str]:
        """Return seat -> display name for narrating a game (bot players marked, markdown escaped)."""
        return seat_names(record)

    @staticmethod
    def mention(record: GameRecord, seat: int) -> str:
        """Return a mention that pings the person in a seat (a bot player's name otherwise)."""
        found = next(s for s in record.seats if s.seat == seat)
        return f"<@{found.user_id}>" if found.user_id is not None else seat_names(record)[seat]
