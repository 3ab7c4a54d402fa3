"""Lobby control: the host removes a person, Rematch, invitations (the "Invite to a game" user menu) and their Join.

A person the host removed may not join that lobby again (Join says so, privately) unless the host invites them back
with the menu; an invitation by anyone else does not lift it. Only people seated in a lobby may invite others to it;
with no game in the channel, the menu offers the games to open one with (the inviter as host, /newgame's checks).
Each invitation goes through the lobby's `InvitationLedger` (once per person per lobby, a cap, refusals) before it is
posted; its Decline button offers, privately, to refuse the inviter's invitations or everyone's (as /notify does).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.exts.lobby._invitations import DECLINE, ENTER, InvitationLedger, invitation_buttons
from bot.exts.lobby._rematch import Rematches
from bot.exts.lobby._seating import OpenLobby, Seating
from bot.exts.notify import refusal_buttons
from bot.games import GAMES, game_name
from bot.i18n import escaped, language_of, render, text
from bot.services.errors import ServiceError, ServiceReason
from bot.storage.games import GameRecord
from bot.ui.answers import Reply, answer, reply_private, say_in_public
from bot.ui.components import select, view_of
from bot.ui.custom_ids import LOBBY, REMATCH, ComponentId
from bot.ui.house_rules import is_admin, role_ids
from bot.ui.permissions import explain, missing_here
from rules.engine import Message

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

INVITE_MENU = "Invite to a game"
"""The user context menu's name (Discord allows spaces and capitals in these; ≤ 32 characters)."""
KICK, KICK_WHO, INVITE = "kick", "kickwho", "invite"
VERBS = (KICK, KICK_WHO, ENTER, DECLINE, REMATCH, INVITE)
"""The lobby verbs handled here rather than by the lobby's own buttons."""


class LobbyControl:
    """The host's removals, rematches and invitations, for the lobby's controller and the user menu."""

    def __init__(self, bot: Bot, redraw: Callable[[GameRecord], Awaitable[None]], open_lobby: OpenLobby) -> None:
        self.bot = bot
        self.redraw = redraw
        """Shows a lobby as it is now in its message (the lobby controller's)."""
        self.open_lobby = open_lobby
        self.invitations = InvitationLedger(bot)
        self.rematches = Rematches(bot, self.invitations)

    async def on_verb(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Handle one of `VERBS`."""
        if cid.verb == REMATCH:
            await self.rematches.open(interaction, cid, self.open_lobby)
        elif cid.verb == KICK:
            await self._choose_kick(interaction, cid)
        elif cid.verb == KICK_WHO:
            await self._kick(interaction, cid, values)
        elif cid.verb == ENTER:
            await self._enter(interaction, cid)
        elif cid.verb == DECLINE:
            await self._decline(interaction, cid)
        else:
            await self._open_for_invite(interaction, cid, values)

    async def why_not(self, game_id: int, user_id: int, error: ServiceError) -> Message:
        """The reason to give for a refused lobby click: a person the host removed is told so."""
        if error.reason is ServiceReason.NOT_IN_LOBBY and await self.bot.records.removed_from(game_id, user_id):
            return Message(key="lobby_control.reason.removed")
        return error.message

    async def join(self, game_id: int, user: discord.abc.User) -> GameRecord:
        """Seat a person in a lobby; in a rematch lobby at their rotated place."""
        plan = await self.rematches.order(game_id)
        order = plan.place if plan is not None else None
        return await self.bot.lobby.join(game_id, user.id, user.display_name, order=order)

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a lobby that started or closed."""
        self.rematches.forget(game_id)
        self.invitations.forget(game_id)

    # ---- the host removes a person ----------------------------------------------------------------------------

    async def _choose_kick(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        """Ask the host privately whom to remove (the lobby stays as it is until they choose)."""
        language = language_of(interaction.locale)
        try:
            record = await self.bot.service.get(cid.game_id)
            if record.status != "lobby":
                raise ServiceError(ServiceReason.ALREADY_STARTED)
            if interaction.user.id != record.host_id:
                raise ServiceError(ServiceReason.ONLY_HOST)
            self.bot.lobby.check_lobby_version(record, cid.version)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        people = [s for s in record.seats if s.user_id is not None and s.user_id != record.host_id]
        if not people:
            await reply_private(interaction, text(language, "lobby_control.reason.nobody_to_remove"))
            return
        options = [discord.SelectOption(label=s.name[:100], value=str(s.user_id)) for s in people]
        menu = select(
            ComponentId(LOBBY, record.id, record.version, KICK_WHO),
            text(language, "lobby_control.remove.placeholder"),
            options,
        )
        await answer(interaction, Reply(text(language, "lobby_control.remove.choose"), controls=view_of([menu])))

    async def _kick(self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]) -> None:
        """Remove the person the host chose, redraw the lobby, and say so in the private message."""
        language = language_of(interaction.locale)
        if not values or not values[0].isdigit():
            await reply_private(interaction, text(language, "bot.reason.unknown_component"))
            return
        user_id = int(values[0])
        try:
            before = await self.bot.service.get(cid.game_id)
            record = await self.bot.lobby.kick(cid.game_id, interaction.user.id, user_id, version=cid.version)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        name = next((s.name for s in before.seats if s.user_id == user_id), str(user_id))
        await self.redraw(record)
        said = text(language, "lobby_control.remove.done", player=escaped(name))
        await answer(interaction, Reply(said), replace=True)

    # ---- invitations --------------------------------------------------------------------------------------

    async def _enter(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        """Join from an invitation: seat the clicker, redraw the lobby (elsewhere), and tell them privately."""
        language = language_of(interaction.locale)
        limit = (await self.bot.config.get(interaction.guild_id)).limits.games_per_person
        store = self.bot.records
        try:  # the same cap as the lobby's Join
            if await store.count_open(guild_id=interaction.guild_id, user_id=interaction.user.id) >= limit:
                raise ServiceError(ServiceReason.CAP_GAMES_PER_PERSON, limit=limit)
            record = await self.join(cid.game_id, interaction.user)
        except ServiceError as error:
            await reply_private(interaction, render(language, error.message))
            return
        await self.redraw(record)
        await reply_private(interaction, text(language, "lobby_control.invite.joined", id=record.id))

    async def _decline(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        """Decline an invitation (nobody can invite the clicker into that lobby again), and offer privately to refuse
        the inviter's invitations, or everyone's, on this server; refused privately for anyone not invited."""
        language = language_of(interaction.locale)
        invitation = await self.invitations.decline(cid.game_id, interaction.user.id)
        if invitation is None:
            await reply_private(interaction, text(language, "lobby_control.reason.not_invited"))
            return
        inviter = await self._name_of(interaction, cid.game_id, invitation.inviter_id)
        said = text(language, "lobby_control.invite.declined", id=cid.game_id, inviter=escaped(inviter))
        await answer(interaction, Reply(said, controls=refusal_buttons(language, invitation.inviter_id, inviter)))

    async def _name_of(self, interaction: discord.Interaction[Any], game_id: int, user_id: int) -> str:
        """A person's name: as seated in the game, else as a member of this server, else their id."""
        record = await self.bot.records.get(game_id)
        seated = next((s.name for s in record.seats if s.user_id == user_id), None) if record is not None else None
        member = interaction.guild.get_member(user_id) if interaction.guild is not None else None
        return seated or (member.display_name if member is not None else str(user_id))

    def menu(self) -> app_commands.ContextMenu:
        """The "Invite to a game" user menu (right-click a member → Apps)."""

        @app_commands.guild_only()
        async def invite(interaction: discord.Interaction[Any], member: discord.Member) -> None:
            await self.invite(interaction, member)

        return app_commands.ContextMenu(name=INVITE_MENU, callback=invite)

    async def invite(self, interaction: discord.Interaction[Any], member: discord.Member | discord.User) -> None:
        """Invite a member into this channel's lobby (a public invitation with a Join button), or, with no game
        here, offer the inviter privately the games to open one with; refused privately where it does not apply."""
        language = language_of(interaction.locale)
        user = interaction.user
        assert interaction.channel_id is not None, "the menu is for servers only"
        refusal: Message | None
        if member.bot:
            refusal = Message(key="lobby_control.reason.invite_bot")
        elif member.id == user.id:
            refusal = Message(key="lobby_control.reason.invite_self")
        else:
            here = await self.bot.records.in_channel(interaction.channel_id)
            if here:
                refusal = await self._invite_into(interaction, here[0], member)
            else:
                refusal = await self._offer_games(interaction, member)
        if refusal is not None:
            await reply_private(interaction, render(language, refusal))

    async def _invite_into(
        self, interaction: discord.Interaction[Any], record: GameRecord, member: discord.abc.User
    ) -> Message | None:
        """Post the invitation into this lobby (its one ping of the member), or return why not."""
        if record.seat_of(member.id) is not None:
            return Message(key="lobby_control.reason.already_in", params={"member": escaped(member.display_name)})
        if record.status != "lobby":
            return Message(key="lobby_control.reason.game_running")
        if record.seat_of(interaction.user.id) is None:
            return Message(key="lobby_control.reason.join_first")
        store = self.bot.records
        removed = await store.removed_from(record.id, member.id)
        if removed and interaction.user.id != record.host_id:
            return Message(key="lobby_control.reason.removed_by_host", params={"member": member.display_name})
        refusal = await self.invitations.claim(
            record, interaction.user.id, member.id, member.display_name, again=removed
        )
        if refusal is not None:
            return refusal
        if removed:
            await store.readmit(record.id, member.id)
        language = await self.bot.public_language(record.guild_id)
        await say_in_public(
            interaction,
            content=_invitation(language, record, interaction.user, member),
            view=invitation_buttons(language, record),
            allowed_mentions=discord.AllowedMentions(users=[member], roles=False, everyone=False),
        )
        return None

    async def _offer_games(self, interaction: discord.Interaction[Any], member: discord.abc.User) -> Message | None:
        """No game here: if the inviter may open one, and the member takes their invitations, offer them privately the
        games to invite the member to."""
        config = await self.bot.config.get(interaction.guild_id)
        if not self.bot.config.may_create_games(config, role_ids(interaction.user), admin=is_admin(interaction)):
            return Message(key="admin.reason.not_a_creator", params={"role": f"<@&{config.creator_role_id}>"})
        refusal = await self.invitations.refused(
            interaction.guild_id or 0, interaction.user.id, member.id, member.display_name
        )
        if refusal is not None:
            return refusal
        language = language_of(interaction.locale)
        lacking = missing_here(interaction)
        if lacking:
            await reply_private(interaction, explain(language, lacking, interaction.channel_id))
            return None
        options = [
            discord.SelectOption(label=game_name(language, game)[:100], value=game) for game, info in GAMES.items()
        ]
        menu = select(
            ComponentId(LOBBY, 0, 0, INVITE, str(member.id)),
            text(language, "lobby_control.invite.placeholder"),
            options,
        )
        said = text(language, "lobby_control.invite.pick", member=escaped(member.display_name))
        await answer(interaction, Reply(said, controls=view_of([menu])))
        return None

    async def _open_for_invite(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        """The inviter picked a game: open its lobby here through /newgame's path, then post the invitation (unless
        the member refused the inviter's invitations meanwhile: then the inviter is told privately)."""
        language = language_of(interaction.locale)
        game = values[0] if values else ""
        if game not in GAMES or not cid.arg.isdigit():
            await reply_private(interaction, text(language, "bot.reason.unknown_component"))
            return
        seating = Seating()
        await self.open_lobby(interaction, game, {}, {}, seating)
        record = seating.record
        if record is None:  # refused (and told why) by /newgame's checks
            return
        member = discord.Object(int(cid.arg))
        name = await self._name_of(interaction, record.id, member.id)
        refusal = await self.invitations.claim(record, interaction.user.id, member.id, name)
        if refusal is not None:
            await reply_private(interaction, render(language, refusal))
            return
        public = await self.bot.public_language(record.guild_id)
        channel = self.bot.get_partial_messageable(record.channel_id)
        try:
            await channel.send(
                _invitation(public, record, interaction.user, member),
                view=invitation_buttons(public, record),
                allowed_mentions=discord.AllowedMentions(users=[member], roles=False, everyone=False),
            )
        except discord.HTTPException as error:
            log.warning("could not post the invitation to game %s: %s", record.id, error)


def _invitation(language: str, record: GameRecord, inviter: discord.abc.User, member: discord.abc.Snowflake) -> str:
    """The public invitation: mentions the member (the one ping), names the inviter and the game."""
    return text(
        language,
        "lobby_control.invite.invitation",
        member=f"<@{member.id}>",
        inviter=f"<@{inviter.id}>",
        game=game_name(language, record.game),
        id=record.id,
    )
