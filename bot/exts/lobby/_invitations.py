"""Invitations into a lobby that people control: a person is invited (and pinged) once per lobby, a lobby sends at
most `INVITATIONS_PER_LOBBY` invitations, the invited may Decline, and nobody is invited by someone whose
invitations they refuse on that server (/notify): such an invitation is refused privately, nothing posted, nobody
pinged. Every invitation, from the "Invite to a game" menu or a Rematch, is claimed here before it is posted.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot.i18n import escaped, text
from bot.storage.games import GameRecord
from bot.storage.notifications import Invitation
from bot.ui.components import button, view_of
from bot.ui.custom_ids import LOBBY, ComponentId
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

ENTER = "enter"
"""The verb of the Join button of an invitation (posted apart from the lobby, which it redraws)."""
DECLINE = "decline"
"""The verb of the Decline button of an invitation."""
INVITATIONS_PER_LOBBY = 10
"""The most people invited into one lobby (each once), whoever invites them."""


def invitation_buttons(language: str, record: GameRecord) -> discord.ui.View:
    """The Join and Decline buttons of an invitation to a lobby."""
    join = button(
        ComponentId(LOBBY, record.id, record.version, ENTER),
        text(language, "lobby_control.button.join"),
        style=discord.ButtonStyle.primary,
    )
    decline = button(
        ComponentId(LOBBY, record.id, record.version, DECLINE), text(language, "lobby_control.button.decline")
    )
    return view_of([join, decline])


class InvitationLedger:
    """Who was invited into each lobby: the one door every invitation goes through before it is posted."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._claiming: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        """Lobby id → its lock: the invitations of one lobby are counted and recorded one at a time."""

    async def claim(
        self, record: GameRecord, inviter_id: int, member_id: int, member_name: str, *, again: bool = False
    ) -> Message | None:
        """Record that a person is about to be invited into a lobby, or return why they may not be (nothing
        recorded then): they refuse the inviter's invitations on this server, they were invited into it already
        (unless `again`: the host inviting back a person they removed), or the lobby has sent all it may."""
        refused = await self.refused(record.guild_id or 0, inviter_id, member_id, member_name)
        if refused is not None:
            return refused
        member = {"member": escaped(member_name)}
        invitations = self.bot.invitations
        async with self._claiming[record.id]:
            invited = await invitations.invitations(record.id)
            earlier = next((i for i in invited if i.user_id == member_id), None)
            if earlier is not None and not again:
                key = "declined" if earlier.declined else "already_invited"
                return Message(key=f"lobby_control.reason.{key}", params=member)
            if earlier is None and len(invited) >= INVITATIONS_PER_LOBBY:
                return Message(key="lobby_control.reason.invitations_spent", params={"limit": INVITATIONS_PER_LOBBY})
            if not await invitations.invite(Invitation(record.id, member_id, inviter_id), again=again):
                return Message(key="lobby_control.reason.already_invited", params=member)  # another process's
        return None

    async def refused(self, guild_id: int, inviter_id: int, member_id: int, member_name: str) -> Message | None:
        """Why a person may not be invited by this inviter on a server (they refuse the inviter's invitations there,
        or everyone's), said plainly; None when they take them."""
        refusals = await self.bot.notifications.refusals(guild_id, member_id)
        if not refusals.refuses(inviter_id):
            return None
        key = "refuses_everyone" if refusals.everyone else "refuses_you"
        return Message(key=f"lobby_control.reason.{key}", params={"member": escaped(member_name)})

    async def decline(self, game_id: int, user_id: int) -> Invitation | None:
        """Mark a person's invitation into a lobby declined (nobody can invite them into it again); it, or None
        when they were not invited into it."""
        return await self.bot.invitations.decline(game_id, user_id)

    def forget(self, game_id: int) -> None:
        """Drop the lock of a lobby that started or closed."""
        self._claiming.pop(game_id, None)
