"""Tables derived once per map and shared by every game on it, so states stay small and moves stay fast.

Inside the engine a track is its index in `GameMap.tracks` and a city its index in `GameMap.cities`; ids appear
only at the edges (actions, views, events).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from rules.engine import Message
from rules.ttr.maps import CARD_COLORS, GRAY, LOCOMOTIVE, GameMap, Track, load_map

LOCO = 8
"""Card code of a locomotive; 0 … 7 are the colours of `CARD_COLORS`."""
CARD_NAMES: tuple[str, ...] = (*CARD_COLORS, LOCOMOTIVE)
"""Card code → colour name (the name used in action texts and in `ttr.color.<name>`)."""
CARD_CODES: dict[str, int] = {name: code for code, name in enumerate(CARD_NAMES)}
COLOR_MESSAGES: tuple[Message, ...] = tuple(Message(key=f"ttr.color.{name}") for name in CARD_NAMES)
"""Card code → its translatable colour name."""


@lru_cache(maxsize=1024)
def cards_message(color: int, count: int, locomotives: int) -> Message:
    """Word a set of cards paid: `count` of `color` and some locomotives (`ttr.cards.*`)."""
    if color == LOCO or count == 0:
        return Message(key="ttr.cards.locomotives", params={"locomotives": locomotives})
    if locomotives == 0:
        return Message(key="ttr.cards.plain", params={"count": count, "color": COLOR_MESSAGES[color]})
    return Message(
        key="ttr.cards.mixed", params={"count": count, "color": COLOR_MESSAGES[color], "locomotives": locomotives}
    )


@dataclass(frozen=True, slots=True)
class Board:
    """A map's fast tables: per track, per city and per ticket, indexed by position."""

    game_map: GameMap
    track_a: tuple[int, ...]
    track_b: tuple[int, ...]
    track_len: tuple[int, ...]
    track_color: tuple[int, ...]
    """Card code a track needs, or -1 for gray."""
    track_ferry: tuple[int, ...]
    track_tunnel: tuple[bool, ...]
    track_partner: tuple[int, ...]
    """Index of the double partner, or -1."""
    track_points: tuple[int, ...]
    track_index: dict[int, int]
    """Track id → index."""
    track_ids: tuple[int, ...]
    city_index: dict[str, int]
    city_ids: tuple[str, ...]
    city_messages: tuple[Message, ...]
    city_tracks: tuple[tuple[int, ...], ...]
    """City index → indices of the tracks that touch it."""
    tickets: dict[int, tuple[int, int, int]]
    """Ticket id → (city a, city b, points)."""
    long_ticket_ids: tuple[int, ...]
    regular_ticket_ids: tuple[int, ...]
    payment_classes: tuple[tuple[int, int, int, tuple[int, ...]], ...]
    """(colour code or -1, length, ferry locomotives, track indices): tracks paid for alike, grouped."""
    class_masks: tuple[int, ...]
    """Per payment class, its tracks as a bitmask (bit i: track index i)."""
    track_class: tuple[int, ...]
    """Track index → its payment class."""
    all_tracks: int
    """Every track as a bitmask."""
    max_length: int
    """The longest track's length."""

    @property
    def n_tracks(self) -> int:
        """How many tracks the map has."""
        return len(self.track_len)

    ticket_messages: dict[int, Message]
    """Ticket id → its words: two cities and points."""
    track_messages: tuple[Message, ...]
    """Track index → its words: two cities and length."""

    def ticket_message(self, ticket_id: int) -> Message:
        """Return a ticket as a translatable text: its two cities and points."""
        return self.ticket_messages[ticket_id]

    def track_message(self, track: int) -> Message:
        """Return a track as a translatable text: its two cities and length."""
        return self.track_messages[track]


def build_board(game_map: GameMap) -> Board:
    """Derive the fast tables of a map."""
    city_index = {c.id: i for i, c in enumerate(game_map.cities)}
    city_messages = tuple(Message(key=f"ttr.city.{c.id}") for c in game_map.cities)
    track_index = {t.id: i for i, t in enumerate(game_map.tracks)}
    tracks = game_map.tracks
    city_tracks: list[list[int]] = [[] for _ in game_map.cities]
    for i, t in enumerate(tracks):
        city_tracks[city_index[t.a]].append(i)
        city_tracks[city_index[t.b]].append(i)
    classes = _payment_classes(tracks)
    track_class = [0] * len(tracks)
    for k, (_, _, _, members) in enumerate(classes):
        for i in members:
            track_class[i] = k
    return Board(
        game_map=game_map,
        track_a=tuple(city_index[t.a] for t in tracks),
        track_b=tuple(city_index[t.b] for t in tracks),
        track_len=tuple(t.length for t in tracks),
        track_color=tuple(-1 if t.color == GRAY else CARD_CODES[t.color] for t in tracks),
        track_ferry=tuple(t.ferry_locomotives for t in tracks),
        track_tunnel=tuple(t.tunnel for t in tracks),
        track_partner=tuple(-1 if t.partner is None else track_index[t.partner] for t in tracks),
        track_points=tuple(game_map.rules.route_points[t.length] for t in tracks),
        track_index=track_index,
        track_ids=tuple(t.id for t in tracks),
        city_index=city_index,
        city_ids=tuple(c.id for c in game_map.cities),
        city_messages=city_messages,
        city_tracks=tuple(tuple(ts) for ts in city_tracks),
        tickets={t.id: (city_index[t.a], city_index[t.b], t.points) for t in game_map.tickets},
        long_ticket_ids=tuple(t.id for t in game_map.tickets if t.long),
        regular_ticket_ids=tuple(t.id for t in game_map.tickets if not t.long),
        payment_classes=classes,
        class_masks=tuple(sum(1 << i for i in members) for _, _, _, members in classes),
        track_class=tuple(track_class),
        all_tracks=(1 << len(tracks)) - 1,
        max_length=max(t.length for t in tracks),
        ticket_messages={
            t.id: Message(
                key="ttr.ticket",
                params={
                    "from": city_messages[city_index[t.a]],
                    "to": city_messages[city_index[t.b]],
                    "points": t.points,
                },
            )
            for t in game_map.tickets
        },
        track_messages=tuple(
            Message(
                key="ttr.track",
                params={
                    "from": city_messages[city_index[t.a]],
                    "to": city_messages[city_index[t.b]],
                    "length": t.length,
                },
            )
            for t in tracks
        ),
    )


def _payment_classes(tracks: tuple[Track, ...]) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """Group track indices by what pays for them, so a hand's payments are worked out once per group."""
    groups: dict[tuple[int, int, int], list[int]] = {}
    for i, t in enumerate(tracks):
        color = -1 if t.color == GRAY else CARD_CODES[t.color]
        groups.setdefault((color, t.length, t.ferry_locomotives), []).append(i)
    return tuple((*key, tuple(ids)) for key, ids in sorted(groups.items()))


@cache
def board_for(map_id: str) -> Board:
    """Return the cached tables of a bundled map."""
    return build_board(load_map(map_id))
