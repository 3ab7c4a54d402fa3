"""The card game's moves, each with a short stable text form (it goes into Discord custom ids)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import ClassVar

from rules.cardgame.cards import KIND_NAMES, LOCOMOTIVE, color_message, kind_of
from rules.cardgame.tickets import load_data
from rules.engine import Action, CommonReason, IllegalAction, Message, UndoReason


class DrawCard(Action):
    """Take one train card (R-CG-7): the deck's top card (`kind` None) or a face-up card of `kind`."""

    kind: int | None = None

    def revealed(self) -> UndoReason | None:
        """A blind card was seen by the mover."""
        return UndoReason.SAW_HIDDEN if self.kind is None else None

    def encode(self) -> str:
        """`draw:deck` or `draw:<colour>` (e.g. `draw:locomotive`)."""
        return "draw:deck" if self.kind is None else f"draw:{KIND_NAMES[self.kind]}"

    def describe(self) -> Message:
        """Say which card is taken."""
        if self.kind is None:
            return Message(key="cardgame.action.draw_deck")
        return Message(key="cardgame.action.draw_face_up", params={"color": color_message(self.kind)})


class PlayGroup(Action):
    """Play a group of one colour to the Rail Yard (R-CG-8): `cards` natural cards plus `locomotives`."""

    color: int
    cards: int
    locomotives: int = 0

    def encode(self) -> str:
        """`play:<colour>:<natural cards>:<locomotives>`, e.g. `play:blue:3:0`."""
        return f"play:{KIND_NAMES[self.color]}:{self.cards}:{self.locomotives}"

    def describe(self) -> Message:
        """Say what goes to the yard."""
        return Message(
            key="cardgame.action.play_group_locomotives" if self.locomotives else "cardgame.action.play_group",
            params={"color": color_message(self.color), "count": self.cards, "locomotives": self.locomotives},
        )


class PlayThree(Action):
    """Play three cards of three different colours to the Rail Yard (R-CG-8); colours in kind order."""

    colors: tuple[int, ...]

    def encode(self) -> str:
        """`play3:<c1>,<c2>,<c3>`, e.g. `play3:red,yellow,blue`."""
        return "play3:" + ",".join(KIND_NAMES[color] for color in self.colors)

    def describe(self) -> Message:
        """Say which three colours go to the yard."""
        return Message(key="cardgame.action.play_three", params={"colors": [color_message(c) for c in self.colors]})


class DrawTickets(Action):
    """Draw the top 4 tickets to choose from (R-CG-10)."""

    reveals: ClassVar[UndoReason | None] = UndoReason.SAW_HIDDEN

    def encode(self) -> str:
        """`tickets`."""
        return "tickets"

    def describe(self) -> Message:
        """Say that tickets are drawn."""
        return Message(key="cardgame.action.draw_tickets")


class KeepTickets(Action):
    """Keep these offered tickets (ids ascending) and return the rest (R-CG-3, R-CG-10)."""

    judged_when_stale: ClassVar[bool] = True
    """The opening choice is simultaneous; the engine refuses it if the offer has changed."""
    tickets: tuple[int, ...]

    def encode(self) -> str:
        """`keep:<id>,<id>…`, or `keep:none`."""
        return "keep:" + (",".join(map(str, self.tickets)) if self.tickets else "none")

    def describe(self) -> Message:
        """Say which tickets are kept."""
        if not self.tickets:
            return Message(key="cardgame.action.keep_none")
        data = load_data()
        return Message(
            key="cardgame.action.keep_tickets",
            params={"tickets": [data.ticket(t).message() for t in self.tickets]},
        )


CardGameAction = DrawCard | PlayGroup | PlayThree | DrawTickets | KeepTickets
DRAW_TICKETS = DrawTickets()

# Legal moves are listed on every step; actions are frozen, so the common ones are made once and shared.


@cache
def draw_action(kind: int | None) -> DrawCard:
    """Return the shared action drawing `kind` face up, or from the deck for None."""
    return DrawCard(kind=kind)


@cache
def group_play(color: int, cards: int, locomotives: int) -> PlayGroup:
    """Return the shared action for a one-colour play."""
    return PlayGroup(color=color, cards=cards, locomotives=locomotives)


@cache
def three_play(colors: tuple[int, ...]) -> PlayThree:
    """Return the shared action for a three-colour play."""
    return PlayThree(colors=colors)


@lru_cache(maxsize=4096)
def keep_action(tickets: tuple[int, ...]) -> KeepTickets:
    """Return a shared action keeping these tickets (bounded: the possible choices are many)."""
    return KeepTickets(tickets=tickets)


def parse_action(text: str) -> CardGameAction:
    """Read an action from its `encode()` text, or raise `IllegalAction(MALFORMED_ACTION)`."""
    verb, _, rest = text.partition(":")
    parts = rest.split(":") if rest else []
    try:
        if verb == "tickets" and not rest:
            return DrawTickets()
        if verb == "draw" and len(parts) == 1:
            return DrawCard(kind=None if parts[0] == "deck" else _kind(parts[0]))
        if verb == "play" and len(parts) == 3:
            color = _kind(parts[0])
            if color == LOCOMOTIVE:
                raise ValueError("a group is named by its colour")
            return PlayGroup(color=color, cards=_count(parts[1]), locomotives=_count(parts[2]))
        if verb == "play3" and len(parts) == 1 and len(names := parts[0].split(",")) == 3:
            return PlayThree(colors=tuple(sorted(_kind(name) for name in names)))
        if verb == "keep" and len(parts) == 1:
            ids = [] if parts[0] == "none" else [_count(x) for x in parts[0].split(",")]
            if len(set(ids)) != len(ids):
                raise ValueError("a ticket kept twice")
            return KeepTickets(tickets=tuple(sorted(ids)))
    except ValueError:
        pass
    raise IllegalAction(CommonReason.MALFORMED_ACTION, text=text)


def _kind(name: str) -> int:
    """Card kind by name, or ValueError."""
    kind = kind_of(name)
    if kind is None:
        raise ValueError(name)
    return kind


def _count(text: str) -> int:
    """A small non-negative int written plainly (no signs or spaces), or ValueError."""
    if not text.isdigit() or len(text) > 3:
        raise ValueError(text)
    return int(text)
