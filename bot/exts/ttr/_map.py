"""The map as menus and searches see it: routes and cities worded in a language, and legal moves grouped by them.

Nothing here decides what is legal: claims and stations come from the engine's legal actions; this module only
names them and sorts them into the groups a 25-option select menu can hold.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache

from bot.i18n import render, text
from rules.engine import Message
from rules.ttr.actions import BuildStation, Claim, TtrAction
from rules.ttr.board import CARD_CODES, cards_message
from rules.ttr.maps import GRAY, LOCOMOTIVE, GameMap, Track, load_map

MENU_SIZE = 25
"""Options a select menu (or an autocomplete answer) holds at most."""

COLOR_EMOJI = {
    "purple": "🟪",
    "white": "⬜",
    "blue": "🟦",
    "yellow": "🟨",
    "orange": "🟧",
    "black": "⬛",
    "red": "🟥",
    "green": "🟩",
    LOCOMOTIVE: "🚂",
    GRAY: "🔲",
}


def claims_in(actions: Iterable[TtrAction]) -> list[Claim]:
    """The claims among legal actions."""
    return [action for action in actions if isinstance(action, Claim)]


def stations_in(actions: Iterable[TtrAction]) -> list[BuildStation]:
    """The stations among legal actions."""
    return [action for action in actions if isinstance(action, BuildStation)]


def game_map(map_id: str) -> GameMap:
    """The map's data (cities, tracks, tickets)."""
    return load_map(map_id)


@cache
def _tracks(map_id: str) -> dict[int, Track]:
    return {t.id: t for t in load_map(map_id).tracks}


def track(map_id: str, track_id: int) -> Track | None:
    """A track of the map by id, or None."""
    return _tracks(map_id).get(track_id)


def city_name(language: str, city: str) -> str:
    """A city's name in a language."""
    return text(language, f"ttr.city.{city}")


def route_name(language: str, map_id: str, track_id: int) -> str:
    """`From – To (length)` for a track, in a language."""
    found = track(map_id, track_id)
    if found is None:
        return str(track_id)
    return text(
        language,
        "ttr.track",
        **{"from": city_name(language, found.a), "to": city_name(language, found.b), "length": found.length},
    )


def route_details(language: str, map_id: str, track_id: int) -> str:
    """A track's colour and kind in words: `red`, `gray · tunnel`, `gray · ferry (1 locomotive)`."""
    found = track(map_id, track_id)
    if found is None:
        return ""
    parts = [
        text(language, "ttr_bot.color.gray") if found.color == GRAY else text(language, f"ttr.color.{found.color}")
    ]
    if found.tunnel:
        parts.append(text(language, "ttr_bot.route.tunnel"))
    if found.ferry_locomotives:
        parts.append(text(language, "ttr_bot.route.ferry", locomotives=found.ferry_locomotives))
    return " · ".join(parts)


def payment_words(language: str, color: str, count: int, locomotives: int) -> str:
    """Cards to pay in words: `3 × red`, `2 × red + 1 × locomotive`, `4 × locomotive`."""
    return render(language, cards_message(CARD_CODES[color], count, locomotives))


def claim_payment(language: str, map_id: str, claim: Claim) -> str:
    """The cards a claim pays, in words."""
    found = track(map_id, claim.track)
    length = found.length if found is not None else 0
    return payment_words(language, claim.color, length - claim.locomotives, claim.locomotives)


def station_payment(language: str, station: BuildStation, cost: int) -> str:
    """The cards a station pays, in words."""
    return payment_words(language, station.color, cost - station.locomotives, station.locomotives)


def fold(words: str) -> str:
    """Text folded for matching: lower case, accents off, dashes as spaces."""
    plain = unicodedata.normalize("NFKD", words.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.replace("–", " ").replace("-", " ").replace("_", " ").split())


def route_matches(language: str, map_id: str, track_id: int, typed: str) -> bool:
    """Whether every word typed starts a word of the route's city names (either order, either language)."""
    found = track(map_id, track_id)
    if found is None:
        return False
    names = {fold(city_name(lang, c)) for lang in (language, "en") for c in (found.a, found.b)}
    names |= {fold(c) for c in (found.a, found.b)}
    words = {w for name in names for w in name.split()}
    return all(any(w.startswith(part) for w in words) for part in fold(typed).split())


def find_route(language: str, map_id: str, typed: str) -> int | None:
    """The track a /claim value names: a track id (from autocomplete), or a text naming exactly one route."""
    typed = typed.strip()
    if typed.isdigit():
        return int(typed) if track(map_id, int(typed)) is not None else None
    both = [t.id for t in load_map(map_id).tracks if route_matches(language, map_id, t.id, typed)]
    pairs = {frozenset((track(map_id, t).a, track(map_id, t).b)) for t in both}  # type: ignore[union-attr]
    return min(both) if len(pairs) == 1 and len(fold(typed).split()) >= 2 else None


def find_city(language: str, map_id: str, typed: str) -> str | None:
    """The city a /station value names: a city id (from autocomplete), or a name matching exactly one city."""
    cities = {c.id for c in load_map(map_id).cities}
    if typed in cities:
        return typed
    wanted = fold(typed)
    exact = [c for c in sorted(cities) if wanted in (fold(city_name(language, c)), fold(city_name("en", c)))]
    return exact[0] if len(exact) == 1 else None


def chunks(items: Sequence[str], size: int = MENU_SIZE) -> list[list[str]]:
    """Split a sorted list into as few even parts of at most `size` as possible (for several select menus)."""
    if not items:
        return []
    parts = -(-len(items) // size)
    step = -(-len(items) // parts)
    return [list(items[i : i + step]) for i in range(0, len(items), step)]


def by_name(language: str, cities: Iterable[str]) -> list[str]:
    """City ids sorted by their names in a language."""
    return sorted(set(cities), key=lambda c: fold(city_name(language, c)))


def ticket_words(language: str, map_id: str, ticket_id: int) -> str:
    """`From – To (points)` for a ticket, in a language."""
    found = next((t for t in load_map(map_id).tickets if t.id == ticket_id), None)
    if found is None:
        return str(ticket_id)
    message = Message(
        key="ttr.ticket",
        params={
            "from": Message(key=f"ttr.city.{found.a}"),
            "to": Message(key=f"ttr.city.{found.b}"),
            "points": found.points,
        },
    )
    return render(language, message)
