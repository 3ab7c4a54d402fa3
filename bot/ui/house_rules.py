"""What a server's settings mean for someone opening a game: may they, with which options and timers, and where."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import text
from bot.services.errors import ServiceError, ServiceReason
from bot.services.guild_config import (
    MAX_MINUTES,
    MAX_MISSED,
    AfkPolicy,
    GuildConfigService,
    LobbyLimits,
    TimerPolicy,
)
from bot.storage.games import GameRecord

if TYPE_CHECKING:
    from bot.ui.parts import Bot

TIMER_OVERRIDES = {
    "reminder": "reminder_minutes",
    "timeout": "timeout_minutes",
    "afk": "on_timeout",
    "missed": "missed_limit",
}
"""/newgame's timer parameters and the timer policy field each overrides for that one game."""


@dataclass(frozen=True)
class NewGamePlan:
    """A new game as the server's settings and the host's choices make it."""

    options: dict[str, Any]
    timers: TimerPolicy
    threads: bool | None
    bots_allowed: bool
    limits: LobbyLimits


def timer_lines(language: str, policy: TimerPolicy) -> list[str]:
    """A timer policy as short lines: the reminder, the timeout and its policy, the hand-over."""
    lines = [
        text(language, "admin.timers.reminder_after", minutes=policy.reminder_minutes)
        if policy.reminder_minutes
        else text(language, "admin.timers.no_reminder")
    ]
    if policy.timeout_minutes:
        policy_words = text(language, f"admin.timers.policy.{policy.on_timeout.value}")
        lines.append(text(language, "admin.timers.timeout_after", minutes=policy.timeout_minutes, policy=policy_words))
        if policy.missed_limit:
            lines.append(text(language, "admin.timers.hand_over_after", missed=policy.missed_limit))
        else:
            lines.append(text(language, "admin.timers.never_hand_over"))
    else:
        lines.append(text(language, "admin.timers.no_timeout"))
    return lines


async def lobby_house_rules(bot: Bot, record: GameRecord, language: str) -> tuple[list[str], bool]:
    """What a lobby shows of the house rules: its timer policy in words, and whether bot players may be seated."""
    policy = await bot.timers.policy(record.id)
    config = await bot.config.get(record.guild_id)
    return timer_lines(language, policy), config.bots_allowed


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the person may manage this server (Discord's default for /config is only a hint: check in code)."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def role_ids(user: discord.abc.User) -> set[int]:
    """The ids of the roles a member holds (none outside a server)."""
    return {role.id for role in getattr(user, "roles", [])}


async def plan_new_game(
    bot: Bot,
    interaction: discord.Interaction[Any],
    game: str,
    chosen: Mapping[str, Any],
    timer_choices: Mapping[str, Any] | None = None,
) -> NewGamePlan:
    """Check the person may open a game, and build its options and timers (host overrides within what the server
    allows); refused with the reason."""
    service: GuildConfigService = bot.config
    config = await service.get(interaction.guild_id)
    if not service.may_create_games(config, role_ids(interaction.user), admin=is_admin(interaction)):
        raise ServiceError(ServiceReason.NOT_A_CREATOR, role=f"<@&{config.creator_role_id}>")
    options = service.options_for_new_game(config, game, chosen)
    overrides = {TIMER_OVERRIDES[name]: value for name, value in (timer_choices or {}).items() if value is not None}
    timers = service.timers_for_new_game(config, overrides)
    return NewGamePlan(
        options=options,
        timers=timers,
        threads=config.threads,
        bots_allowed=config.bots_allowed,
        limits=config.limits,
    )


def timer_parameters() -> list[inspect.Parameter]:
    """/newgame's optional timer parameters (for one game), to append to its signature."""
    minutes = app_commands.Range[int, 0, MAX_MINUTES]
    kinds: dict[str, Any] = {
        "reminder": minutes,
        "timeout": minutes,
        "afk": str,
        "missed": app_commands.Range[int, 0, MAX_MISSED],
    }
    return [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, annotation=kinds[n], default=None) for n in TIMER_OVERRIDES
    ]


TIMER_DESCRIPTIONS = {name: text("en", f"commands.newgame.{name}.description") for name in TIMER_OVERRIDES}
"""/newgame's timer parameters described in English (Russian comes through the command translator)."""
TIMER_CHOICES = {
    "afk": [app_commands.Choice(name=text("en", f"commands.choice.{p.value}"), value=p.value) for p in AfkPolicy]
}
"""The choices of /newgame's timer parameters that have them."""
