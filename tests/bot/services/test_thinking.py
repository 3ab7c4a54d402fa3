"""Bot players think in worker processes: the same move as thought here, a killed worker's request retried in a
fresh one, the normal level in a thread after a second death or when a level fails, and a game whose bot is
thinking serves every click at once and thinks again when it moved on meanwhile.

Slow thoughts are made by a thinking function that waits on an event the test sets (a manager's, so it reaches the
worker): never on the clock."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from collections.abc import Iterator

import pytest

from bot.services.games import GameService, ServiceError
from bot.services.thinking import POOL, Thinker, choose_move
from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.workers import WorkerPool
from rules.dice import DiceEngine
from rules.engine import Budget, CommonReason, IllegalAction, Message
from rules.ttr import TicketToRideEngine
from tests.bot import thinking_support
from tests.bot.thinking_support import Gate, dying_move, failing_move, fixed_hint, spinning_move

ANN, BEN = 1, 2
TTR = TicketToRideEngine()
manager = thinking_support.manager
gate = thinking_support.gate


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """One thinking worker of the tests' own."""
    workers = WorkerPool("test thinking", 1)
    workers.start()
    yield workers
    workers.shutdown()


async def test_a_worker_thinks_of_the_same_move_as_this_process(pool: WorkerPool) -> None:
    state = TTR.new_game(TTR.load_options({}), 3, 11)
    thinker = Thinker(Budget(0.2), pool)
    for seat in range(3):
        thought = await thinker.choose(5, TTR, state, seat, f"11/bot/{seat}", "normal")
        assert thought == TTR.bot_action(state, seat, random.Random(f"11/bot/{seat}"), "normal", Budget(0.2))


async def test_a_worker_killed_mid_thought_is_replaced_and_the_thought_asked_again(
    pool: WorkerPool, gate: Gate
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 3)
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = gate.move()
    replaced = pool.replaced
    thought = asyncio.create_task(thinker.choose(0, TTR, state, 1, "seed", "normal"))
    await gate.wait_entered()
    [first] = pool.pids()
    assert first is not None
    os.kill(first, signal.SIGKILL)
    await gate.wait_entered()  # asked again, of a fresh worker
    assert pool.pids() != [first] and pool.replaced == replaced + 1
    gate.release.set()
    assert await thought == TTR.bot_action(state, 1, random.Random("seed"))


async def test_after_a_second_death_or_a_failing_level_the_normal_level_plays_in_a_thread(
    pool: WorkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 3)
    normal = TTR.bot_action(state, 0, random.Random("s"), "normal")
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = dying_move
    with caplog.at_level(logging.WARNING):
        assert await thinker.choose(0, TTR, state, 0, "s", "hard") == normal
    assert "thinking workers died twice; the normal level plays seat 0" in caplog.text
    thinker.move = failing_move
    assert await thinker.choose(0, TTR, state, 0, "s", "hard") == normal
    assert "the hard level failed; the normal level plays seat 0" in caplog.text
    thinker.move = choose_move
    assert await thinker.choose(0, TTR, state, 0, "s", "normal") == normal, "the pool still thinks"


async def test_a_hung_thought_ends_its_worker_and_the_normal_level_plays(
    pool: WorkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 5)
    thinker = Thinker(Budget(0.2), pool)
    thinker.move, thinker.hung_after = spinning_move, 0.5
    replaced = pool.replaced
    with caplog.at_level(logging.WARNING):
        assert await thinker.choose(0, TTR, state, 0, "s", "hard") == TTR.bot_action(state, 0, random.Random("s"))
    assert "thinking workers died twice; the normal level plays seat 0" in caplog.text
    assert pool.replaced == replaced + 2, "each hung worker was replaced"
    thinker.move = choose_move
    assert await thinker.choose(0, TTR, state, 1, "s", "normal") == TTR.bot_action(state, 1, random.Random("s"))


async def service(db: Database, thinker: Thinker) -> tuple[GameService, int]:
    """A dice game of Ann and a bot player, started, whose bot moves only when the test asks."""
    svc = GameService(GameStore(db), {"dice": DiceEngine()}, bot_move_delay=3600, thinker=thinker)
    record = await svc.open_lobby(game="dice", guild_id=9, channel_id=17, host_id=ANN, host_name="Ann")
    await svc.add_bot(record.id, ANN, "hard")
    await svc.start(record.id, ANN)
    return svc, record.id


def bot_to_act(svc: GameService, game_id: int) -> bool:
    return 1 in DiceEngine().to_act(svc.state(game_id))  # type: ignore[arg-type]


async def test_a_game_whose_bot_is_thinking_answers_at_once_and_the_bot_thinks_again_if_it_moved_on(
    db: Database, pool: WorkerPool, gate: Gate
) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = gate.move()
    svc, game_id = await service(db, thinker)
    rng = random.Random(1)
    while not bot_to_act(svc, game_id):  # Ann opens: she plays until the bot is to act
        await svc.act(game_id, ANN, DiceEngine().bot_action(svc.state(game_id), 0, rng).encode())  # type: ignore[arg-type]
    thinking = asyncio.create_task(svc.play_bot_move(game_id))
    await gate.wait_entered()
    with pytest.raises(IllegalAction) as refused:  # a click while the bot thinks: answered at once
        await asyncio.wait_for(svc.act(game_id, ANN, "roll"), timeout=5)
    assert refused.value.reason is CommonReason.NOT_YOUR_TURN
    before = (await svc.get(game_id)).version
    await svc.hand_to_bot(game_id, 0)  # Ann's seat handed over meanwhile: a new version
    gate.release.set()
    await gate.wait_entered()  # the first thought was for an older version: thought again
    outcome = await thinking
    assert outcome is not None and outcome.by_bot and outcome.record.version == before + 2
    await svc.close(timeout=0)


async def test_a_hint_is_thought_in_a_worker_and_counted_for_the_seat(db: Database, pool: WorkerPool) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = fixed_hint
    svc = GameService(GameStore(db), {"dice": DiceEngine()}, bot_move_delay=3600, thinker=thinker)
    record = await svc.open_lobby(game="dice", guild_id=9, channel_id=17, host_id=ANN, host_name="Ann")
    await svc.join(record.id, BEN, "Ben")
    started = await svc.start(record.id, ANN)
    state = svc.state(record.id)
    mover = ANN if 0 in DiceEngine().to_act(state) else BEN  # type: ignore[arg-type]
    waiting = BEN if mover == ANN else ANN
    with pytest.raises(ServiceError) as refused:
        await svc.hint(record.id, waiting)
    assert refused.value.message.key == "players.reason.not_your_move"
    with pytest.raises(ServiceError) as stranger:
        await svc.hint(record.id, 99)
    assert stranger.value.message.key == "bot.reason.not_a_player"
    advice = await svc.hint(record.id, mover)
    seat = advice.seat
    assert advice.hint.reason == Message(key="players.about.hard")
    assert advice.hint.action in DiceEngine().legal_actions(state, seat)  # type: ignore[arg-type]
    await svc.hint(record.id, mover)
    stored = await svc.store.get(record.id)
    assert stored is not None
    assert {s.seat: s.hints for s in stored.seats} == {seat: 2, 1 - seat: 0}
    assert stored.version == started.version, "a hint is no move"
    await svc.close(timeout=0)


def test_the_process_pool_is_what_a_service_thinks_with_by_default() -> None:
    assert Thinker().pool is POOL
