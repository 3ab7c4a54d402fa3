"""The contract between the commands several games share (bot.exts.play) and each game: `SharedCommands`.

It lives outside the extension packages, so reloading one of them never leaves two versions of the contract.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands

from bot.games import GAMES
from bot.i18n import command_mention, language_of, render, text
from bot.services.errors import ServiceError
from bot.storage.games import GameRecord
from bot.ui.answers import reply_private

if TYPE_CHECKING:
    from bot.ui.parts import Bot


class SharedCommands:
    """A game's answers to /draw, /hand, /board, /score and /tickets in a channel playing it.

    The shared cog finds the game's answers among the loaded cogs by `game`. Each default says privately that
    the game has no such command, so a game overrides only the commands it has.
    """

    game: ClassVar[str]
    """The game id these answers are for."""

    def card_choices(self, language: str) -> list[app_commands.Choice[str]]:
        """What /draw offers in this game, worded in `language` (none when it has no /draw)."""
        return []

    async def draw(self, interaction: discord.Interaction[Any], record: GameRecord, card: str) -> None:
        """Take a card (`card` is one of `card_choices`' values)."""
        await lacking(interaction, record, "draw")

    async def hand(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the person's hand privately."""
        await lacking(interaction, record, "hand")

    async def board(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show the running game's board or table privately."""
        await lacking(interaction, record, "board")

    async def score(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Show privately where everyone stands in the running game."""
        await lacking(interaction, record, "score")

    async def tickets(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Draw tickets."""
        await lacking(interaction, record, "tickets")


async def own_game(bot: Bot, interaction: discord.Interaction[Any], game: str, command: str) -> GameRecord | None:
    """This channel's game of kind `game`, for a command only that game has; or a private answer why not: the
    channel (or a thread opened from it) plays another game, whose kind is named with the game the command belongs
    to; or none is played here (pointing to the person's game of that kind elsewhere, if any)."""
    channel_id = interaction.channel_id or 0
    try:
        return await bot.service.game_in_channel(channel_id, game, user_id=interaction.user.id)
    except ServiceError as error:
        refusal = error
    language = language_of(interaction.locale)
    other = await played_here(bot, channel_id)
    if other is None or other.game == game:  # its thread, or the person's own game elsewhere: the refusal points
        await reply_private(interaction, render(language, refusal.message))
        return None
    names = {"game": game_name(language, other.game), "owner": game_name(language, game)}
    mention = command_mention(command)
    if other.channel_id == channel_id:
        answer = text(language, "play.reason.another_games_command", command=mention, **names)
    else:
        answer = text(
            language, "play.reason.another_games_command_in", command=mention, channel=f"<#{other.channel_id}>", **names
        )
    await reply_private(interaction, answer)
    return None


async def played_here(bot: Bot, channel_id: int) -> GameRecord | None:
    """The open game of a channel, or of a thread opened from it (a server that plays each game in a thread)."""
    try:
        return await bot.service.game_in_channel(channel_id)
    except ServiceError:
        pass
    in_threads = await bot.records.open_games_in_threads_of(channel_id)
    return await bot.records.get(in_threads[0]) if in_threads else None


def game_name(language: str, game: str) -> str:
    """A game's name as people read it (its id when the game is not loaded)."""
    info = GAMES.get(game)
    return text(language, f"bot.game.{info.namespace}") if info is not None else game


async def lacking(interaction: discord.Interaction[Any], record: GameRecord, command: str) -> None:
    """Say privately that the channel's game has no such command."""
    language = language_of(interaction.locale)
    game = game_name(language, record.game)
    await reply_private(
        interaction, text(language, "play.reason.no_such_command", command=command_mention(command), game=game)
    )


def offer_games(*commands: app_commands.Command[Any, ..., Any], by_name: bool = False) -> None:
    """Give the `game` option of a cog's commands the listed games as choices, named in English (sorted by name if
    asked), as the cog is made: a game listed before the bot is created is offered too. Their names are worded in
    each language as the decorator's are (`commands.choice.<game id>`)."""
    choices: list[app_commands.Choice[str | int | float]] = [
        app_commands.Choice(name=app_commands.locale_str(text("en", f"bot.game.{info.namespace}")), value=game)
        for game, info in GAMES.items()
    ]
    if by_name:
        choices.sort(key=lambda choice: choice.name)
    for command in commands:
        # discord.py sets choices only by decorator, at import; the cog's own copy of the command takes them here
        command._params["game"] = replace(command._params["game"], choices=choices)
