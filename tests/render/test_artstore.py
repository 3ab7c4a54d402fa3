"""The art store: static art drawn once per installed version, found by every later process and worker, and the
pictures drawn from it the same, pixel for pixel, as those drawn fresh."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from bot.ui.pictures import labels
from bot.workers import WorkerPool
from render import artstore
from render.caches import clear_caches
from render.cardgame import render_table
from render.ttr import render_board
from rules.cardgame import CardGameEngine
from rules.ttr import TicketToRideEngine

TTR = TicketToRideEngine()
CARDS = CardGameEngine()
CASES = (("usa", "en"), ("europe", "ru"))
"""Each map in one language, so both languages and both maps are drawn (each is seconds of drawing)."""


def board(map_id: str, language: str) -> bytes:
    """A board of a game a few moves in, as posted."""
    state = TTR.new_game(TTR.load_options({"map": map_id}), 3, seed=5)
    return render_board(TTR.view(state, None), labels(language), ["Ann", "Борис", "Chen"])


def table(language: str) -> bytes:
    """The card game's table at its start."""
    state = CARDS.new_game(CARDS.load_options({}), 2, seed=5)
    return render_table(CARDS.view(state, None), labels(language), ["Ann", "Борис"])


def pictures() -> dict[str, bytes]:
    """Every picture these tests compare, by name."""
    drawn = {f"{map_id}-{language}": board(map_id, language) for map_id, language in CASES}
    drawn |= {f"table-{language}": table(language) for language in ("en", "ru")}
    return drawn


@pytest.mark.slow
def test_art_is_drawn_once_into_a_fresh_store_then_loaded_by_this_process_every_worker_and_the_next_start_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One test, as drawing the art fresh is seconds: drawn pictures and pictures from the store, pixel for pixel."""
    monkeypatch.setattr(artstore.STORE, "folder", None)
    clear_caches()
    artstore.use(tmp_path)
    drawn_before, _ = artstore.counts()
    fresh = pictures()
    drawn, _ = artstore.counts()
    assert drawn > drawn_before and any(tmp_path.rglob("*.pickle")), "a fresh store is filled by the first drawing"

    clear_caches()  # as a new process: nothing in memory
    loaded_before = artstore.counts()[1]
    assert pictures() == fresh, "art from the store draws the same pictures as art drawn fresh, in both languages"
    assert artstore.counts()[0] == drawn, "nothing is drawn again"
    assert artstore.counts()[1] > loaded_before
    clear_caches()

    for start in range(2):  # two starts: a pool of new processes each time
        pool = WorkerPool(f"art test {start}", 2)
        pool.first = functools.partial(artstore.use, tmp_path)
        try:
            for worker in range(pool.workers):
                assert pool.submit(worker, board, "usa", "en").result() == fresh["usa-en"]
                assert pool.submit(worker, table, "ru").result() == fresh["table-ru"]
                drawn_there, loaded_there = pool.submit(worker, artstore.counts).result()
                assert drawn_there == 0 and loaded_there > 0, f"worker {worker} of start {start} drew stored art"
        finally:
            pool.shutdown()


def test_each_version_of_the_drawing_code_has_its_own_art(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(artstore.STORE, "folder", None)
    artstore.use(tmp_path)
    assert artstore.STORE.folder == tmp_path / artstore.version()[: artstore.VERSION_CHARS]
    old = tmp_path / "0123456789abcdef"
    old.mkdir()
    current = tmp_path / artstore.version()[: artstore.VERSION_CHARS]
    current.mkdir()
    artstore.prune(tmp_path)
    assert old.exists(), "another version's art in use lately is kept"
    monkeypatch.setattr(artstore, "STALE_SECONDS", -1.0)
    artstore.prune(tmp_path)
    assert not old.exists() and current.exists()


def test_a_torn_file_is_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(artstore.STORE, "folder", None)
    artstore.use(tmp_path)
    first = artstore.stored(maxsize=1)(_square)
    assert first(3) == 9
    [path] = tmp_path.rglob("*.pickle")
    path.write_bytes(b"not a pickle")
    drawn, _ = artstore.counts()
    again = artstore.stored(maxsize=1)(_square)
    assert again(3) == 9
    assert artstore.counts()[0] == drawn + 1


def _square(n: int) -> int:
    """A stand-in for a drawing."""
    return n * n
