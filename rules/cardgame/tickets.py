"""The card game's facts (46 tickets, big-city bonuses, city names) as validated models, loaded once."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

from rules.cardgame.cards import COLORS, LOCOMOTIVES, N_COLORS, PER_COLOR
from rules.engine import Message

_DATA = Path(__file__).with_name("data") / "tickets.json"


class TrainCards(BaseModel):
    """The train-card deck as the data file states it (checked against the engine's constants)."""

    model_config = ConfigDict(frozen=True)

    per_color: int
    colors: tuple[str, ...]
    locomotives: int


class Ticket(BaseModel):
    """A destination ticket: the coloured cards its stack must supply and the big cities it names."""

    model_config = ConfigDict(frozen=True)

    id: int
    a: str
    b: str
    points: int
    cards: dict[str, int]
    big_cities: tuple[str, ...]

    @property
    def need(self) -> tuple[int, ...]:
        """Return the cards needed per colour, indexed like `COLORS`."""
        return tuple(self.cards.get(color, 0) for color in COLORS)

    def message(self) -> Message:
        """Return the ticket's translatable name: its two cities and its points."""
        return Message(
            key="cardgame.ticket.name",
            params={"a": city_message(self.a), "b": city_message(self.b), "points": self.points},
        )


class CardGameData(BaseModel):
    """Every fact of the game the engine needs; validated so a bad edit fails at load, not mid-game."""

    model_config = ConfigDict(frozen=True)

    name: str
    train_cards: TrainCards
    big_city_bonus: dict[str, int]
    cities: dict[str, str]
    tickets: tuple[Ticket, ...]

    @model_validator(mode="after")
    def _consistent(self) -> CardGameData:
        if self.train_cards.colors != COLORS or self.train_cards.per_color != PER_COLOR:
            raise ValueError("train card colours differ from the engine's")
        if self.train_cards.locomotives != LOCOMOTIVES:
            raise ValueError("locomotive count differs from the engine's")
        if [t.id for t in self.tickets] != list(range(1, len(self.tickets) + 1)):
            raise ValueError("ticket ids must be 1..n in order")
        for ticket in self.tickets:
            if set(ticket.cards) - set(COLORS) or not ticket.cards:
                raise ValueError(f"ticket {ticket.id} needs unknown colours")
            if {ticket.a, ticket.b} - set(self.cities):
                raise ValueError(f"ticket {ticket.id} names an unknown city")
            if set(ticket.big_cities) - set(self.big_city_bonus):
                raise ValueError(f"ticket {ticket.id} names an unknown big city")
        return self

    def ticket(self, ticket_id: int) -> Ticket:
        """Return the ticket with this id (ids are 1..n)."""
        return self.tickets[ticket_id - 1]


def city_message(city: str) -> Message:
    """Return a city's translatable name (`cardgame.city.<id>`)."""
    return Message(key=f"cardgame.city.{city}")


@cache
def load_data() -> CardGameData:
    """Load and validate the game's data file once per process."""
    return CardGameData.model_validate_json(_DATA.read_text(encoding="utf-8"))


@cache
def ticket_message(ticket_id: int) -> Message:
    """Return a ticket's translatable name by id, made once (messages are frozen)."""
    return load_data().ticket(ticket_id).message()


@cache
def ticket_needs() -> tuple[tuple[int, ...], ...]:
    """Return each ticket's per-colour need, indexed by ticket id (index 0 unused), for hot loops."""
    data = load_data()
    return ((0,) * N_COLORS, *(t.need for t in data.tickets))
