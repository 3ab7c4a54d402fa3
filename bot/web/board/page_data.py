"""What a board page reads of a game (`state.json`, each live update, a replay's frames): its public view, the
public story, the public scores and the words to show them with; never a hand, the deck, a ticket held or the seed.

The view is the engine's public view (`engine.view(state, None)`), dumped as JSON as the engine defines it; the
story, the last move and the scores come from the log as the table told it (`rules.history.Telling`): `story` holds
the newest `STORY_LINES` lines of the `told` lines so far (every update carries it whole; a replay holds them all).
Names are people's display names as the bot shows them (normalised, not escaped: the page must insert them as text,
never as HTML).

`words` holds the raw templates of the game's language, keyed as in bot/i18n: `{name}` is a value, and
`{count:one=# card|few=…|many=…|other=# cards}` a plural choice by the CLDR rules of the language (`#` is the number;
the browser's `Intl.PluralRules` picks the same form).

A replay (`replay_data`) gives what all its frames share once (`game`, `seats`, `words`, the whole `story`, the
whole `scores`) and per frame: the view after that many moves (`step`), the move that led there (`last`), how many
story lines were told by then (`told`) and how many points of the score series were scored by then (`scored`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from bot.game_entry import GameInfo
from bot.i18n import FALLBACK, render, table, text
from bot.storage.games import GameRecord
from bot.ui.names import shown_names
from rules.history import Telling, Told

GAME_TABLES = ("color", "phase", "face", "map", "picture", "score", "city", "ticket", "track", "cards")
"""The tables of a game's words the page may show (its own names of things); events, refusals, buttons and options
are the chat's."""
PRIVATE_PICTURES = ("hand", "choice")
"""The tables of a game's picture words that only a player's own pictures show."""
STORY_LINES = 100
"""Story lines a page's data carries, the newest: every live update sends them all, so they are bounded (a game of
Ticket to Ride tells some 300; the replay has every one)."""


def page_data(info: GameInfo, record: GameRecord, state: BaseModel, telling: Telling, language: str) -> dict[str, Any]:
    """A game's page data as it stands at `state` (the stored game of `record`), its story told by `telling`."""
    view = info.engine.view(state, None)
    names = shown_names(record)
    return {
        "game": about(info, record, view, language),
        "seats": seats(info, record),
        "words": page_words(info.namespace, language, mapped=_on_a_map(view)),
        "view": view.model_dump(mode="json"),
        "last": last_move(telling.moves[-1], names, language) if telling.moves else None,
        "story": newest_lines(telling.moves, names, language),
        "told": sum(len(move.events) for move in telling.moves),
        "scores": [list(points) for points in telling.score_series()],
    }


def replay_data(info: GameInfo, record: GameRecord, telling: Telling, language: str) -> dict[str, Any]:
    """A finished game's replay: what its frames share, and a frame per move (`telling` kept its views)."""
    assert telling.views is not None, "a replay is told with its views"
    names = shown_names(record)
    told = [0]
    for move in telling.moves:
        told.append(told[-1] + len(lines(move, names, language)))
    frames = []
    for step, view in enumerate(telling.views):
        frames.append(
            {
                "step": step,
                "view": view.model_dump(mode="json"),
                "last": last_move(telling.moves[step - 1], names, language) if step else None,
                "told": told[step],
                "scored": sum(1 for turn in telling.turns if turn <= step),
            }
        )
    return {
        "game": about(info, record, telling.views[-1], language),
        "seats": seats(info, record),
        "words": page_words(info.namespace, language, mapped=_on_a_map(telling.views[-1])),
        "story": [line for move in telling.moves for line in lines(move, names, language)],
        "scores": [list(points) for points in telling.score_series()],
        "frames": frames,
    }


def as_json(data: Mapping[str, Any]) -> bytes:
    """Page data as compact UTF-8 JSON on one line (an event stream's `data:` takes it as is)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def about(info: GameInfo, record: GameRecord, view: BaseModel, language: str) -> dict[str, Any]:
    """The game itself: which, where it stands, its language and its title."""
    game = text(language, f"bot.game.{info.namespace}")
    return {
        "id": record.id,
        "kind": info.namespace,
        "map": getattr(view, "map", None) if _on_a_map(view) else None,
        "language": language,
        "title": text(language, "web.title", game=game, id=record.id),
        "finished": record.status == "finished",
        "status": record.status,
        "version": record.version,
    }


def seats(info: GameInfo, record: GameRecord) -> list[dict[str, Any]]:
    """Each seat in order: the name shown, its colour on the pictures, and whether a bot player sits there."""
    names = shown_names(record, marked=False)
    colours = info.pictures.seat_colours(len(record.seats))
    return [
        {"name": names[s.seat], "colour": "#{:02x}{:02x}{:02x}".format(*colours[s.seat]), "bot": s.is_bot}
        for s in sorted(record.seats, key=lambda s: s.seat)
    ]


def lines(move: Told, names: Mapping[int, str], language: str) -> list[str]:
    """A move's public events worded, one line each."""
    return [render(language, event, names) for event in move.events]


def newest_lines(moves: Sequence[Told], names: Mapping[int, str], language: str) -> list[str]:
    """The newest `STORY_LINES` lines of the moves' story, oldest first (only those are worded)."""
    found: list[str] = []
    for move in reversed(moves):
        found[:0] = lines(move, names, language)
        if len(found) >= STORY_LINES:
            break
    return found[-STORY_LINES:]


def _on_a_map(view: BaseModel) -> bool:
    """Whether a game is played on a map whose geometry the page reads (`/web/maps/<map>.json`)."""
    return isinstance(getattr(view, "map", None), str)


def last_move(move: Told, names: Mapping[int, str], language: str) -> dict[str, Any]:
    """The last move, for the page's highlight: whose it was, its public events (key and parameters) and their
    words."""
    return {
        "seat": move.seat,
        "events": [event.model_dump(mode="json", include={"key", "params"}) for event in move.events],
        "lines": lines(move, names, language),
    }


@lru_cache(maxsize=16)
def page_words(namespace: str, language: str, *, mapped: bool = False) -> dict[str, str]:
    """The templates a game's page shows, in a language (English where it lacks one): the page's own (`web.page.`,
    `web.title`), the game's name, and the game's names of things (`GAME_TABLES`, and the words of its public
    pictures); a game on a map (`mapped`) leaves out its cities, named in the map's geometry."""
    tables = [name for name in GAME_TABLES if not (mapped and name == "city")]
    prefixes = ("web.page.", f"{namespace}_picture.", *(f"{namespace}.{name}." for name in tables))
    private = tuple(f"{namespace}_picture.{name}." for name in PRIVATE_PICTURES)
    alone = ("web.title", f"bot.game.{namespace}")
    wanted = [
        key for key in table(FALLBACK) if (key.startswith(prefixes) and not key.startswith(private)) or key in alone
    ]
    own = table(language)
    return {key: own.get(key, table(FALLBACK)[key]) for key in sorted(wanted)}
