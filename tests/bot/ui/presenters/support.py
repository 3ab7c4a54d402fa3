"""Builders shared by the presenters' tests: a game record with named seats, seeded games played forward move by
move, and the parts of a message (controls, texts) read back without Discord."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.storage.games import GameRecord, SeatRecord
from bot.ui.components import GameComponent
from bot.ui.controller import TurnMessage
from rules.engine import Action, Event, GameEngine

LANGUAGES = ("en", "ru")
GAME_ID = 7
VERSION = 12
PEOPLE = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def user_id(seat: int) -> int:
    """The Discord user id of the person in a seat."""
    return 101 + seat


def record(game: str, players: int, *, bots: frozenset[int] = frozenset(), status: str = "active") -> GameRecord:
    """A stored game with people (Ann, Ben, …) in its seats, and a bot player in each seat of `bots`."""
    seats = tuple(
        SeatRecord(seat=s, name=f"Brunel {s}", bot_kind="normal")
        if s in bots
        else SeatRecord(seat=s, name=PEOPLE[s], user_id=user_id(s))
        for s in range(players)
    )
    return GameRecord(GAME_ID, game, 1, 2, user_id(0), status, {}, 5, VERSION, None, seats)


@dataclass
class Played:
    """A seeded game played forward: its state and the events of its last move."""

    engine: GameEngine[Any, Any, Any]
    state: Any
    events: list[Event]

    def play(self, seat: int, action: Action) -> Played:
        """Apply one move (it must be legal) and keep its events."""
        self.state, self.events = self.engine.apply(self.state, seat, action)
        return self

    def until(self, done: Callable[[Any], bool], seed: int = 5) -> Played:
        """Play random legal moves (lowest seat to act first) until `done(public view)`; all events kept."""
        rng, events = random.Random(seed), []
        while not done(self.public):
            assert not self.engine.is_over(self.state), "the game ended first"
            seat = min(self.engine.to_act(self.state))
            self.play(seat, self.engine.bot_action(self.state, seat, rng, "random"))
            events.extend(self.events)
        self.events = events
        return self

    @property
    def public(self) -> Any:
        """The public view."""
        return self.engine.view(self.state, None)

    def seat(self, seat: int) -> Any:
        """A seat's own view."""
        return self.engine.view(self.state, seat)

    def legal(self, seat: int) -> list[Any]:
        """The seat's legal moves."""
        return self.engine.legal_actions(self.state, seat)


def new_game(engine: GameEngine[Any, Any, Any], options: Any, players: int, seed: int = 5) -> Played:
    """A game as `engine.new_game` deals it."""
    return Played(engine, engine.new_game(options, players, seed), [])


@dataclass(frozen=True)
class Control:
    """A button or select as Discord would get it."""

    custom_id: str
    label: str
    disabled: bool
    options: tuple[discord.SelectOption, ...] = ()
    min_values: int = 1
    max_values: int = 1

    @property
    def values(self) -> list[str]:
        """A select's option values."""
        return [option.value for option in self.options]


def controls(items: list[GameComponent] | discord.ui.View | None) -> list[Control]:
    """What each control of a message says and does (a button's label, a select's placeholder and options)."""
    found = [] if items is None else list(items.children if isinstance(items, discord.ui.View) else items)
    read = []
    for item in found:
        inner = item.item if isinstance(item, GameComponent) else item
        if isinstance(inner, discord.ui.Select):
            read.append(
                Control(
                    str(inner.custom_id),
                    inner.placeholder or "",
                    inner.disabled,
                    tuple(inner.options),
                    inner.min_values,
                    inner.max_values,
                )
            )
        else:
            assert isinstance(inner, discord.ui.Button)
            read.append(Control(str(inner.custom_id), inner.label or "", inner.disabled))
    return read


def by_id(items: list[GameComponent] | discord.ui.View | None, custom_id: str) -> Control:
    """The one control with this custom id."""
    [found] = [c for c in controls(items) if c.custom_id == custom_id]
    return found


def cid(game: str, verb: str, arg: str = "") -> str:
    """A custom id of the test game at its version."""
    return f"{game}:{GAME_ID}:{VERSION}:{verb}" + (f":{arg}" if arg else "")


def said(message: TurnMessage) -> str:
    """Everything a turn message's layout says, as Discord would get it."""
    return "\n".join(_texts(message.layout().to_components()))


def _texts(components: list[dict[str, Any]]) -> Iterator[str]:
    for component in components:
        if component["type"] == 10:
            yield component["content"]
        yield from _texts(component.get("components", []))


def layout_kinds(message: TurnMessage) -> list[int]:
    """The kinds of the components in the message's container, in order (10 text, 12 gallery, 1 action row)."""
    container = message.layout().to_components()[0]
    return [component["type"] for component in container["components"]]


def russian(text: str) -> bool:
    """Whether text is written in Russian (holds Cyrillic letters)."""
    return CYRILLIC.search(text) is not None
