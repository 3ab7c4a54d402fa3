"""The one persistent component class: every button and select of every game routes through it.

discord.py calls `from_custom_id` for any component whose custom id matches our grammar, on any message, also
after a restart, so no View needs to be kept in memory. Messages are sent with Views made only of these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.ui.custom_ids import PATTERN, ComponentId

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class GameComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=PATTERN):
    """A button or select whose custom id follows the grammar; a click goes to the game's controller."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameComponent:
        """Rebuild the component from a click on any message, old or new."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the controller of the game named in the custom id."""
        cid = ComponentId.parse(str(self.item.custom_id))  # type: ignore[attr-defined]
        if cid is None:
            return
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        bot: Bot = interaction.client
        await bot.route_component(interaction, cid, values)


def button(
    cid: ComponentId,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> GameComponent:
    """Make a persistent button."""
    return GameComponent(
        discord.ui.Button(label=label[:80], custom_id=str(cid), style=style, emoji=emoji, disabled=disabled, row=row)
    )


def select(
    cid: ComponentId,
    placeholder: str,
    options: Sequence[discord.SelectOption],
    *,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> GameComponent:
    """Make a persistent select menu (at most 25 options, Discord's limit)."""
    return GameComponent(
        discord.ui.Select(
            custom_id=str(cid),
            placeholder=placeholder[:150],
            options=list(options)[:25],
            min_values=min_values,
            max_values=min(max_values, len(options), 25),
            row=row,
        )
    )


def view_of(items: Sequence[GameComponent]) -> discord.ui.View:
    """Put components in a View that never times out (they are persistent; nothing is kept per message)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
