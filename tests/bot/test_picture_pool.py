"""Pictures drawn in worker processes: the same bytes as drawn here, a killed worker fails its request and is
replaced, a game always goes to the same worker, kept pictures are counted, and public pictures never carry a
seat's view to a worker."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot import drawing
from bot.drawing import PictureCache
from bot.exts.cardgame import _pictures as cardgame_pictures
from bot.exts.ttr import _pictures as ttr_pictures
from bot.i18n import labels
from bot.storage.games import GameRecord, SeatRecord
from bot.workers import WorkerPool
from render.ttr import render_board, render_hand
from rules.cardgame import CardGameEngine
from rules.ttr.view import PublicView, SeatView
from tests.render.ttr.conftest import ENGINE, NAMES, play, seat_view

RECORD = GameRecord(
    id=41,
    game="ticket-to-ride",
    guild_id=1,
    channel_id=2,
    host_id=3,
    status="active",
    options={},
    seed=1,
    version=7,
    state=None,
    seats=tuple(SeatRecord(seat=s, name=n) for s, n in enumerate(NAMES[:3])),
)


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """Two cold workers (no warmers: the first drawing in each pays for its art)."""
    workers = WorkerPool("test", 2)
    yield workers
    workers.shutdown()


@pytest.mark.slow
def test_a_worker_draws_the_same_bytes_as_this_process(pool: WorkerPool) -> None:
    state = play("usa", 3, 5, moves=60)
    public = ENGINE.view(state, None)
    assert isinstance(public, PublicView)
    words = labels("en")
    drawn = pool.submit(RECORD.id, render_board, public, words, NAMES, RECORD.id).result(timeout=120)
    assert drawn == render_board(public, words, NAMES)
    again = pool.submit(RECORD.id, render_board, public, words, NAMES, RECORD.id).result(timeout=60)
    assert again == drawn  # from the base the worker kept for the game
    hand = seat_view(state, 1)
    assert pool.submit(9, render_hand, hand, words, NAMES).result(timeout=120) == render_hand(hand, words, NAMES)


def test_a_game_always_goes_to_the_same_worker(pool: WorkerPool) -> None:
    firsts = {route: pool.submit(route, os.getpid).result(timeout=60) for route in range(4)}
    assert firsts[0] == firsts[2] != firsts[1] == firsts[3]
    assert pool.submit(6, os.getpid).result(timeout=60) == firsts[0]


def drawing_long(started: threading.Event) -> None:
    """A long drawing in a worker: says it has begun (through a manager's event), then takes 30 seconds."""
    started.set()
    time.sleep(30)


def test_a_worker_killed_mid_draw_fails_its_request_and_the_next_one_is_drawn(pool: WorkerPool) -> None:
    before = pool.submit(1, os.getpid).result(timeout=60)
    with multiprocessing.get_context("spawn").Manager() as manager:
        started = manager.Event()
        sleeping = pool.submit(1, drawing_long, started)
        queued = pool.submit(3, os.getpid)
        assert started.wait(timeout=60)
    os.kill(before, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        sleeping.result(timeout=20)
    with pytest.raises(BrokenProcessPool):
        queued.result(timeout=20)
    after = pool.submit(1, os.getpid).result(timeout=120)
    assert after != before
    assert pool.replaced >= 1
    assert pool.submit(0, os.getpid).result(timeout=60) not in (before, after)  # the other worker lives on


class Recording:
    """A stand-in pool that draws in this thread and remembers what it was given."""

    name = "recording pictures"

    def __init__(self) -> None:
        self.calls: list[tuple[int, Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, route: int, draw: Callable[..., Any], *args: Any) -> Future[Any]:
        self.calls.append((route, draw, args))
        future: Future[Any] = Future()
        future.set_result(b"drawn" if draw is not drawing.forget_drawn else None)
        return future


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> tuple[Recording, Recording]:
    public, private = Recording(), Recording()
    monkeypatch.setattr(drawing, "PUBLIC", public)
    monkeypatch.setattr(drawing, "PRIVATE", private)
    monkeypatch.setattr(drawing, "PICTURES", PictureCache())
    monkeypatch.setattr(ttr_pictures, "PICTURES", drawing.PICTURES)
    monkeypatch.setattr(cardgame_pictures, "PICTURES", drawing.PICTURES)
    return public, private


async def test_public_pictures_never_carry_a_seats_view_to_a_worker(recording: tuple[Recording, Recording]) -> None:
    public, private = recording
    state = play("europe", 3, 2, moves=40)
    mine = seat_view(state, 0)
    assert mine.hand
    await ttr_pictures.board("en", RECORD, mine)  # a seat's view handed to a public picture by mistake
    await ttr_pictures.score_sheet("en", RECORD, mine)
    await ttr_pictures.hand("en", RECORD, mine)
    cards = CardGameEngine()
    card_state = cards.new_game(cards.load_options({}), 2, seed=3)
    await cardgame_pictures.table("en", RECORD, cards.view(card_state, None))
    await cardgame_pictures.hand("en", RECORD, cards.view(card_state, 1))
    for _, _, args in public.calls:
        for arg in args:
            assert not isinstance(arg, SeatView)
            assert getattr(arg, "seat", None) is None, arg
    assert len(public.calls) == 3
    assert [type(args[0]) for _, _, args in private.calls] == [SeatView, type(cards.view(card_state, 1))]
    assert all(route == RECORD.id for route, _, _ in public.calls + private.calls)


async def test_kept_pictures_are_counted_shared_while_drawn_and_bounded_in_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()
    drawn: list[int] = []

    class Slow(Recording):
        def submit(self, route: int, draw: Callable[..., Any], *args: Any) -> Future[Any]:
            future: Future[Any] = Future()

            def finish() -> None:
                release.wait(10)
                drawn.append(route)
                future.set_result(draw(*args))

            threading.Thread(target=finish).start()
            return future

    monkeypatch.setattr(drawing, "PUBLIC", Slow())
    cache = PictureCache(max_bytes=250)
    first = asyncio.ensure_future(cache.get((1, 1, "board"), bytes, 100))
    second = asyncio.ensure_future(cache.get((1, 1, "board"), bytes, 100))
    await asyncio.sleep(0)  # both asked before the first is drawn
    release.set()
    assert await first == await second == bytes(100)
    assert drawn == [1] and (cache.hits, cache.misses) == (1, 1)
    assert await cache.get((1, 1, "board"), bytes, 100) == bytes(100)
    for version in (2, 3, 4):
        await cache.get((1, version, "board"), bytes, 100)
    assert cache.size <= 250 and (cache.hits, cache.misses) == (2, 4)
    cache.forget(lambda key: True)
    assert cache.size == 0


def test_a_game_that_ends_is_forgotten_here_and_in_its_worker(recording: tuple[Recording, Recording]) -> None:
    public, _ = recording
    drawing.forget_game(RECORD.id)
    assert public.calls == [(RECORD.id, drawing.forget_drawn, (RECORD.id,))]
