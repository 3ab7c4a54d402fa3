"""/stats and /leaderboard: a person's figures and a server's best players per game, each as a picture and a line.

Stats are public (the leaderboard is the server's own) and count only the games of the channels the asker can
view; what concerns one person only (no games, not in a server) is answered privately. The answer is deferred
before the picture is drawn, in the slow pictures' worker (never in front of a game's board); each counts as a
picture in the person's cooldown.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import commands

from bot.drawing import draw_slow
from bot.exts.shared_commands import offer_games
from bot.games import GAMES, GameInfo, game_name
from bot.i18n import escaped, labels, language_of, shown_name, text
from bot.services.ratings import RatingRecords, Summary, shown, summarize
from bot.storage.ratings import Standing
from bot.ui.answers import reply_private, think
from bot.ui.pictures import Picture
from bot.ui.visibility import seen_places
from render.labels import Labels
from render.stats import BoardRow, Figure, Leaderboard, StatsCard, render_leaderboard, render_stats

if TYPE_CHECKING:
    from bot.ui.parts import Bot

log = logging.getLogger(__name__)

TOP = 10
DEFAULT_COLOUR = (88, 101, 242)
"""Discord's blurple, for a member without a coloured role."""


class Person(Protocol):
    """Whose stats, or who reads: a Discord user or member (a bench passes its own); a member's role colour, if
    it has one, colours the picture."""

    @property
    def id(self) -> int: ...

    @property
    def display_name(self) -> str: ...


def family_game(family: str) -> GameInfo:
    """The game a family is shown as: the first rated in it (both Ticket to Ride maps are one game)."""
    return next(info for info in GAMES.values() if info.ratings.family == family)


def family_of(game: str | None) -> str | None:
    """The family a game is rated in (None for no game, or one not offered)."""
    return GAMES[game].ratings.family if game in GAMES else None


def family_name(language: str, family: str) -> str:
    """A family's name in the reader's language (its game's)."""
    return game_name(language, family_game(family).game_id)


def colour_of(person: Person) -> tuple[int, int, int]:
    """The member's role colour, or the default for one without."""
    colour = getattr(person, "colour", None)
    return colour.to_rgb() if colour is not None and colour.value else DEFAULT_COLOUR


def number(language: str, value: float) -> str:
    """A figure written as the reader's language writes numbers (one decimal at most)."""
    return str(format_decimal(round(value, 1), format="#,##0.#", locale=language))


class StatsCog(commands.Cog):
    """The /stats and /leaderboard commands."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        offer_games(self.stats, self.leaderboard, by_name=True)

    @app_commands.command(name="stats", description=text("en", "commands.stats.description"))
    @app_commands.describe(
        member=text("en", "commands.stats.member.description"), game=text("en", "commands.stats.game.description")
    )
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.User | None = None, game: str | None = None
    ) -> None:
        """Show a person's games, wins, scores, rating and rank in one game (the one they played most by default),
        counting only the games of the channels the asker can view."""
        language = language_of(interaction.locale)
        if interaction.guild_id is None:
            await reply_private(interaction, text(language, "stats.reason.guild_only"))
            return
        person = member or interaction.user
        places = await self.bot.records.places(interaction.guild_id, ("finished",))
        places = await seen_places(interaction.user, places)
        played = await self.bot.rating_records.families_of(interaction.guild_id, person.id, places=places)
        family = family_of(game) or max(played, key=lambda f: played[f], default=None)
        if family is None or family not in played:
            key, params = (
                ("stats.reason.no_games", {"game": family_name(language, family)})
                if family
                else ("stats.reason.no_games_any", {})
            )
            await reply_private(interaction, text(language, key, name=escaped(person.display_name), **params))
            return
        others = [] if game else sorted(played)
        public = await self.bot.public_language(interaction.guild_id)
        answer = stats_answer(
            self.bot.rating_records, interaction.guild_id, family, person, public, others=others, places=places
        )
        await self._post(interaction, answer)

    @app_commands.command(name="leaderboard", description=text("en", "commands.leaderboard.description"))
    @app_commands.describe(game=text("en", "commands.leaderboard.game.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Show the server's ten best rated players of a game, and the reader's own place."""
        language = language_of(interaction.locale)
        family = family_of(game)
        if interaction.guild_id is None or family is None:
            await reply_private(interaction, text(language, "stats.reason.guild_only"))
            return
        public = await self.bot.public_language(interaction.guild_id)
        answer = leaderboard_answer(self.bot.rating_records, interaction.guild_id, family, interaction.user, public)
        await self._post(interaction, answer)

    async def _post(self, interaction: discord.Interaction[Any], making: Awaitable[Answer]) -> None:
        """Think in public, make the answer and draw its picture in the slow pictures' worker, then post both; on a
        failure the public "thinking" goes and the person alone is told that nothing came of it."""
        await think(interaction, private=False)
        try:
            answer = await making
            data = await draw_slow(answer.draw, answer.picture, labels(answer.language))
        except Exception:
            log.exception("/%s failed", getattr(interaction.command, "name", "?"))
            await interaction.delete_original_response()
            failure = text(language_of(interaction.locale), "bot.failure.nothing_changed")
            await interaction.followup.send(failure, ephemeral=True)
            return
        picture = Picture(answer.file_name, data, answer.alt)
        await interaction.followup.send("\n".join(answer.lines), file=picture.file())


@dataclass(frozen=True)
class Answer:
    """What /stats or /leaderboard answers: the lines, the picture's data and how it is drawn, its alt text."""

    language: str
    lines: list[str]
    picture: Any
    draw: Callable[[Any, Labels], bytes]
    file_name: str
    alt: str


async def stats_answer(
    ratings: RatingRecords,
    guild_id: int,
    family: str,
    person: Person,
    language: str,
    *,
    others: Sequence[str] = (),
    places: Sequence[int] | None = None,
) -> Answer:
    """A person's stats in one family (who has results in it), with the other families they played named; the
    figures count only the games seen from `places`, if given (the rating is the server's, as on its leaderboard)."""
    results = await ratings.results_of(guild_id, family, person.id, places=places)
    standing = await ratings.standing(guild_id, family, person.id)
    summary = summarize(family_game(family).ratings, results)
    lines = [_summary_line(language, family, person.display_name, summary), _rating_line(language, standing)]
    elsewhere = [family_name(language, f) for f in others if f != family]
    if elsewhere:
        lines.append(text(language, "stats.text.other_games", games=", ".join(elsewhere)))
    alt = text(
        language,
        "stats.alt.stats",
        name=shown_name(person.display_name),
        game=family_name(language, family),
        games=summary.games,
        wins=summary.wins,
        rating=shown(standing.rating) if standing else text(language, "stats.reason.unrated"),
    )
    card = _card(language, family, person, summary, standing)
    return Answer(language, lines, card, render_stats, f"stats-{family}.png", alt)


async def leaderboard_answer(
    ratings: RatingRecords, guild_id: int, family: str, reader: Person, language: str
) -> Answer:
    """A server's ten best rated players of a family, and the reader's own place if outside them."""
    top = await ratings.top(guild_id, family, TOP)
    mine = await ratings.standing(guild_id, family, reader.id)
    rows = tuple(_row(s, own=s.user_id == reader.id) for s in top)
    outside = mine is not None and all(s.user_id != reader.id for s in top)
    name = family_name(language, family)
    board = Leaderboard(
        game=name,
        colour=colour_of(reader),
        rows=rows,
        own=_row(mine, own=True) if outside and mine is not None else None,
        unrated=mine is None,
    )
    lines = [text(language, "stats.text.leaderboard", game=name, count=top[0].rated if top else 0)]
    if mine is not None:
        lines.append(text(language, "stats.text.own_place", rank=mine.rank, rating=shown(mine.rating)))
    else:
        lines.append(text(language, "stats.text.own_unrated", game=name))
    lines.append(f"-# {text(language, 'stats.text.how')}")
    listed = "; ".join(text(language, "stats.alt.row", rank=r.rank, name=r.name, rating=r.rating) for r in rows)
    alt = text(language, "stats.alt.leaderboard", game=name, rows=listed or "—")
    return Answer(language, lines, board, render_leaderboard, f"leaderboard-{family}.png", alt)


def _row(standing: Standing, *, own: bool) -> BoardRow:
    rating = standing.rating
    percent = round(100 * rating.wins / rating.games) if rating.games else 0
    return BoardRow(standing.rank, shown_name(rating.name), shown(rating), rating.games, percent, own)


def _summary_line(language: str, family: str, name: str, summary: Summary) -> str:
    return text(
        language,
        "stats.text.stats",
        name=escaped(name),
        game=family_name(language, family),
        games=summary.games,
        wins=summary.wins,
        percent=summary.win_percent,
        average=number(language, summary.average),
        best=summary.best,
    )


def _rating_line(language: str, standing: Standing | None) -> str:
    if standing is None:
        return text(language, "stats.text.unrated")
    return text(language, "stats.text.rated", rating=shown(standing.rating), rank=standing.rank, rated=standing.rated)


def _card(language: str, family: str, person: Person, summary: Summary, standing: Standing | None) -> StatsCard:
    """The stats card's data: the figures every game has, then the family's own."""
    figures = [
        Figure("games", str(summary.games)),
        Figure("wins", str(summary.wins)),
        Figure("win_rate", f"{summary.win_percent}%"),
        Figure("average", number(language, summary.average)),
        Figure("best", str(summary.best)),
    ]
    own, routes = family_game(family).figures(language, summary.facts)
    figures += own
    return StatsCard(
        name=shown_name(person.display_name),
        game=family_name(language, family),
        colour=colour_of(person),
        figures=tuple(figures),
        rating=shown(standing.rating) if standing else None,
        rank=standing.rank if standing else None,
        rated=standing.rated if standing else 0,
        routes=routes,
    )
