"""The replay animation (render/replay.py): one frame per turn plus the start, the last held longest, drawn from
public views only, under Discord's 10 MiB for a 5-player Europe game (the largest there is)."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games import GAMES as OFFERED
from render.replay import (
    EXTENSION,
    FINAL_MS,
    MAX_BYTES,
    TURN_MS,
    _indexed,
    _padded,
    render_game_replay,
    render_replay,
)
from rules.cardgame.view import CardGameView
from rules.dice.view import DiceView
from rules.history import tell_log
from rules.ttr.view import PublicView
from tests.rules.test_score_history import engine_of, played

LABELS = {"replay.frame.turn": "Turn {turn} of {turns}: {player}"}


def frames_of(data: bytes) -> tuple[int, list[int]]:
    """How many frames an animation has, and each frame's duration."""
    with Image.open(io.BytesIO(data)) as animation:
        durations = []
        for index in range(animation.n_frames):
            animation.seek(index)
            animation.load()  # a WebP frame tells its duration once decoded
            durations.append(int(animation.info.get("duration", 0)))
        return animation.n_frames, durations


@pytest.mark.slow
def test_a_five_player_europe_game_has_a_frame_per_turn_and_stays_under_the_upload_limit() -> None:
    log = played("ticket-to-ride", 5, {"map": "europe"}, seed=3)
    story = tell_log(engine_of("ticket-to-ride"), {"map": "europe"}, 5, 3, log)
    animation = render_game_replay(
        OFFERED["ticket-to-ride"].pictures,
        engine_of("ticket-to-ride"),
        {"map": "europe"},
        5,
        3,
        log,
        list("ABCDE"),
        LABELS,
    )
    assert EXTENSION == "webp", "this Pillow writes animated WebP"
    assert len(animation.data) < MAX_BYTES, f"{len(animation.data):,} bytes"
    count, durations = frames_of(animation.data)
    assert count == animation.frames == len(story.turns) > 100
    assert durations[-1] == FINAL_MS and set(durations[:-1]) == {TURN_MS}, "the end is held longer"


@pytest.mark.slow
def test_each_frame_is_drawn_from_the_public_view() -> None:
    seen: list[Any] = []
    for game, players, options, kind in [
        ("ticket-to-ride-cards", 2, {}, CardGameView),
        ("dice", 2, {}, DiceView),
        ("ticket-to-ride", 2, {"map": "usa"}, PublicView),
    ]:
        pictures = OFFERED[game].pictures
        watched = replace(
            pictures, frame=lambda view, labels, names, d=pictures.frame: seen.append(view) or d(view, labels, names)
        )
        log = played(game, players, options, seed=9)
        story = tell_log(engine_of(game), options, players, 9, log)
        animation = render_replay(watched, story, ["Ann", "Ben"], LABELS)
        assert frames_of(animation.data)[0] == len(story.turns)
        assert [type(view) for view in seen] == [kind] * len(story.turns), "a public view, never a seat's"
        if kind is CardGameView:
            assert all(view.seat is None and view.hand is None and view.offered is None for view in seen)
        seen.clear()


def test_a_shorter_frame_is_padded_with_its_bottom_row_and_keeps_its_colours_exactly() -> None:
    drawn = Image.new("RGB", (60, 30), (34, 40, 52))
    ImageDraw.Draw(drawn).rectangle((5, 5, 25, 20), fill=(200, 30, 30))
    ImageDraw.Draw(drawn).line((0, 29, 59, 29), fill=(20, 160, 60))
    frame = _indexed(drawn)
    padded = _padded(frame, 45)
    assert padded.mode == "P" and padded.size == (60, 45)
    assert padded.getpalette() == frame.getpalette(), "one palette for the frame: the encoder sees only what changed"
    assert padded.crop((0, 0, 60, 30)).convert("RGB").tobytes() == frame.convert("RGB").tobytes()
    below = padded.crop((0, 30, 60, 45)).convert("RGB")
    assert below.getcolors() == [(60 * 15, (20, 160, 60))], "the room below repeats the bottom row"
