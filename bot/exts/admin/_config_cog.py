"""/config: a server's settings, for people who may manage the server (shown to them by default, checked in code)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts.admin._words import limit_lines, player_lines, settings_embed, timers_lock_line
from bot.exts.shared_commands import offer_games
from bot.exts.stats import reset_question
from bot.games import GAMES, game_name
from bot.i18n import language_of, render, text
from bot.services.errors import ServiceError
from bot.services.guild_config import (
    MAX_GAMES_PER_PERSON,
    MAX_GAMES_PER_SERVER,
    MAX_LOBBIES_PER_PERSON,
    MAX_MINUTES,
    MAX_MISSED,
    MIN_MINUTES,
    AfkPolicy,
    GuildConfig,
    Language,
    echo,
)
from bot.ui.answers import reply_private
from bot.ui.house_rules import is_admin, timer_lines
from rules.engine import Level, Message

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.ui.parts import Bot

LANGUAGE_CHOICES = [
    app_commands.Choice(name=text("en", f"commands.choice.{value}"), value=value)
    for value in (*(lang.value for lang in Language), "default")
]
LEVEL_CHOICES = [app_commands.Choice(name=text("en", f"commands.choice.{v.value}"), value=v.value) for v in Level]
POLICY_CHOICES = [app_commands.Choice(name=text("en", f"commands.choice.{p.value}"), value=p.value) for p in AfkPolicy]
MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""


class ConfigCog(commands.Cog):
    """The /config group: show, change and reset a server's settings; changes apply to new games."""

    config = app_commands.Group(
        name="config",
        description=text("en", "commands.config.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        offer_games(self.option, self.reset)

    @config.command(name="show", description=text("en", "commands.config_show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Show the settings as a summary (privately)."""
        if await self._refused(interaction):
            return
        await self._answer(interaction, text(language_of(interaction.locale), "admin.summary.intro"))

    @config.command(name="option", description=text("en", "commands.config_option.description"))
    @app_commands.describe(
        game=text("en", "commands.config_option.game.description"),
        option=text("en", "commands.config_option.option.description"),
        value=text("en", "commands.config_option.value.description"),
        locked=text("en", "commands.config_option.locked.description"),
    )
    async def option(
        self, interaction: discord.Interaction[Any], game: str, option: str, value: str, locked: bool | None = None
    ) -> None:
        """Set the default of one variant option of a game (and whether hosts may change it)."""
        service = self.bot.config

        def edit(config: GuildConfig) -> GuildConfig:
            return service.with_option(config, game, option, value, locked=locked)

        if await self._change(interaction, edit):
            return
        language = language_of(interaction.locale)
        config = await service.get(interaction.guild_id)
        spec = service.spec(game, option)
        said = text(
            language,
            "admin.saved.option",
            game=game_name(language, game),
            option=render(language, spec.label()),
            value=render(language, spec.value_word(config.option_value(spec))),
        )
        if config.is_locked(spec):
            said += " " + text(language, "admin.saved.locked")
        await self._answer(interaction, said)

    @option.autocomplete("option")
    async def _option_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the chosen game's options by name (in the person's language)."""
        game = str(getattr(interaction.namespace, "game", "") or "")
        if game not in GAMES:
            return []
        language = language_of(interaction.locale)
        typed = current.strip().lower()
        found = []
        for spec in self.bot.config.specs(game):
            name = render(language, spec.label())
            if typed in name.lower() or typed in spec.name:
                found.append(app_commands.Choice(name=name[:100], value=spec.name))
        return found[:MAX_CHOICES]

    @option.autocomplete("value")
    async def _option_values(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the chosen option's allowed values (for a number: the range, and what was typed if it fits)."""
        game = str(getattr(interaction.namespace, "game", "") or "")
        name = str(getattr(interaction.namespace, "option", "") or "")
        if game not in GAMES:
            return []
        try:
            spec = self.bot.config.spec(game, name)
        except ServiceError:
            return []
        language = language_of(interaction.locale)
        if spec.kind == "int":
            typed = current.strip()
            shown = [typed] if typed.isdigit() else []
            shown += [str(spec.default)] if str(spec.default) not in shown else []
            return [app_commands.Choice(name=f"{v} ({spec.low}–{spec.high})", value=v) for v in shown]
        values: list[Any] = [True, False] if spec.kind == "bool" else list(spec.choices)
        choices = [
            app_commands.Choice(name=render(language, spec.value_word(v))[:100], value=_typed(v)) for v in values
        ]
        typed = current.strip().lower()
        return [c for c in choices if typed in c.name.lower() or typed in c.value][:MAX_CHOICES]

    @config.command(name="language", description=text("en", "commands.config_language.description"))
    @app_commands.describe(value=text("en", "commands.config_language.value.description"))
    @app_commands.choices(value=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], value: str) -> None:
        """Choose the language of public messages (or go back to the bot's default)."""
        if value != "default" and value not in {lang.value for lang in Language}:
            await self._refuse(interaction, Message(key="admin.reason.unknown_language", params={"value": echo(value)}))
            return
        chosen = None if value == "default" else Language(value)
        if await self._change(interaction, lambda config: config.model_copy(update={"language": chosen})):
            return
        language = language_of(interaction.locale)
        words = text(language, f"admin.language.{value}")
        await self._answer(interaction, text(language, "admin.saved.language", value=words))

    @config.command(name="threads", description=text("en", "commands.config_threads.description"))
    @app_commands.describe(enabled=text("en", "commands.config_threads.enabled.description"))
    async def threads(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        """Choose whether new games open in a thread of their own."""
        if await self._change(interaction, lambda config: config.model_copy(update={"threads": enabled})):
            return
        language = language_of(interaction.locale)
        await self._answer(
            interaction, text(language, "admin.saved.threads_on" if enabled else "admin.saved.threads_off")
        )

    @config.command(name="creators", description=text("en", "commands.config_creators.description"))
    @app_commands.describe(role=text("en", "commands.config_creators.role.description"))
    async def creators(self, interaction: discord.Interaction[Any], role: discord.Role | None = None) -> None:
        """Choose who may create games: everyone (no role given) or the members of one role."""
        role_id = None if role is None or role.is_default() else role.id
        if await self._change(interaction, lambda config: config.model_copy(update={"creator_role_id": role_id})):
            return
        language = language_of(interaction.locale)
        said = (
            text(language, "admin.saved.creators_everyone")
            if role_id is None
            else text(language, "admin.saved.creators_role", role=f"<@&{role_id}>")
        )
        await self._answer(interaction, said)

    @config.command(name="bots", description=text("en", "commands.config_bots.description"))
    @app_commands.describe(allowed=text("en", "commands.config_bots.allowed.description"))
    async def bots(self, interaction: discord.Interaction[Any], allowed: bool) -> None:
        """Choose whether bot players may be seated in lobbies."""
        if await self._change(interaction, lambda config: config.model_copy(update={"bots_allowed": allowed})):
            return
        language = language_of(interaction.locale)
        await self._answer(interaction, text(language, "admin.saved.bots_on" if allowed else "admin.saved.bots_off"))

    @config.command(name="players", description=text("en", "commands.config_players.description"))
    @app_commands.describe(
        afk_level=text("en", "commands.config_players.afk_level.description"),
        hints=text("en", "commands.config_players.hints.description"),
    )
    @app_commands.choices(afk_level=LEVEL_CHOICES)
    async def players(
        self, interaction: discord.Interaction[Any], afk_level: str | None = None, hints: bool | None = None
    ) -> None:
        """Set the level of the bot player that plays for absent people (their turns, or their seat for good), and
        whether players may ask for hints; both apply at once, to running games too."""
        levels = [level.value for level in Level]
        if afk_level is not None and afk_level not in levels:
            allowed: list[str | int | Message] = [Message(key=f"players.kind.{level}") for level in levels]
            reason = Message(
                key="admin.reason.not_a_choice",
                params={
                    "option": Message(key="commands.config_players.afk_level.name"),
                    "value": echo(afk_level),
                    "allowed": Message(key="admin.word.plain", params={"value": allowed}),
                },
            )
            await self._refuse(interaction, reason)
            return
        update: dict[str, Any] = {}
        if afk_level is not None:
            update["afk_level"] = Level(afk_level)
        if hints is not None:
            update["hints"] = hints
        if await self._change(interaction, lambda config: config.model_copy(update=update)):
            return
        language = language_of(interaction.locale)
        config = await self.bot.config.get(interaction.guild_id)
        await self._answer(
            interaction, "\n".join([text(language, "players.config.saved"), *player_lines(language, config)])
        )

    @config.command(name="timers", description=text("en", "commands.config_timers.description"))
    @app_commands.describe(
        reminder=text("en", "commands.config_timers.reminder.description"),
        timeout=text("en", "commands.config_timers.timeout.description"),
        on_timeout=text("en", "commands.config_timers.on_timeout.description"),
        missed=text("en", "commands.config_timers.missed.description"),
        locked=text("en", "commands.config_timers.locked.description"),
    )
    @app_commands.choices(on_timeout=POLICY_CHOICES)
    async def timers(
        self,
        interaction: discord.Interaction[Any],
        reminder: app_commands.Range[int, 0, MAX_MINUTES] | None = None,
        timeout: app_commands.Range[int, 0, MAX_MINUTES] | None = None,
        on_timeout: str | None = None,
        missed: app_commands.Range[int, 0, MAX_MISSED] | None = None,
        locked: bool | None = None,
    ) -> None:
        """Set the turn timer policy: any of the reminder, the timeout (each 0 or at least MIN_MINUTES), what a
        timeout does, the hand-over, and whether hosts may change them for one game."""
        changes = {
            "reminder_minutes": reminder,
            "timeout_minutes": timeout,
            "on_timeout": on_timeout,
            "missed_limit": missed,
        }
        service = self.bot.config

        def edit(config: GuildConfig) -> GuildConfig:
            update: dict[str, Any] = {"timers": service.with_timers(config.timers, **changes)}
            if locked is not None:
                update["timers_locked"] = locked
            return config.model_copy(update=update)

        if await self._change(interaction, edit):
            return
        language = language_of(interaction.locale)
        config = await service.get(interaction.guild_id)
        lines = [text(language, "admin.saved.timers"), *timer_lines(language, config.timers)]
        lines.append(timers_lock_line(language, config))
        await self._answer(interaction, "\n".join(lines))

    @config.command(name="limits", description=text("en", "commands.config_limits.description"))
    @app_commands.describe(
        lobbies_per_person=text("en", "commands.config_limits.lobbies_per_person.description"),
        games_per_person=text("en", "commands.config_limits.games_per_person.description"),
        games_per_server=text("en", "commands.config_limits.games_per_server.description"),
        lobby_expiry=text("en", "commands.config_limits.lobby_expiry.description"),
    )
    async def limits(
        self,
        interaction: discord.Interaction[Any],
        lobbies_per_person: app_commands.Range[int, 1, MAX_LOBBIES_PER_PERSON] | None = None,
        games_per_person: app_commands.Range[int, 1, MAX_GAMES_PER_PERSON] | None = None,
        games_per_server: app_commands.Range[int, 1, MAX_GAMES_PER_SERVER] | None = None,
        lobby_expiry: app_commands.Range[int, MIN_MINUTES, MAX_MINUTES] | None = None,
    ) -> None:
        """Set the caps on open lobbies and games (per person, per server) and when an idle lobby expires."""
        service = self.bot.config
        changes = {
            "lobbies_per_person": lobbies_per_person,
            "games_per_person": games_per_person,
            "games_per_server": games_per_server,
            "lobby_expiry_minutes": lobby_expiry,
        }

        def edit(config: GuildConfig) -> GuildConfig:
            return config.model_copy(update={"limits": service.with_limits(config.limits, **changes)})

        if await self._change(interaction, edit):
            return
        language = language_of(interaction.locale)
        config = await service.get(interaction.guild_id)
        await self._answer(
            interaction, "\n".join([text(language, "admin.saved.limits"), *limit_lines(language, config)])
        )

    @config.command(name="reset", description=text("en", "commands.config_reset.description"))
    @app_commands.describe(game=text("en", "commands.config_reset.game.description"))
    async def reset(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        """Put everything back to the defaults, or only one game's variant options."""
        service = self.bot.config

        def edit(config: GuildConfig) -> GuildConfig:
            return GuildConfig() if game is None else service.without_options(config, game)

        if await self._change(interaction, edit):
            return
        language = language_of(interaction.locale)
        said = (
            text(language, "admin.saved.reset_all")
            if game is None
            else text(language, "admin.saved.reset_game", game=game_name(language, game))
        )
        await self._answer(interaction, said)

    ratings = app_commands.Group(
        name="ratings", description=text("en", "commands.config_ratings.description"), parent=config
    )

    @ratings.command(name="reset", description=text("en", "commands.config_ratings_reset.description"))
    async def reset_ratings(self, interaction: discord.Interaction[Any]) -> None:
        """Ask (privately, with a confirm button) whether to reset the server's ratings in every game."""
        if await self._refused(interaction):
            return
        question, buttons = reset_question(language_of(interaction.locale))
        await reply_private(interaction, question, view=buttons)

    # ---- shared steps ----------------------------------------------------------------------------------------

    async def _refused(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse (privately) anyone who may not manage the server; True when refused."""
        if interaction.guild_id is not None and is_admin(interaction):
            return False
        await self._refuse(interaction, Message(key="admin.reason.not_an_admin"))
        return True

    async def _change(self, interaction: discord.Interaction[Any], edit: Callable[[GuildConfig], GuildConfig]) -> bool:
        """Check the person, then apply and store a change; True when refused (the person was told why)."""
        if await self._refused(interaction):
            return True
        assert interaction.guild_id is not None
        try:
            await self.bot.config.change(interaction.guild_id, edit)
        except ServiceError as error:
            await self._refuse(interaction, error.message)
            return True
        return False

    async def _refuse(self, interaction: discord.Interaction[Any], message: Message) -> None:
        await reply_private(interaction, render(language_of(interaction.locale), message))

    async def _answer(self, interaction: discord.Interaction[Any], said: str) -> None:
        """Answer privately with what was done and the settings now in force."""
        assert interaction.guild_id is not None
        language = language_of(interaction.locale)
        config = await self.bot.config.get(interaction.guild_id)
        running = await self.bot.records.count_open(guild_id=interaction.guild_id)
        await reply_private(interaction, said, embed=settings_embed(language, self.bot.config, config, running))


def _typed(value: Any) -> str:
    """A value as the text /config option reads back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
