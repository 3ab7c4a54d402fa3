"""Ticket to Ride maps as validated data: cities, tracks, tickets and the map's own rule settings (R-C4).

A map is a JSON file in `rules/ttr/data/`; everything that differs between USA and Europe (cars, stations,
the scoring table, the double-track threshold, bonuses, the opening deal, tie-breaks) is a setting here, so a
third map needs a data file and no new code.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

CARD_COLORS: tuple[str, ...] = ("purple", "white", "blue", "yellow", "orange", "black", "red", "green")
"""The 8 wagon colours of R-C1, in a fixed order: a colour's index is its card code (0 … 7)."""
LOCOMOTIVE = "locomotive"
"""The wild card (R-C1); its card code is 8."""
GRAY = "gray"
"""The colour of a track that any one card colour may pay for (R-T5)."""

TrackColor = Literal["purple", "white", "blue", "yellow", "orange", "black", "red", "green", "gray"]
TieBreak = Literal["completed_tickets", "longest_trail", "stations_left", "longest_bonus"]
MAP_IDS: tuple[str, ...] = ("usa", "europe")
"""The maps bundled with the engine, in the order a UI should offer them."""

_DATA = Path(__file__).parent / "data"


class City(BaseModel):
    """A city: a stable id (used in actions and translation keys), its printed name and its real position."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z_]+$", max_length=16)
    name: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class Track(BaseModel):
    """One claimable line of cars between two neighbouring cities; a double route is two tracks (partners)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int = Field(ge=1)
    a: str
    b: str
    length: int = Field(ge=1, le=8)
    color: TrackColor
    tunnel: bool = False
    ferry_locomotives: int = Field(default=0, ge=0, description="Locomotive symbols on a ferry (R-EU-5).")
    partner: int | None = Field(default=None, description="Id of the other track of a double route (R-T6).")


class Ticket(BaseModel):
    """A destination ticket: connect `a` and `b` with your own routes for + points, else − points (R-P2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int = Field(ge=1)
    a: str
    b: str
    points: int = Field(ge=1)
    long: bool = Field(default=False, description="Europe's long tickets, dealt one to each player (R-EU-2).")


class MapRules(BaseModel):
    """The rule settings a map brings with it (the printed rules of its box)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cars_per_player: int = Field(ge=1, description="Train cars each player starts with (R-C2).")
    stations_per_player: int = Field(ge=0, description="Stations each player starts with (R-C2, R-EU-4).")
    station_value: int = Field(ge=0, description="Points for each station not built (R-EU-9).")
    route_points: dict[int, int] = Field(description="Points for claiming a route, by its length (R-C3).")
    double_min_players: int = Field(
        ge=2, description="Fewest players for both tracks of a double route to be usable (R-T6)."
    )
    longest_bonus: int = Field(ge=0, description="Points for the longest continuous path (R-P3).")
    opening_tickets: int = Field(ge=1, description="Regular tickets dealt to each player at setup.")
    opening_long_tickets: int = Field(ge=0, description="Long tickets dealt to each player (R-EU-2).")
    opening_keep: int = Field(ge=1, description="Fewest tickets a player keeps at setup.")
    opening_returns: Literal["bottom", "removed"] = Field(
        description="Where tickets returned at setup go: under the ticket deck or out of the game."
    )
    ticket_draw: int = Field(default=3, ge=1, description="Tickets drawn by the ticket action (R-T7).")
    ticket_keep: int = Field(default=1, ge=1, description="Fewest tickets kept from a mid-game draw (R-T7).")
    tie_breaks: tuple[TieBreak, ...] = Field(description="Tie-breaks for the win, in order (R-P4, R-EU-10).")


class GameMap(BaseModel):
    """A whole map: cities, tracks, tickets and rule settings, checked for consistency on load."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    cities: tuple[City, ...]
    tracks: tuple[Track, ...]
    tickets: tuple[Ticket, ...]
    rules: MapRules

    @model_validator(mode="after")
    def _check_consistency(self) -> GameMap:
        """Reject a map whose ids clash or whose tracks, partners or tickets name something absent."""
        city_ids = {c.id for c in self.cities}
        if len(city_ids) != len(self.cities):
            raise ValueError("duplicate city id")
        tracks = {t.id: t for t in self.tracks}
        if len(tracks) != len(self.tracks):
            raise ValueError("duplicate track id")
        if len({t.id for t in self.tickets}) != len(self.tickets):
            raise ValueError("duplicate ticket id")
        for t in self.tracks:
            if t.a not in city_ids or t.b not in city_ids or t.a == t.b:
                raise ValueError(f"track {t.id} joins unknown or equal cities")
            if t.length not in self.rules.route_points:
                raise ValueError(f"track {t.id}: no points for length {t.length}")
            if t.ferry_locomotives > t.length or (t.ferry_locomotives and t.color != GRAY):
                raise ValueError(f"track {t.id}: a ferry is gray and no longer than its locomotives")
            if t.partner is not None:
                other = tracks.get(t.partner)
                if other is None or other.partner != t.id or {other.a, other.b} != {t.a, t.b}:
                    raise ValueError(f"track {t.id}: partner is not its twin")
                if other.length != t.length:
                    raise ValueError(f"track {t.id}: double tracks differ in length")
        for ticket in self.tickets:
            if ticket.a not in city_ids or ticket.b not in city_ids or ticket.a == ticket.b:
                raise ValueError(f"ticket {ticket.id} names unknown or equal cities")
        return self


def load_map_file(path: Path) -> GameMap:
    """Read and validate a map from a JSON file."""
    return GameMap.model_validate(json.loads(path.read_text(encoding="utf-8")))


@cache
def load_map(map_id: str) -> GameMap:
    """Return a bundled map by id (`usa`, `europe`), validated once and cached."""
    if map_id not in MAP_IDS:
        raise KeyError(map_id)
    return load_map_file(_DATA / f"{map_id}.json")
