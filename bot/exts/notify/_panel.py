"""The private /notify panel: what a person chose, a menu for DMs and a button for the channel ping; on a server,
whose invitations to games they refuse there (everyone's, with a button; some people's, with a people menu).

Its components are persistent (`NotifyComponent`, a custom id `notify:<field>[:<value>]`), so a panel left open
across a restart still works; a declined invitation offers two of them (`refusal_buttons`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, text
from bot.services.notifications import MAX_REFUSED, NotificationService
from bot.storage.notifications import DELAYS, NotifyPrefs, Refusals
from bot.ui.answers import Reply, answer

if TYPE_CHECKING:
    from bot.ui.parts import Bot

DM_OFF = "off"
"""The DM menu's value for no DMs (the others are the delays in minutes)."""
TEMPLATE = r"notify:(?P<field>dm|ping|invites|refused|refuse)(?::(?P<value>on|off|[0-9]+))?"
"""The custom ids of the panel's controls: `dm` (menu), `ping:on|off`, `invites:on|off` (everyone's invitations on
this server), `refused` (the people menu: exactly those refused), `refuse:<inviter id>` (one more refused)."""


async def current_panel(notifications: NotificationService, interaction: discord.Interaction[Any]) -> Reply:
    """The panel as the person's choices stand now, in their language (invitations only on a server)."""
    user_id, guild_id = interaction.user.id, interaction.guild_id
    refusals = await notifications.refusals(guild_id, user_id) if guild_id is not None else None
    return panel(language_of(interaction.locale), await notifications.prefs(user_id), refusals)


def panel(language: str, prefs: NotifyPrefs, refusals: Refusals | None = None) -> Reply:
    """The panel as a private answer, in the reader's language; `refusals`: those of the server it is shown on."""
    if not prefs.dm:
        dm = text(language, "notify.panel.dm_off")
    elif prefs.delay_minutes:
        dm = text(language, "notify.panel.dm_after", minutes=prefs.delay_minutes)
    else:
        dm = text(language, "notify.panel.dm_now")
    ping = text(language, "notify.panel.ping_on" if prefs.ping else "notify.panel.ping_off")
    lines = [text(language, "notify.panel.title"), f"• {dm}", f"• {ping}"]
    if prefs.dms_closed:
        lines.append(text(language, "notify.panel.closed"))
    chosen = DM_OFF if not prefs.dm else str(prefs.delay_minutes)
    menu: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="notify:dm",
        placeholder=text(language, "notify.panel.choose_dm"),
        options=[
            discord.SelectOption(label=_dm_label(language, value), value=value, default=value == chosen)
            for value in (DM_OFF, *(str(minutes) for minutes in DELAYS))
        ],
    )
    switch: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=f"notify:ping:{'off' if prefs.ping else 'on'}",
        label=text(language, "notify.panel.ping_switch_off" if prefs.ping else "notify.panel.ping_switch_on"),
        style=discord.ButtonStyle.secondary,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(NotifyComponent(menu))
    view.add_item(NotifyComponent(switch))
    if refusals is not None:
        lines += [text(language, "notify.panel.invites_title"), f"• {_invitations_line(language, refusals)}"]
        view.add_item(NotifyComponent(_everyone_switch(language, refuse=not refusals.everyone)))
        view.add_item(NotifyComponent(_people_menu(language, refusals)))
    return Reply("\n".join(lines), controls=view)


def _people_menu(language: str, refusals: Refusals) -> discord.ui.UserSelect[Any]:
    """The people menu: whoever is picked in it is refused (those refused now are picked already)."""
    return discord.ui.UserSelect(
        custom_id="notify:refused",
        placeholder=text(language, "notify.panel.choose_refused"),
        min_values=0,
        max_values=MAX_REFUSED,
        default_values=[discord.Object(id=user_id) for user_id in sorted(refusals.inviters)],
    )


def refusal_buttons(language: str, inviter_id: int, inviter_name: str) -> discord.ui.View:
    """The offer after a declined invitation: refuse this inviter's invitations on this server, or everyone's."""
    one: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=f"notify:refuse:{inviter_id}",
        label=text(language, "notify.panel.refuse_inviter", inviter=inviter_name[:40]),
        style=discord.ButtonStyle.secondary,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(NotifyComponent(one))
    view.add_item(NotifyComponent(_everyone_switch(language, refuse=True)))
    return view


def _everyone_switch(language: str, *, refuse: bool) -> discord.ui.Button[Any]:
    """The button that refuses everyone's invitations on this server, or (`refuse` False) takes them again."""
    return discord.ui.Button(
        custom_id=f"notify:invites:{'off' if refuse else 'on'}",
        label=text(language, "notify.panel.invites_switch_off" if refuse else "notify.panel.invites_switch_on"),
        style=discord.ButtonStyle.secondary,
    )


def _invitations_line(language: str, refusals: Refusals) -> str:
    if refusals.everyone:
        return text(language, "notify.panel.invites_none")
    if refusals.inviters:
        people = ", ".join(f"<@{user_id}>" for user_id in sorted(refusals.inviters))
        return text(language, "notify.panel.invites_but", people=people)
    return text(language, "notify.panel.invites_all")


def _dm_label(language: str, value: str) -> str:
    if value == DM_OFF:
        return text(language, "notify.panel.option_off")
    if value == "0":
        return text(language, "notify.panel.option_now")
    return text(language, "notify.panel.option_after", minutes=int(value))


class NotifyComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """A control of the /notify panel (or of a declined invitation's offer); each click shows the panel as it is then,
    in place."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NotifyComponent:
        """Rebuild the control from a click on any panel, old or new."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Store the person's choice and show the panel as it is now, in place."""
        data: Any = interaction.data or {}
        match = re.fullmatch(TEMPLATE, str(data.get("custom_id", "")))
        if match is None:
            return
        bot: Bot = interaction.client
        notifications = bot.notifications
        field, value = match["field"], match["value"] or ""
        values = [str(v) for v in data.get("values") or []]
        if field in ("dm", "ping"):
            await _choose(notifications, interaction, field, value, values)
        elif interaction.guild_id is not None:  # invitations are refused on a server, never in DMs
            await _refuse(notifications, interaction.guild_id, interaction.user.id, field, value, values)
        await answer(interaction, await current_panel(notifications, interaction), replace=True)


async def _choose(
    notifications: NotificationService, interaction: discord.Interaction[Any], field: str, value: str, values: list[str]
) -> None:
    """Store a choice of DMs (the menu's value) or of the channel ping."""
    language, user_id = language_of(interaction.locale), interaction.user.id
    if field == "dm":
        picked = (values or [DM_OFF])[0]
        dm = picked != DM_OFF
        delay = int(picked) if dm and picked.isdigit() and int(picked) in DELAYS else 0
        await notifications.choose(user_id, language, dm=dm, delay_minutes=delay)
    else:
        await notifications.choose(user_id, language, ping=value == "on")


async def _refuse(
    notifications: NotificationService, guild_id: int, user_id: int, field: str, value: str, values: list[str]
) -> None:
    """Store whose invitations a person refuses on a server: everyone's, exactly the people picked, or one more."""
    if field == "invites":
        await notifications.refuse_everyone(guild_id, user_id, value == "off")
    elif field == "refused":
        await notifications.refuse_inviters(guild_id, user_id, [int(v) for v in values if v.isdigit()])
    elif value.isdigit():
        await notifications.refuse_inviter(guild_id, user_id, int(value))
