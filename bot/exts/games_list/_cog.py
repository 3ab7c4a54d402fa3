"""/games [page] and /history [member] [page]: private lists of a server's games, ten to a page (/history: only
those of the channels the asker can view).

Ten entries keep an embed well inside Discord's limits (4096 characters of description, 6000 in all) with the
longest names; the page number is a slash option, so a page never goes stale and needs nothing kept in memory.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, game_name
from bot.i18n import escaped, fit, language_of, text
from bot.links import jump_link
from bot.services.errors import ServiceError
from bot.storage.games import DatedGame, GameRecord
from bot.ui.answers import reply_private, think
from bot.ui.names import seat_names
from bot.ui.visibility import seen_places
from rules.engine import GameResult

if TYPE_CHECKING:
    from bot.ui.parts import Bot

PAGE = 10
"""Entries on one page."""
MAX_DESCRIPTION = 4096
"""Discord's limit on an embed's description."""
_COLOUR = discord.Colour.from_rgb(46, 125, 50)


class GamesListCog(commands.Cog):
    """Lists of the server's games, answered privately."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description=text("en", "commands.games.description"))
    @app_commands.describe(page=text("en", "commands.games.page.description"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """The server's open lobbies and running games, newest first: game, place, players, whose turn, age."""
        assert interaction.guild_id is not None
        language = language_of(interaction.locale)
        store = self.bot.records
        listed, total = await store.listed(interaction.guild_id, ("lobby", "active"), limit=PAGE, offset=_skip(page))
        if not listed:
            key = "lobby_control.games.none" if total == 0 else "lobby_control.list.past_end"
            await reply_private(interaction, text(language, key, pages=_pages(total)))
            return
        entries = [self._open_entry(language, dated) for dated in listed]
        title = text(language, "lobby_control.games.title")
        await reply_private(interaction, "", embed=_page(language, title, entries, page, total))

    @app_commands.command(name="history", description=text("en", "commands.history.description"))
    @app_commands.describe(
        member=text("en", "commands.history.member.description"), page=text("en", "commands.history.page.description")
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """The server's finished games (of a member, if given) in the channels the asker can view, the latest first:
        game, date, places and scores, and a link to each final message."""
        assert interaction.guild_id is not None
        language = language_of(interaction.locale)
        await think(interaction, private=True)  # the results are reckoned off the loop
        store = self.bot.records
        user_id = member.id if member is not None else None
        places = await store.places(interaction.guild_id, ("finished",), user_id=user_id)
        listed, total = await store.listed(
            interaction.guild_id,
            ("finished",),
            user_id=user_id,
            places=await seen_places(interaction.user, places),
            limit=PAGE,
            offset=_skip(page),
            by_change=True,
        )
        if not listed:
            key = "lobby_control.history.none" if total == 0 else "lobby_control.list.past_end"
            await reply_private(interaction, text(language, key, pages=_pages(total)))
            return
        records = [dated.record for dated in listed]
        results = await asyncio.to_thread(_results, records)
        finals = {r.id: await self.bot.shown.message(r.id, "final") for r in records}  # memory holds the newest
        entries = [
            _finished_entry(language, dated, result, finals.get(dated.record.id))
            for dated, result in zip(listed, results, strict=True)
        ]
        key = "lobby_control.history.title" if member is None else "lobby_control.history.title_of"
        title = text(language, key, member=escaped(member.display_name) if member is not None else "")
        await reply_private(interaction, "", embed=_page(language, title, entries, page, total))

    def _open_entry(self, language: str, dated: DatedGame) -> str:
        """One open game: its name and id, where, its state and age; who sits; whose turn it is."""
        record = dated.record
        info = GAMES[record.game]
        names = seat_names(record)
        if record.status == "lobby":
            state = text(language, "lobby_control.games.lobby", n=len(record.seats), max=info.engine.max_players)
        else:
            state = text(language, "lobby_control.games.running")
        head = text(
            language,
            "lobby_control.games.entry",
            game=game_name(language, record.game),
            id=record.id,
            channel=f"<#{record.channel_id}>",
            state=state,
            age=f"<t:{_unix(dated.created_at)}:R>",
        )
        lines = [head, ", ".join(names[s.seat] for s in record.seats)]
        acting = self._acting(record)
        if acting:
            lines.append(text(language, "lobby_control.games.turn", players=", ".join(names[s] for s in acting)))
        return "\n".join(lines)

    def _acting(self, record: GameRecord) -> list[int]:
        """The seats to act in a running game this process drives (none for a lobby or another shard's game)."""
        if record.status != "active":
            return []
        try:
            state = self.bot.service.state(record.id)
        except (KeyError, ServiceError):
            return []
        return sorted(self.bot.service.engine(record.game).to_act(state))


def _results(records: Sequence[GameRecord]) -> list[GameResult | None]:
    """The final result of each finished game, reckoned from its last snapshot (in a worker thread: costly)."""
    found: list[GameResult | None] = []
    for record in records:
        engine = GAMES[record.game].engine
        found.append(None if record.state is None else engine.result(engine.load_state(record.state)))
    return found


def _finished_entry(language: str, dated: DatedGame, result: GameResult | None, final: tuple[int, int] | None) -> str:
    """One finished game: its name and id, the date it ended, the link to its final message; places and scores."""
    record = dated.record
    names = seat_names(record)
    link = (
        text(language, "lobby_control.history.link", url=jump_link(record.guild_id, *final))
        if final is not None
        else text(language, "lobby_control.history.no_link")
    )
    head = text(
        language,
        "lobby_control.history.entry",
        game=game_name(language, record.game),
        id=record.id,
        date=f"<t:{_unix(dated.updated_at)}:d>",
        link=link,
    )
    if result is None:
        return f"{head}\n{', '.join(names[s.seat] for s in record.seats)}"
    places = [
        f"{place}. {names[p.seat]} — **{p.total}**" + (" 🏆" if p.seat in result.winners else "")
        for place, p in enumerate(result.players, start=1)
    ]
    return f"{head}\n" + " · ".join(places)


def _page(language: str, title: str, entries: Sequence[str], page: int, total: int) -> discord.Embed:
    """One page of entries as an embed, with where it stands among all pages."""
    description = fit("\n\n".join(entries), MAX_DESCRIPTION)
    embed = discord.Embed(title=title, description=description, colour=_COLOUR)
    embed.set_footer(text=text(language, "lobby_control.list.page", page=page, pages=_pages(total), count=total))
    return embed


def _skip(page: int) -> int:
    """How many entries come before a page."""
    return (page - 1) * PAGE


def _pages(total: int) -> int:
    """How many pages `total` entries fill (at least one)."""
    return max(1, math.ceil(total / PAGE))


def _unix(iso: str) -> int:
    """Seconds since the epoch of a stored ISO time (Discord's timestamp markup wants them)."""
    return int(datetime.fromisoformat(iso).timestamp())
