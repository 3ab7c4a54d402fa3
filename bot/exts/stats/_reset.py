"""The question /config ratings reset asks, and its two buttons: persistent, so a click after a restart is still
answered; each click checks again that the person may manage the server, and a question older than
`QUESTION_SECONDS` changes nothing."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, text
from bot.ui.answers import reply_private, update
from bot.ui.house_rules import is_admin

if TYPE_CHECKING:
    from bot.ui.parts import Bot

QUESTION_SECONDS = 300
RESET, KEEP = "reset", "keep"


class ResetRatingsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ratings:(?P<asked>[0-9]+):(?P<verb>reset|keep)"
):
    """Reset this server's ratings, or keep them; the custom id holds when the question was asked."""

    def __init__(self, verb: str, asked: int, label: str = "") -> None:
        style = discord.ButtonStyle.danger if verb == RESET else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=f"ratings:{asked}:{verb}"))
        self.verb = verb
        self.asked = asked

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResetRatingsButton:
        """Rebuild the button from a click on the question, old or new."""
        return cls(match["verb"], int(match["asked"]), str(getattr(item, "label", "") or ""))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Reset (or keep) the ratings, and replace the question with what was done."""
        bot: Bot = interaction.client
        if not await bot.admit(interaction, "command"):
            return
        language = language_of(interaction.locale)
        if interaction.guild_id is None or not is_admin(interaction):
            await reply_private(interaction, text(language, "admin.reason.not_an_admin"))
            return
        if time.time() - self.asked > QUESTION_SECONDS:
            said = text(language, "stats.reset.expired")
        elif self.verb == RESET:
            said = text(language, "stats.reset.done", count=await bot.rating_records.reset(interaction.guild_id))
        else:
            said = text(language, "stats.reset.kept")
        await update(interaction, content=said, view=None)


def reset_question(language: str) -> tuple[str, discord.ui.View]:
    """The question and its buttons, asked now."""
    asked = int(time.time())
    view = discord.ui.View(timeout=None)
    view.add_item(ResetRatingsButton(RESET, asked, text(language, "stats.reset.button")))
    view.add_item(ResetRatingsButton(KEEP, asked, text(language, "stats.reset.cancel")))
    return text(language, "stats.reset.confirm"), view
