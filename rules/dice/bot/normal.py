"""The normal player: a plain heuristic that builds the train, takes the caboose when it pays, freights when behind."""

from __future__ import annotations

import random

from rules.dice.actions import Add, DiceAction, Freight, Roll, Stop
from rules.dice.faces import CARGO_POINTS, Face
from rules.dice.options import GameMode
from rules.dice.state import MAX_ROLLS, DiceState, Turn
from rules.dice.train import score_train

E, C, K = Face.LOCOMOTIVE, Face.COAL, Face.CABOOSE
CARGO_BEST_FIRST = sorted(CARGO_POINTS, key=lambda face: -CARGO_POINTS[face])
CABOOSE_WORTH = 16
"""A caboose that makes the train worth this much is taken at once rather than rolling on."""
FREIGHT_BELOW = 25
FREIGHT_MAYBE_BELOW = 40


def choose_action(state: DiceState, legal: list[DiceAction], rng: random.Random) -> DiceAction:
    """Return a sensible move among `legal` (never empty) for the player in turn."""
    turn = state.turn
    assert turn is not None, "a legal move implies a turn in play"
    codes = {action.encode() for action in legal}
    addable = {action.faces[0] for action in legal if isinstance(action, Add)}
    car = _car_to_add(state, turn, addable, rng)
    if car is not None:
        return Add(faces=(car,))
    if "freight" in codes:
        return Freight() if _go_freight(state, turn, rng) else Stop()
    if "roll" in codes:
        return Roll()  # outside freight, a roll never loses what the train holds
    return Stop() if "stop" in codes else legal[0]


def _car_to_add(state: DiceState, turn: Turn, addable: set[Face], rng: random.Random) -> Face | None:
    """Return the car worth adding now, or None to roll or stop instead."""
    last_chance = not turn.freight and turn.rolls >= MAX_ROLLS
    if E in addable and E not in turn.train:
        return E
    if C in addable:
        return C
    hunting = _bonus_in_reach(turn) and not last_chance
    for face in CARGO_BEST_FIRST:
        if face in addable and not (hunting and face in turn.train):
            return face
    if E in addable and (last_chance or (not hunting and rng.random() < 0.5)):
        return E  # a second locomotive opens the freight train
    if K in addable and _take_caboose(state, turn, last_chance):
        return K
    return None


def _bonus_in_reach(turn: Turn) -> bool:
    """Whether the train is one E, one C and at least two different cargo cars: the bonus train is close."""
    cargo = [face for face in turn.train if face in CARGO_POINTS]
    return (
        not turn.freight
        and turn.train.count(E) == 1
        and C in turn.train
        and len(cargo) >= 2
        and len(set(cargo)) == len(cargo)
    )


def _take_caboose(state: DiceState, turn: Turn, last_chance: bool) -> bool:
    """Whether to end the turn with the caboose now."""
    points = score_train((*turn.train, K), turn.banked).points
    bar = state.bar if state.options.mode is GameMode.ELIMINATION else None
    if bar is not None and points <= bar and not last_chance:
        return False  # it would knock us out; roll for more
    return turn.freight or last_chance or points >= CABOOSE_WORTH


def _go_freight(state: DiceState, turn: Turn, rng: random.Random) -> bool:
    """Whether to bank the cargo and roll it again rather than stop."""
    points = score_train(turn.train, turn.banked).points
    if state.options.mode is GameMode.ELIMINATION and state.bar is not None:
        return points <= state.bar
    mine = state.total(turn.seat) + points
    rivals = max(state.total(seat) for seat in range(state.n_players) if seat != turn.seat)
    if state.last_round and mine <= rivals:
        return True  # stopping cannot win: risk it
    return points < FREIGHT_BELOW or (points < FREIGHT_MAYBE_BELOW and rng.random() < 0.3)
