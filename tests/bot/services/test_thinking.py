"""Bot players and hints think in worker processes, fairly and within bounds: the same move as thought here; a killed
or hung worker's request retried in a fresh one and only that request failing; the normal level in a thread after a
second death or when a level fails; bot moves before hints and each person's hints in turn, from one queue; a
person's, a game's and everyone's hints bounded, past a bound refused in words; the same question thought once; and a
game whose bot is thinking serves every click at once and thinks again when it moved on meanwhile.

Slow thoughts are made by a thinking function that waits on an event the test sets (a manager's, so it reaches the
worker): never on the clock."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
import signal
from collections.abc import Iterator
from concurrent.futures import wait
from typing import Any

import pytest

from bot.i18n import render
from bot.services import thinking
from bot.services.errors import ServiceError
from bot.services.lobby import LobbyService
from bot.services.thinking import POOL, HintRefused, Thinker, WorkerDied, choose_move
from bot.settings import Settings
from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.workers import QueuedPool, default_workers, usable_cores
from rules.dice import DiceEngine, Roll
from rules.engine import Budget, CommonReason, Hint, IllegalAction, Message
from rules.ttr import TicketToRideEngine
from tests.bot import thinking_support
from tests.bot.services.game_parts import GameParts, game_parts
from tests.bot.thinking_support import (
    Gate,
    Turnstile,
    dying_move,
    failing_move,
    fixed_hint,
    spinning_hint,
    spinning_move,
)

ANN, BEN, CAT, DAN, EVE = 1, 2, 3, 4, 5
TTR = TicketToRideEngine()
DICE = DiceEngine()
manager = thinking_support.manager
gate = thinking_support.gate
turnstile = thinking_support.turnstile


@pytest.fixture(scope="module")
def pool() -> Iterator[QueuedPool]:
    """Two thinking workers of the tests' own, started."""
    workers = QueuedPool("test thinking", 2)
    wait(workers.start())
    yield workers
    workers.shutdown()


def test_a_queued_pool_starts_a_worker_at_its_first_request_and_is_sized_to_the_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workers = QueuedPool("test lazy", 2)
    try:
        assert workers.pids() == [None, None], "nothing is spawned before it is asked for"
        first = workers.submit(os.getpid).result(timeout=120)
        assert workers.pids() == [first, None], "one request, one worker"
        wait(workers.start())
        assert first in workers.pids() and None not in workers.pids()
    finally:
        workers.shutdown()
    monkeypatch.delenv("CONDUCTOR_THINKING_WORKERS", raising=False)
    assert default_workers() == max(2, usable_cores())
    assert Settings(_env_file=None).thinking_workers == default_workers()


def test_a_queued_pool_runs_urgent_requests_first_then_each_owners_in_turn(manager: Any) -> None:
    workers = QueuedPool("test order", 1)
    held = Gate(manager)
    try:
        holding = workers.submit(held.hold())
        held.entered.get(True, 60)  # the one worker is busy: what follows waits in the queue
        order: list[str] = []
        asked = [("ann 1", ANN, False), ("ann 2", ANN, False), ("ben 1", BEN, False), ("bot", None, True)]
        for label, owner, urgent in asked:
            future = workers.submit(os.getpid, urgent=urgent, owner=owner)
            future.add_done_callback(functools.partial(done_with, order, label))
        assert workers.waiting() == 3, "the urgent request is not counted as waiting work"
        held.release.set()
        holding.result(timeout=60)
        wait([workers.submit(os.getpid, owner=ANN)])  # Ann's third: after everything queued before it
        assert order == ["bot", "ann 1", "ben 1", "ann 2"]
    finally:
        held.release.set()
        workers.shutdown()


def done_with(order: list[str], label: str, _: object) -> None:
    order.append(label)


async def test_a_worker_thinks_of_the_same_move_as_this_process(pool: QueuedPool) -> None:
    state = TTR.new_game(TTR.load_options({}), 3, 11)
    thinker = Thinker(Budget(0.2), pool)
    for seat in range(3):
        thought = await thinker.choose(5, TTR, state, seat, f"11/bot/{seat}", "normal", version=0)
        assert thought == TTR.bot_action(state, seat, random.Random(f"11/bot/{seat}"), "normal", Budget(0.2))


async def test_a_worker_killed_mid_thought_is_replaced_and_the_thought_asked_again(
    pool: QueuedPool, gate: Gate
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 3)
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = gate.move()
    replaced = pool.replaced
    thought = asyncio.create_task(thinker.choose(0, TTR, state, 1, "seed", "normal", version=0))
    first = await gate.wait_entered()
    os.kill(first, signal.SIGKILL)
    again = await gate.wait_entered()  # asked again, of a fresh worker
    assert again != first and first not in pool.pids() and pool.replaced == replaced + 1
    gate.release.set()
    assert await thought == TTR.bot_action(state, 1, random.Random("seed"))


async def test_after_a_second_death_or_a_failing_level_the_normal_level_plays_in_a_thread(
    pool: QueuedPool, caplog: pytest.LogCaptureFixture
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 3)
    normal = TTR.bot_action(state, 0, random.Random("s"), "normal")
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = dying_move
    with caplog.at_level(logging.WARNING):
        assert await thinker.choose(0, TTR, state, 0, "s", "hard", version=0) == normal
    assert "thinking workers died twice; the normal level plays seat 0" in caplog.text
    thinker.move = failing_move
    assert await thinker.choose(0, TTR, state, 0, "s", "hard", version=0) == normal
    assert "the hard level failed; the normal level plays seat 0" in caplog.text
    thinker.move = choose_move
    assert await thinker.choose(0, TTR, state, 0, "s", "normal", version=0) == normal, "the pool still thinks"


async def test_a_hung_thought_ends_its_worker_and_the_normal_level_plays(
    pool: QueuedPool, caplog: pytest.LogCaptureFixture
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 5)
    thinker = Thinker(Budget(0.2), pool)
    thinker.move, thinker.hung_after = spinning_move, 0.5
    replaced = pool.replaced
    with caplog.at_level(logging.WARNING):
        assert await thinker.choose(0, TTR, state, 0, "s", "hard", version=0) == TTR.bot_action(
            state, 0, random.Random("s")
        )
    assert "thinking workers died twice; the normal level plays seat 0" in caplog.text
    assert pool.replaced == replaced + 2, "each hung worker was replaced"
    thinker.move = choose_move
    assert await thinker.choose(0, TTR, state, 1, "s", "normal", version=0) == TTR.bot_action(
        state, 1, random.Random("s")
    )


async def test_a_hung_hint_ends_only_its_worker_while_a_move_on_the_other_finishes(
    pool: QueuedPool, gate: Gate
) -> None:
    state = TTR.new_game(TTR.load_options({}), 2, 5)
    thinker = Thinker(Budget(0.2), pool)
    thinker.move, thinker.advice, thinker.hung_after = gate.move(), spinning_hint, 0.5
    replaced = pool.replaced
    move = asyncio.create_task(thinker.choose(0, TTR, state, 1, "seed", "normal", version=0))
    holding = await gate.wait_entered()
    with pytest.raises(WorkerDied):  # it burnt its CPU limit twice, each time in the other worker
        await thinker.hint(0, TTR, state, 0, "s", version=0, person=ANN)
    assert pool.replaced == replaced + 2 and holding in pool.pids(), "only the hung workers were replaced"
    gate.release.set()
    assert await move == TTR.bot_action(state, 1, random.Random("seed"))


async def test_a_flood_of_hints_does_not_hold_up_another_games_bot_move(pool: QueuedPool, turnstile: Turnstile) -> None:
    state = TTR.new_game(TTR.load_options({}), 3, 7)
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = turnstile.hint()
    finished: list[str] = []

    def ask(label: str, thought: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(thought)
        task.add_done_callback(lambda _: finished.append(label))
        return task

    running = [
        ask(f"hint {p}", thinker.hint(1, TTR, state, s, "s", version=0, person=p)) for s, p in ((0, ANN), (1, BEN))
    ]
    await turnstile.wait_entered()
    await turnstile.wait_entered()  # both workers think about game 1's hints
    queued = [
        ask("hint 3", thinker.hint(1, TTR, state, 2, "s", version=0, person=CAT)),
        ask("hint 4", thinker.hint(2, TTR, state, 0, "s", version=0, person=DAN)),
        ask("hint 5", thinker.hint(3, TTR, state, 0, "s", version=0, person=EVE)),
    ]
    await asyncio.sleep(0)  # each asks the workers as it starts
    assert pool.waiting() == 3
    move = ask("move", thinker.choose(4, TTR, state, 0, "m", "normal", version=0))
    await asyncio.sleep(0)
    turnstile.let_one()  # one worker is free again: it takes the bot move, asked last, before every waiting hint
    next_entered = asyncio.create_task(turnstile.wait_entered())
    done, _ = await asyncio.wait({move, next_entered}, return_when=asyncio.FIRST_COMPLETED)
    assert move in done, "a waiting hint was thought about before the bot move"
    assert await move == TTR.bot_action(state, 0, random.Random("m"), "normal", Budget(0.2))
    turnstile.let_all()
    await asyncio.gather(*running, *queued, next_entered)
    assert finished.index("move") < min(finished.index(f"hint {n}") for n in (3, 4, 5))


async def test_a_person_has_one_hint_in_flight_a_game_a_few_and_the_workers_a_bounded_queue(
    pool: QueuedPool, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = TTR.new_game(TTR.load_options({}), 4, 7)
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = gate.hint()
    first = asyncio.create_task(thinker.hint(1, TTR, state, 0, "s", version=0, person=ANN))
    await gate.wait_entered()
    with pytest.raises(HintRefused) as pending:  # Ann asks in another game meanwhile
        await thinker.hint(2, TTR, state, 0, "s", version=0, person=ANN)
    assert pending.value.reason == "players.reason.hint_pending"
    same = asyncio.create_task(thinker.hint(1, TTR, state, 0, "s", version=0, person=ANN))  # shares the first
    others = [
        asyncio.create_task(thinker.hint(1, TTR, state, s, "s", version=0, person=p)) for s, p in ((1, BEN), (2, CAT))
    ]
    await asyncio.sleep(0)
    with pytest.raises(HintRefused) as game_busy:
        await thinker.hint(1, TTR, state, 3, "s", version=0, person=DAN)
    assert game_busy.value.reason == "players.reason.game_hints_busy"
    monkeypatch.setattr(thinking, "HINTS_WAITING", 1)  # one waiting hint per worker: game 1's third waits already
    waiting = asyncio.create_task(thinker.hint(2, TTR, state, 0, "s", version=0, person=DAN))
    await asyncio.sleep(0)
    assert pool.waiting() == 2
    with pytest.raises(HintRefused) as busy:
        await thinker.hint(3, TTR, state, 0, "s", version=0, person=EVE)
    assert busy.value.reason == "players.reason.thinking_busy"
    gate.release.set()
    assert await first == await same
    await asyncio.gather(*others, waiting)


async def two_people(svc: GameParts, first_seed: int) -> int:
    """A dice game of Ann and Ben, started and played on until it is Ann's move."""
    record = await LobbyService(svc.games).open_lobby(
        game="dice", guild_id=9, channel_id=17 + first_seed, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).start(record.id, ANN)
    rng = random.Random(first_seed)
    while 0 not in DICE.to_act(svc.games.state(record.id)):  # type: ignore[arg-type]
        await svc.moves.act(record.id, BEN, DICE.bot_action(svc.games.state(record.id), 1, rng))  # type: ignore[arg-type]
    return record.id


async def test_the_same_hint_asked_at_once_and_again_is_thought_about_once(
    db: Database, pool: QueuedPool, gate: Gate
) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = gate.hint()
    svc = game_parts(GameStore(db), {"dice": DICE}, bot_move_delay=3600, thinker=thinker)
    game_id = await two_people(svc, 1)
    asked = [asyncio.create_task(svc.bots.hint(game_id, ANN)) for _ in range(3)]
    await gate.wait_entered()
    gate.release.set()
    answers = [advice.hint for advice in await asyncio.gather(*asked)]
    answers.append((await svc.bots.hint(game_id, ANN)).hint)
    assert answers == [answers[0]] * 4
    assert gate.entered.empty(), "one search answered all four"
    stored = await svc.games.store.get(game_id)
    assert stored is not None and stored.seats[0].hints == 4, "each answer is a hint given"
    await svc.close(timeout=0)


async def test_a_hint_past_a_bound_is_refused_in_words(db: Database, pool: QueuedPool, gate: Gate) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = gate.hint()
    svc = game_parts(GameStore(db), {"dice": DICE}, bot_move_delay=3600, thinker=thinker)
    first, second = await two_people(svc, 1), await two_people(svc, 2)
    thought = asyncio.create_task(svc.bots.hint(first, ANN))
    await gate.wait_entered()
    with pytest.raises(ServiceError) as refused:
        await svc.bots.hint(second, ANN)
    assert render("en", refused.value.message) == "Your last hint is still being worked out; it will come in a moment."
    gate.release.set()
    assert (await thought).seat == 0
    stored = await svc.games.store.get(second)
    assert stored is not None and stored.seats[0].hints == 0, "a refusal is not counted"
    await svc.close(timeout=0)


async def service(db: Database, thinker: Thinker) -> tuple[GameParts, int]:
    """A dice game of Ann and a bot player, started, whose bot moves only when the test asks."""
    svc = game_parts(GameStore(db), {"dice": DICE}, bot_move_delay=3600, thinker=thinker)
    record = await LobbyService(svc.games).open_lobby(
        game="dice", guild_id=9, channel_id=17, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).add_bot(record.id, ANN, "hard")
    await LobbyService(svc.games).start(record.id, ANN)
    return svc, record.id


def bot_to_act(svc: GameParts, game_id: int) -> bool:
    return 1 in DICE.to_act(svc.games.state(game_id))  # type: ignore[arg-type]


async def test_a_game_whose_bot_is_thinking_answers_at_once_and_the_bot_thinks_again_if_it_moved_on(
    db: Database, pool: QueuedPool, gate: Gate
) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.move = gate.move()
    svc, game_id = await service(db, thinker)
    rng = random.Random(1)
    while not bot_to_act(svc, game_id):  # Ann opens: she plays until the bot is to act
        await svc.moves.act(game_id, ANN, DICE.bot_action(svc.games.state(game_id), 0, rng))  # type: ignore[arg-type]
    thinking = asyncio.create_task(svc.bots.play_bot_move(game_id))
    await gate.wait_entered()
    with pytest.raises(IllegalAction) as refused:  # a click while the bot thinks: answered at once
        await asyncio.wait_for(svc.moves.act(game_id, ANN, Roll()), timeout=5)
    assert refused.value.reason is CommonReason.NOT_YOUR_TURN
    before = (await svc.games.get(game_id)).version
    await svc.moves.hand_to_bot(game_id, 0)  # Ann's seat handed over meanwhile: a new version
    gate.release.set()
    await gate.wait_entered()  # the first thought was for an older version: thought again
    outcome = await thinking
    assert outcome is not None and outcome.by_bot and outcome.record.version == before + 2
    await svc.close(timeout=0)


async def test_a_hint_is_thought_in_a_worker_and_counted_for_the_seat(db: Database, pool: QueuedPool) -> None:
    thinker = Thinker(Budget(0.2), pool)
    thinker.advice = fixed_hint
    svc = game_parts(GameStore(db), {"dice": DICE}, bot_move_delay=3600, thinker=thinker)
    record = await LobbyService(svc.games).open_lobby(
        game="dice", guild_id=9, channel_id=17, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    started = await LobbyService(svc.games).start(record.id, ANN)
    state = svc.games.state(record.id)
    mover = ANN if 0 in DICE.to_act(state) else BEN  # type: ignore[arg-type]
    waiting = BEN if mover == ANN else ANN
    with pytest.raises(ServiceError) as refused:
        await svc.bots.hint(record.id, waiting)
    assert refused.value.message.key == "players.reason.not_your_move"
    with pytest.raises(ServiceError) as stranger:
        await svc.bots.hint(record.id, 99)
    assert stranger.value.message.key == "bot.reason.not_a_player"
    advice = await svc.bots.hint(record.id, mover)
    seat = advice.seat
    assert isinstance(advice.hint, Hint) and advice.hint.reason == Message(key="players.about.hard")
    assert advice.hint.action in DICE.legal_actions(state, seat)  # type: ignore[arg-type]
    await svc.bots.hint(record.id, mover)
    stored = await svc.games.store.get(record.id)
    assert stored is not None
    assert {s.seat: s.hints for s in stored.seats} == {seat: 2, 1 - seat: 0}
    assert stored.version == started.version, "a hint is no move"
    await svc.close(timeout=0)


def test_the_process_pool_is_what_a_service_thinks_with_by_default() -> None:
    assert Thinker().pool is POOL
