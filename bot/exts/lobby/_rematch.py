"""Rematch: the Rematch button of a finished game's final message opens a new lobby of the same game and options in
the same place (threads as /newgame has them), the presser as host, the bot players seated again and every other
person invited by a public message that mentions them once (those who refuse the presser's invitations on this server
left out: the presser is told privately); each confirms by pressing Join, or Decline.

Seats rotate by one: the previous seat order shifted right, so the last player plays first, the first second, the
second third, and so on. The lobby opens with the host and the bot players at their rotated places; each invited
person takes their rotated place whenever they join (before anyone seated after that place); anyone else who joins
sits after all of them, in the order they joined; places of people who do not come close up.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.lobby._invitations import InvitationLedger, invitation_buttons
from bot.exts.lobby._seating import OpenLobby, Seating
from bot.games import game_name
from bot.i18n import language_of, render, text
from bot.links import jump_link
from bot.storage.games import GameRecord, SeatRecord
from bot.ui.answers import reply_private
from bot.ui.custom_ids import ComponentId

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RematchPlan:
    """The seating of a rematch lobby, worked out from the finished game it was opened from."""

    previous: GameRecord

    @property
    def rotated(self) -> list[SeatRecord]:
        """The previous seats in their new order: the last first, then the first, the second, …"""
        seats = sorted(self.previous.seats, key=lambda s: s.seat)
        return seats[-1:] + seats[:-1]

    def place(self, seat: SeatRecord) -> int:
        """Where a seat of the new lobby belongs (a sort key): its rotated place if it played before (a person by
        id, a bot player by name), else after every such place, in seat order."""
        for index, planned in enumerate(self.rotated):
            same_person = planned.user_id is not None and planned.user_id == seat.user_id
            if same_person or (planned.is_bot and seat.is_bot and planned.name == seat.name):
                return index
        return len(self.previous.seats) + seat.seat

    def first_seats(self, host_id: int, host_name: str, *, bots: bool) -> list[SeatRecord]:
        """The lobby's opening seats: the host and (if the server allows them) the bot players, in rotated order."""
        seated: list[SeatRecord] = []
        for planned in self.rotated:
            if planned.user_id == host_id:
                seated.append(SeatRecord(seat=len(seated), name=host_name, user_id=host_id))
            elif planned.is_bot and bots:
                seated.append(SeatRecord(seat=len(seated), name=planned.name, bot_kind=planned.bot_kind))
        return seated

    def invited(self, host_id: int) -> list[int]:
        """The people to invite: every other person who played, in rotated order."""
        return [s.user_id for s in self.rotated if s.user_id is not None and s.user_id != host_id]


class Rematches:
    """Opens rematches, and knows the seating plan of each rematch lobby (for Join)."""

    def __init__(self, bot: Bot, invitations: InvitationLedger) -> None:
        self.bot = bot
        self.invitations = invitations
        self._plans: dict[int, RematchPlan | None] = {}
        """Lobby id → its rematch plan (None: no rematch), as read once from the store."""
        self._opening = asyncio.Lock()
        """One rematch opens at a time, so two presses on one final message open one lobby (the store checks too)."""

    async def order(self, game_id: int) -> RematchPlan | None:
        """The rematch plan of a lobby, or None when it is no rematch."""
        if game_id not in self._plans:
            previous = await self.bot.records.rematched_from(game_id)
            self._plans[game_id] = None if previous is None else RematchPlan(previous)
        return self._plans[game_id]

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a lobby that started or closed."""
        self._plans.pop(game_id, None)

    async def open(self, interaction: discord.Interaction[Any], cid: ComponentId, open_lobby: OpenLobby) -> None:
        """Open the rematch of the finished game `cid` names, or refuse privately: the game is not finished, the
        presser did not play it, a rematch was opened already (pointed to), the channel has an open game."""
        language = language_of(interaction.locale)
        store = self.bot.records
        previous = await store.get(cid.game_id)
        if previous is None or previous.status != "finished":
            await reply_private(interaction, text(language, "lobby_control.reason.not_finished"))
            return
        if previous.seat_of(interaction.user.id) is None:
            await reply_private(interaction, text(language, "lobby_control.reason.did_not_play"))
            return
        async with self._opening:
            existing = await store.rematch_of(previous.id)
            if existing is not None:
                await reply_private(interaction, await self._already(language, existing))
                return
            assert interaction.channel_id is not None, "a final message is in a channel"
            busy = await store.in_channel(interaction.channel_id)
            if busy:
                await reply_private(interaction, text(language, "bot.reason.channel_busy", id=busy[0].id))
                return
            plan = RematchPlan(previous)
            bots = (await self.bot.config.get(interaction.guild_id)).bots_allowed
            seating = Seating(plan.first_seats(interaction.user.id, interaction.user.display_name, bots=bots))
            await open_lobby(interaction, previous.game, dict(previous.options), {}, seating)
            record = seating.record
            if record is None:  # refused (and told why) by /newgame's checks
                return
            await store.link_rematch(previous.id, record.id)
        self._plans[record.id] = plan
        await self._invite(interaction, record, plan, previous)

    async def _already(self, language: str, game_id: int) -> str:
        """The refusal for a second rematch: a link to the first one's lobby message (or its channel)."""
        record = await self.bot.records.get(game_id)
        where = await self.bot.shown.message(game_id, "lobby")
        if record is None or where is None:
            return text(language, "lobby_control.reason.rematch_exists", id=game_id, link=f"#{game_id}")
        link = jump_link(record.guild_id, *where)
        return text(language, "lobby_control.reason.rematch_exists", id=game_id, link=link)

    async def _invite(
        self, interaction: discord.Interaction[Any], record: GameRecord, plan: RematchPlan, previous: GameRecord
    ) -> None:
        """Mention every other person who played, once, in the new lobby's place, with Join and Decline buttons;
        those who refuse the host's invitations on this server are left out, and the host is told so privately."""
        invited, refused = [], []
        for user_id in plan.invited(record.host_id):
            name = next(s.name for s in previous.seats if s.user_id == user_id)
            refusal = await self.invitations.claim(record, record.host_id, user_id, name)
            if refusal is None:
                invited.append(user_id)
            else:
                refused.append(render(language_of(interaction.locale), refusal))
        if refused:
            await reply_private(interaction, "\n".join(refused))
        if not invited:
            return
        language = await self.bot.public_language(record.guild_id)
        said = text(
            language,
            "lobby_control.rematch.invitation",
            previous=previous.id,
            game=game_name(language, record.game),
            host=f"<@{record.host_id}>",
            people=", ".join(f"<@{user_id}>" for user_id in invited),
        )
        mentions = discord.AllowedMentions(users=[discord.Object(user_id) for user_id in invited], roles=False)
        channel = self.bot.get_partial_messageable(record.channel_id)
        try:
            await channel.send(said, view=invitation_buttons(language, record), allowed_mentions=mentions)
        except discord.HTTPException as error:  # the lobby is there to join all the same
            log.warning("could not post the rematch invitation of game %s: %s", record.id, error)
