"""What the bot knows of one game, in one entry its package exports (`bot/exts/<namespace>/__init__.py`: `GAME`);
`bot.games` lists the entries. Kept apart from that list so the game packages can import it while it is built."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import add_words
from bot.services.ratings import GameRatings
from render.games import GamePictures
from render.stats import Figure
from rules.engine import GameEngine

StatsFigures = Callable[[str, Mapping[str, Any]], tuple[tuple[Figure, ...], tuple[tuple[str, int], ...]]]
"""(language, a person's summed facts) -> the stats card's figures of this game after the ones every game has,
and its favourite routes as (name, times), if it has routes."""


@dataclass(frozen=True)
class GameInfo:
    """An offered game: its engine; the namespace of its words (`<namespace>.option.…`) and of its package; its
    pictures; what ratings and /stats read of it; how the offline runner makes its moves (`module:function`, loaded
    only by the runner; None: by clicking the turn message's buttons); and a package of its own translation
    files (`<package>.<language>`, read beside `bot/i18n`), if its words are not there."""

    engine: GameEngine[Any, Any, Any]
    namespace: str
    pictures: GamePictures
    ratings: GameRatings
    figures: StatsFigures
    driver: str | None = None
    words: str | None = None
    package: str | None = None
    """The discord.py extension of its cogs, when not `bot.exts.<namespace>._cog`."""

    def __post_init__(self) -> None:
        """Its words are read wherever the entry exists: with the list, before any cog or command is made."""
        add_words(self.words)

    @property
    def game_id(self) -> str:
        """The engine's id, used in custom ids and the database."""
        return self.engine.game_id

    @property
    def extension(self) -> str:
        """The discord.py extension of its cogs: `bot.exts.<namespace>._cog` (its package holds only the entry, so
        the list of games can import it while the cogs read that list) unless it names another."""
        return self.package or f"bot.exts.{self.namespace}._cog"
