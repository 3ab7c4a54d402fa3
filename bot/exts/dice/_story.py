"""A dice turn told as a player reads it: one line per roll (the dice it showed and the cars added from it), then
what else the turn did (freight banked, the score, the last round reached); who won is told by the final message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.i18n import render, text
from rules.dice import DiceView, Face
from rules.dice.faces import FACES, face_messages
from rules.engine import Event, Message, Param

TURN_STARTED = "dice.event.turn_started"
ROLLED = "dice.event.rolled"
FREIGHT_ROLLED = "dice.event.freight_rolled"
ADDED = "dice.event.added"
LAST_ROUND = "dice.event.last_round"
GAME_OVER = "dice.event.game_over"
WON = "dice.event.won"
UNTOLD = frozenset(
    {TURN_STARTED, "dice.event.stopped", "dice.event.out_of_rolls", "dice.event.train_full", GAME_OVER, WON}
)
"""Events a turn's story leaves out: the heading names whose turn it is; the roll lines already show a stop, the
rolls used up or a full train; the final message says the game is over and who won."""


def by_turn(events: Sequence[Event]) -> list[list[Event]]:
    """A move's public events split by turn: those of the turn in play, then those of each turn the move began."""
    turns: list[list[Event]] = [[]]
    for event in events:
        if not event.public:
            continue
        if event.key == TURN_STARTED:
            turns.append([])
        turns[-1].append(event)
    return turns


def showing_now(view: DiceView) -> list[Event]:
    """The turn in play as far as its view tells it, its latest roll as the engine tells one: for a turn shown from
    its middle (a channel brought up to date) or from its first roll (the game's start)."""
    turn = view.turn
    if turn is None or not turn.showing:
        return []
    key, params = (FREIGHT_ROLLED, {}) if turn.freight else (ROLLED, {"roll": turn.rolls})
    return [Event(key=key, params={"seat": turn.seat, "faces": face_messages(turn.showing), **params})]


@dataclass
class _Roll:
    """A roll being told: its event, the faces added from it so far, and whether the player has moved on."""

    event: Event
    added: list[Param] = field(default_factory=list)
    settled: bool = False

    def told(self, language: str) -> str:
        """The roll in one line, "Roll 2: 🎲 Hopper, Caboose → adds Hopper" ("→ adds them all" when every die of it
        joined the train); what it added is left out while the player still chooses."""
        key = "dice_turn.story.freight_roll" if self.event.key == FREIGHT_ROLLED else "dice_turn.story.roll"
        rolled = _listed(self.event.params.get("faces", []))
        roll = text(language, key, roll=self.event.params.get("roll", ""), faces=_faces(language, rolled))
        if len(rolled) > 1 and Counter(map(_face, self.added)) == Counter(map(_face, rolled)):
            return text(language, "dice_turn.story.adds_all", roll=roll)
        if self.added:
            return text(language, "dice_turn.story.adds", roll=roll, faces=_faces(language, self.added))
        return text(language, "dice_turn.story.adds_nothing", roll=roll) if self.settled else roll


def story(language: str, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """A turn's public events as its story: a line per roll, and a line for each other thing it did.

    When the game ends with the turn, reaching the target is told without "this is the last round"."""
    over = any(event.key == GAME_OVER for event in events)
    told: list[str | _Roll] = []
    roll: _Roll | None = None
    for event in events:
        if event.key == ADDED and roll is not None:
            roll.added.extend(_listed(event.params.get("faces", [])))
            continue
        if roll is not None:
            roll.settled = True
            roll = None
        if event.key in (ROLLED, FREIGHT_ROLLED):
            roll = _Roll(event)
            told.append(roll)
        elif event.key not in UNTOLD:
            said = (
                Message(key="dice_turn.story.reached", params=event.params)
                if over and event.key == LAST_ROUND
                else event
            )
            told.append(render(language, said, names))
    return [line if isinstance(line, str) else line.told(language) for line in told]


def winners(language: str, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """The game's last lines: who won, and with what."""
    return [render(language, event, names) for event in events if event.key == WON]


def _faces(language: str, faces: Sequence[Param]) -> str:
    """Dice faces by name, alike ones together in the rules' order: "Locomotive, Tanker ×2"."""
    counted = Counter(_face(face) for face in faces)
    return ", ".join(
        text(language, f"dice.face.{face.value}") + (f" ×{count}" if count > 1 else "")
        for face in FACES
        if (count := counted[face])
    )


def _listed(param: Param) -> list[Param]:
    """An event's list parameter as a list (a lone value as a list of one)."""
    return list(param) if isinstance(param, list) else [param]


def _face(param: Param) -> Face:
    """The face a `dice.face.<letter>` message names."""
    assert isinstance(param, Message), param
    return Face(param.key.removeprefix("dice.face."))
