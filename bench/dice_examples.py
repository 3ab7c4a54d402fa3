"""Example dice-game views for the gallery and the benchmark: a played opening and hand-set moments of play."""

from __future__ import annotations

from rules.dice import DiceEngine, DiceOptions, DiceView, Face, GameMode
from rules.dice.state import DiceState, OpeningRoll, Outcome, Turn, TurnRecord
from rules.engine import Seat
from rules.rng import Rng

ENGINE = DiceEngine()
NAMES = ["Anna", "Борис", "Charlotte-Amélie von Eisenbahn", "Dmitri", "Eve", "Фёдор"]
BOTS = frozenset({2, 5})
"""Seats a bot player sits in (its name gets the bot mark): a long name, and the finished race's winner."""


def _faces(letters: str) -> tuple[Face, ...]:
    return tuple(Face(letter) for letter in letters)


def _record(seat: Seat, round_: int, points: int, outcome: Outcome = Outcome.SCORED, train: str = "ECT") -> TurnRecord:
    return TurnRecord(seat=seat, round=round_, points=points, outcome=outcome, train=_faces(train))


def _state(turn: Turn | None, n_players: int, history: tuple[TurnRecord, ...] = (), **fields: object) -> DiceState:
    opening = (tuple(OpeningRoll(seat=s, face=Face.TANKER if s else Face.LOCOMOTIVE) for s in range(n_players)),)
    return DiceState.model_validate(
        {
            "options": fields.pop("options", DiceOptions()),
            "n_players": n_players,
            "rng": Rng(seed=1),
            "opening": opening,
            "first": 0,
            "turn": turn,
            "history": history,
            **fields,
        }
    )


def _history(n_players: int, rounds: int) -> tuple[TurnRecord, ...]:
    """A plausible run of turns: scores, a zero, a crash and a bonus train."""
    points = [16, 0, 24, 9, 25, 12, 0, 32, 14, 20, 6, 18]
    records = []
    for round_ in range(1, rounds + 1):
        for seat in range(n_players):
            score = points[(seat * 5 + round_ * 3) % len(points)]
            outcome = Outcome.BONUS if score == 25 else Outcome.SCORED if score else Outcome.INCOMPLETE
            if score == 0 and (seat + round_) % 2:
                outcome = Outcome.CRASHED
            records.append(_record(seat, round_, score, outcome))
    return tuple(records)


def turn_views() -> dict[str, DiceView]:
    """Turn pictures: the first roll of a game, a turn in progress, a full freight train, a freight run."""
    views = {"turn_opening": ENGINE.view(ENGINE.new_game(DiceOptions(), 4, seed=5), None)}
    middle = Turn(seat=1, showing=_faces("KHE"), train=_faces("ECT"), rolls=2)
    views["turn_middle"] = ENGINE.view(_state(middle, 3, _history(3, 2), round=3), None)
    six = Turn(seat=0, showing=(), train=_faces("EECTTH"), rolls=2)
    views["turn_six_cars"] = ENGINE.view(_state(six, 2, last_round=True), None)
    freight = Turn(seat=2, showing=_faces("HK"), train=_faces("EECT"), freight=True, banked=19, added_since_roll=1)
    views["turn_freight"] = ENGINE.view(_state(freight, 3), None)
    return views


def finished_turns() -> dict[str, TurnRecord]:
    """Finished turns: the book's crash, a bonus train, a caboose train, an incomplete one."""
    return {
        "finished_crash": TurnRecord(
            seat=0, round=2, points=0, outcome=Outcome.CRASHED, train=_faces("EEC"), showing=_faces("ECC"), banked=19
        ),
        "finished_bonus": TurnRecord(seat=1, round=2, points=25, outcome=Outcome.BONUS, train=_faces("ECTHBK")),
        "finished_caboose": TurnRecord(
            seat=2, round=2, points=32, outcome=Outcome.SCORED, train=_faces("EECHBK"), banked=10
        ),
        "finished_incomplete": TurnRecord(
            seat=3, round=2, points=0, outcome=Outcome.INCOMPLETE, train=_faces("E"), showing=_faces("KKTBH")
        ),
    }


def score_views() -> dict[str, DiceView]:
    """Score tables: a race in its last round, a finished six-player race, an elimination game."""
    race = Turn(seat=2, showing=_faces("TTHBEC"), rolls=1)
    history = _history(4, 5)
    views = {"scores_last_round": ENGINE.view(_state(race, 4, history, round=6, last_round=True), None)}
    views["scores_game_over"] = ENGINE.view(_state(None, 6, _history(6, 7), round=7, last_round=True), None)
    elimination = Turn(seat=3, showing=_faces("ECTTHK"), rolls=1)
    views["scores_elimination"] = ENGINE.view(
        _state(
            elimination,
            5,
            _history(5, 2),
            options=DiceOptions(mode=GameMode.ELIMINATION),
            round=3,
            bar=25,
            eliminated=(1, 4),
        ),
        None,
    )
    return views
