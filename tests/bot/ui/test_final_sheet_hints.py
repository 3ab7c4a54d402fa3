"""The final sheet says how many hints each person took (issue 12), and says nothing of hints when nobody took one."""

from __future__ import annotations

import random

from bot.exts.dice._presenter import final_message
from bot.storage.games import GameRecord, SeatRecord
from rules.dice import DiceEngine, DiceOptions

ENGINE = DiceEngine()


def _finished_record(hints: tuple[int, int]) -> tuple[GameRecord, object, object]:
    state = ENGINE.new_game(DiceOptions(target=20), 3, 5)
    rng = random.Random(5)
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    seats = (
        SeatRecord(seat=0, name="Ann", user_id=1, hints=hints[0]),
        SeatRecord(seat=1, name="Ben", user_id=2, hints=hints[1]),
        SeatRecord(seat=2, name="Brunel", bot_kind="hard"),
    )
    record = GameRecord(1, "dice", 1, 1, 1, "finished", {}, 5, 9, None, seats)
    return record, ENGINE.view(state, None), ENGINE.result(state)


def test_the_final_sheet_lists_every_persons_hints_when_anyone_took_one() -> None:
    record, view, result = _finished_record((2, 0))
    message = final_message("en", record, view, [], result)  # type: ignore[arg-type]
    assert "Hints used: Ann (2 hints) · Ben (0 hints)" in message.blocks[1]
    message = final_message("ru", record, view, [], result)  # type: ignore[arg-type]
    assert "Подсказки: Ann (2 подсказки) · Ben (0 подсказок)" in message.blocks[1]


def test_the_final_sheet_says_nothing_of_hints_when_nobody_took_one() -> None:
    record, view, result = _finished_record((0, 0))
    message = final_message("en", record, view, [], result)  # type: ignore[arg-type]
    assert "Hints" not in "\n".join(message.blocks)
