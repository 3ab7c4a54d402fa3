"""A finished game's replay: an animated picture of the public table, one frame per turn, the last held longer,
and its public log as JSON.

Each frame is the picture the game posts in its channel (the board, the card table, the dice's last train and the
score table), drawn from the public view only, scaled to `FRAME_WIDTH` and captioned with the turn. Animated WebP
(lossy: a 5-player Europe game comes to about 5.5 MB of Discord's 10 MiB, `bench/replay.py`), or GIF where Pillow
writes no WebP. A game that would still pass the limit is drawn again smaller. The log holds only what the table
showed (`rules.history.spectate`); the full log, which rebuilds every hand, stays in the database.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, features

from render.fonts import font
from render.games import GamePictures
from render.labels import Labels, text_for
from rules.engine import Seat
from rules.history import AnyEngine, Story, Turn, spectated, tell_log

MAX_BYTES = 10 * 1024 * 1024
"""Discord's upload limit for a bot's message without boosts."""
FRAME_WIDTH = 720
"""Frames are scaled to this width (a 1600 px board reads well enough at it in a chat, and stays small)."""
SMALLER = 0.75
"""How much narrower each new try is when an animation passes the limit."""
MIN_WIDTH = 240
"""Narrower than this, an animation is sent as it is (no game comes near: see bench/replay.py)."""
TURN_MS = 250
FINAL_MS = 5000
"""The last frame (the end of the game) is held this long before the animation starts again."""
QUALITY = 75
CAPTION = 34
"""Height of the caption band above each frame."""
CAPTION_BG = (34, 40, 52)
CAPTION_INK = (240, 236, 228)
WEBP = features.check("webp")
"""Pillow 11 and later write animated WebP whenever they write WebP (libwebp's mux is always built in)."""
EXTENSION = "webp" if WEBP else "gif"

LOG_FORMAT = 2
"""The public log's format: `format`, what the caller says of the game (its id, options, seats), then `start`,
`moves` and `end` as `rules.history.spectate` tells them. Format 1 was the full log (seed and action texts)."""

Names = Sequence[str]


@dataclass(frozen=True)
class Animation:
    """An encoded replay and how many frames it holds (the start and one per turn)."""

    data: bytes
    frames: int


def render_game_replay(
    pictures: GamePictures,
    engine: AnyEngine,
    options: Mapping[str, Any],
    n_players: int,
    seed: int,
    actions: Sequence[tuple[Seat, str]],
    names: Names,
    labels: Labels,
) -> Animation:
    """A stored game's replay animation (a picture worker's job): its log replayed, a frame drawn per turn with the
    game's own picture."""
    return render_replay(pictures, tell_log(engine, options, n_players, seed, actions), names, labels)


def render_game_log(
    engine: AnyEngine,
    options: Mapping[str, Any],
    n_players: int,
    seed: int,
    actions: Sequence[tuple[Seat, str]],
    about: Mapping[str, Any],
) -> bytes:
    """A stored game's public log as UTF-8 JSON (a picture worker's job, beside the animation): `about` (what the
    caller tells of the game), then what the table showed, move by move."""
    told = spectated(engine, options, n_players, seed, actions)
    return json.dumps({"format": LOG_FORMAT, **about, **told}, ensure_ascii=False, indent=1).encode("utf-8")


def render_replay(pictures: GamePictures, story: Story, names: Names, labels: Labels) -> Animation:
    """The animation of a told game, under `MAX_BYTES` (its frames scaled down until it is)."""
    frames = _frames(pictures, story, names, labels)
    while True:
        data = _encode(frames)
        if len(data) <= MAX_BYTES or frames[0].width < MIN_WIDTH:
            return Animation(data, len(frames))
        size = (round(frames[0].width * SMALLER), round(frames[0].height * SMALLER))
        frames = [_indexed(frame.convert("RGB").resize(size, Image.Resampling.BOX)) for frame in frames]


def _frames(pictures: GamePictures, story: Story, names: Names, labels: Labels) -> list[Image.Image]:
    """A frame per turn: its table drawn, scaled to `FRAME_WIDTH` under its caption, kept in 256 colours (a few
    hundred frames of full colour would weigh hundreds of MB)."""
    last = len(story.turns) - 1
    frames = []
    for number, turn in enumerate(story.turns):
        picture = pictures.frame(turn.view, labels, names)
        scaled = picture.resize(
            (FRAME_WIDTH, round(picture.height * FRAME_WIDTH / picture.width)), Image.Resampling.BOX
        )
        frame = Image.new("RGB", (FRAME_WIDTH, scaled.height + CAPTION), CAPTION_BG)
        frame.paste(scaled, (0, CAPTION))
        words = _caption(number, last, turn, names, labels)
        ImageDraw.Draw(frame).text((12, CAPTION // 2), words, font=font(18, bold=True), fill=CAPTION_INK, anchor="lm")
        frames.append(_indexed(frame))
    height = max(frame.height for frame in frames)  # tables grow a little as the game goes on
    return [_padded(frame, height) for frame in frames]


def _indexed(frame: Image.Image) -> Image.Image:
    """A frame in its own 256 colours (the pictures are drawn in few colours: nothing visible is lost)."""
    return frame.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _padded(frame: Image.Image, height: int) -> Image.Image:
    """A frame made `height` tall, the room below filled with its bottom row (in the frame's own colours: nothing is
    quantized twice)."""
    if frame.height == height:
        return frame
    padded = Image.new("P", (frame.width, height))
    padded.putpalette(frame.getpalette() or [])
    padded.paste(frame, (0, 0))
    bottom = frame.crop((0, frame.height - 1, frame.width, frame.height))
    padded.paste(bottom.resize((frame.width, height - frame.height), Image.Resampling.NEAREST), (0, frame.height))
    return padded


def _caption(number: int, last: int, turn: Turn, names: Names, labels: Labels) -> str:
    """What a frame shows: the start, the opening choice, a player's turn, or the end."""
    if number == last:
        return text_for(labels, "replay.frame.final", turn=number, last=last)
    if number == 0:
        return text_for(labels, "replay.frame.start")
    if turn.seat is None:
        return text_for(labels, "replay.frame.opening", turn=number, last=last)
    return text_for(labels, "replay.frame.turn", turn=number, last=last, player=names[turn.seat])


def _encode(frames: Sequence[Image.Image]) -> bytes:
    """Frames as one looping animation, each shown `TURN_MS`, the last `FINAL_MS`."""
    out = io.BytesIO()
    durations = [TURN_MS] * (len(frames) - 1) + [FINAL_MS]
    if WEBP:
        frames[0].save(
            out,
            "WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            quality=QUALITY,
            method=2,
            allow_mixed=True,
        )
    else:
        frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return out.getvalue()
