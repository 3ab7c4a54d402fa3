"""The private /notify panel: what a person chose, a menu for DMs and a button for the channel ping.

Its components are persistent (`NotifyComponent`, a custom id `notify:<field>:<value>`), so a panel left open
across a restart still works.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, text
from bot.storage.notifications import DELAYS, NotifyPrefs
from bot.ui.answers import Reply, answer

if TYPE_CHECKING:
    from bot.app import Conductor

DM_OFF = "off"
"""The DM menu's value for no DMs (the others are the delays in minutes)."""


def panel(language: str, prefs: NotifyPrefs) -> Reply:
    """The panel as a private answer, in the reader's language."""
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
    return Reply("\n".join(lines), controls=view)


def _dm_label(language: str, value: str) -> str:
    if value == DM_OFF:
        return text(language, "notify.panel.option_off")
    if value == "0":
        return text(language, "notify.panel.option_now")
    return text(language, "notify.panel.option_after", minutes=int(value))


class NotifyComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"notify:(?P<field>dm|ping)(?::(?P<value>on|off))?"
):
    """A control of the /notify panel: the DM menu or the channel ping switch; each click redraws the panel."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NotifyComponent:
        """Rebuild the control from a click on any panel, old or new."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Conductor]) -> None:  # type: ignore[override]
        """Store the person's choice and show the panel as it is now, in place."""
        language = language_of(interaction.locale)
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        notifications = interaction.client.notifications
        if custom_id == "notify:dm":
            value = str((data.get("values") or [DM_OFF])[0])
            dm = value != DM_OFF
            delay = int(value) if dm and value.isdigit() and int(value) in DELAYS else 0
            prefs = await notifications.choose(interaction.user.id, language, dm=dm, delay_minutes=delay)
        else:
            prefs = await notifications.choose(interaction.user.id, language, ping=custom_id.endswith(":on"))
        await answer(interaction, panel(language, prefs), replace=True)
