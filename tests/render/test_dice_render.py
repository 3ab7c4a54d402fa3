"""Pictures of the dice game: sizes, determinism, distinct faces, translatable words, and what each one shows."""

from __future__ import annotations

import io
import itertools
import random
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n import table
from render.dice import (
    KEY_H,
    LABEL_KEYS,
    MUTED,
    PAPER,
    ROW,
    TOP,
    render_finished_turn,
    render_scores,
    render_turn,
)
from render.dice_faces import car_sprite
from rules.dice import DiceEngine, DiceOptions, DiceState, DiceView, Face, GameMode
from rules.dice.state import OpeningRoll, Outcome, Turn, TurnRecord
from rules.dice.view import PlayerLine
from rules.rng import Rng

ENGINE = DiceEngine()
EN = table("en")
NAMES = ["Anna", "Борис", "Charlotte-Amélie von Eisenbahn", "Dmitri", "Eve", "Фёдор"]


def image(png: bytes) -> Image.Image:
    """Decode a PNG."""
    return Image.open(io.BytesIO(png))


class Recorder:
    """A labels callable that remembers which keys a picture asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, key: str, **params: object) -> str:
        self.asked.append(key)
        return EN[key].format(**params)


def faces(letters: str) -> tuple[Face, ...]:
    """Return the faces named by their letters."""
    return tuple(Face(letter) for letter in letters)


def turn_view(showing: str, train: str, **fields: object) -> DiceView:
    """Return the view of a two-player game in seat 0's turn with these dice and this train."""
    opening = ((OpeningRoll(seat=0, face=Face.LOCOMOTIVE), OpeningRoll(seat=1, face=Face.COAL)),)
    turn = Turn.model_validate({"seat": 0, "showing": faces(showing), "train": faces(train), **fields})
    state = DiceState(options=DiceOptions(), n_players=2, rng=Rng(seed=3), opening=opening, first=0, turn=turn)
    return ENGINE.view(state, None)


@cache
def played(players: int, mode: GameMode, seed: int, moves: int = 10_000) -> DiceState:
    """Return a game between bot players after `moves` moves (or at its end)."""
    state = ENGINE.new_game(DiceOptions(mode=mode, target=60), players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_act(state)
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return state


def turn_views() -> list[DiceView]:
    """Views of turns: an opening roll, the middle of a game, a full train, a freight run."""
    return [
        ENGINE.view(played(4, GameMode.RACE, 1, moves=0), None),
        ENGINE.view(played(3, GameMode.RACE, 2, moves=40), None),
        turn_view("", "EECTTH", rolls=2),
        turn_view("HK", "EECT", freight=True, banked=19, added_since_roll=1),
    ]


def score_views() -> list[DiceView]:
    """Views for score tables: a race under way, a finished six-player race, an elimination game."""
    return [
        ENGINE.view(played(4, GameMode.RACE, 3, moves=60), None),
        ENGINE.view(played(6, GameMode.RACE, 4), None),
        ENGINE.view(played(5, GameMode.ELIMINATION, 5), None),
    ]


FINISHED = {
    "crashed": TurnRecord(seat=0, round=2, points=0, outcome=Outcome.CRASHED, train=faces("EEC"), showing=faces("ECC")),
    "bonus": TurnRecord(seat=1, round=2, points=25, outcome=Outcome.BONUS, train=faces("ECTHBK")),
    "score": TurnRecord(seat=2, round=2, points=32, outcome=Outcome.SCORED, train=faces("EECHBK"), banked=10),
    "incomplete": TurnRecord(seat=3, round=2, points=0, outcome=Outcome.INCOMPLETE, train=faces("E")),
}


def test_every_picture_label_is_translated() -> None:
    for language in ("en", "ru"):
        missing = [key for key in LABEL_KEYS if key not in table(language)]
        assert not missing, (language, missing)


def test_turn_picture_size_mode_and_weight() -> None:
    for view in turn_views():
        png = render_turn(view, EN, NAMES)
        picture = image(png)
        assert picture.size == (900, 400) and picture.mode == "P"
        assert len(png) < 30_000


def test_score_picture_grows_with_players() -> None:
    for view in score_views():
        png = render_scores(view, EN, NAMES)
        assert image(png).size == (900, TOP + ROW * len(view.players) + KEY_H + 8 + 18), "rows, then the key"
        assert len(png) < 30_000


def test_the_key_under_the_scores_explains_each_kind_of_chip_the_table_shows() -> None:
    view = ENGINE.view(played(5, GameMode.ELIMINATION, 5), None)
    shown = [record for player in view.players for record in player.turns[-6:]]
    kinds = {
        "dice.picture.key_bonus": any(r.outcome is Outcome.BONUS for r in shown),
        "dice.picture.key_crash": any(r.outcome is Outcome.CRASHED for r in shown),
        "dice.picture.key_zero": any(r.outcome is Outcome.INCOMPLETE for r in shown),
    }
    words = Recorder()
    render_scores(view, words, NAMES)
    assert {key for key, present in kinds.items() if present} == {k for k in words.asked if k in kinds}
    assert any(kinds.values())
    unplayed = ENGINE.view(ENGINE.new_game(DiceOptions(), 3, seed=1), None)
    words = Recorder()
    assert image(render_scores(unplayed, words, NAMES)).size[1] == TOP + ROW * 3 + 18, "no chips, no key"
    assert not any(key.startswith("dice.picture.key_") for key in words.asked)


def drawn_apart(one: bytes, other: bytes) -> tuple[int, int, int, int] | None:
    """The box where two pictures differ by more than their palettes' rounding, or None."""
    difference = ImageChops.difference(image(one).convert("L"), image(other).convert("L"))
    return difference.point(lambda value: 255 if value > 40 else 0).getbbox()


def ranked(view: DiceView) -> list[PlayerLine]:
    """The players as a finished game's table lists them: winners first, then by standing."""
    return sorted(view.players, key=lambda p: (p.seat not in view.winners, -p.standing))


def test_a_bot_players_name_carries_the_bot_mark_in_its_row_and_title_only() -> None:
    view = score_views()[0]
    row = [p.seat for p in ranked(view)].index(1)
    changed = drawn_apart(render_scores(view, EN, NAMES), render_scores(view, EN, NAMES, bots={1}))
    assert changed is not None, "the mark is drawn"
    assert changed[1] >= TOP + row * ROW and changed[3] <= TOP + (row + 1) * ROW and changed[2] < 400, "beside the name"
    turn = turn_views()[1]
    assert turn.turn is not None
    changed = drawn_apart(render_turn(turn, EN, NAMES), render_turn(turn, EN, NAMES, {turn.turn.seat}))
    assert changed is not None and changed[3] <= 60, "in the title"
    assert render_turn(turn, EN, NAMES, {turn.turn.seat + 1}) == render_turn(turn, EN, NAMES), "another seat's bot"


def test_the_final_score_table_ranks_the_players_winners_first() -> None:
    view = score_views()[1]
    assert view.over and [p.seat for p in ranked(view)] != [p.seat for p in view.players], "rank and seat differ"
    first = ranked(view)[0].seat
    changed = drawn_apart(render_scores(view, EN, NAMES), render_scores(view, EN, NAMES, bots={first}))
    assert changed is not None and changed[1] >= TOP and changed[3] <= TOP + ROW, "the winner's row is the first"


def test_pictures_are_deterministic_and_labels_may_be_a_function() -> None:
    view = turn_views()[1]
    assert render_turn(view, EN, NAMES) == render_turn(view, EN, NAMES)
    assert render_turn(view, EN, NAMES) == render_turn(view, lambda key, **params: EN[key].format(**params), NAMES)
    scores = score_views()[1]
    assert render_scores(scores, EN, NAMES) == render_scores(scores, EN, NAMES)


def test_pictures_speak_the_callers_language() -> None:
    view = score_views()[0]
    assert render_scores(view, table("ru"), NAMES) != render_scores(view, EN, NAMES)


def test_the_six_faces_draw_differently_without_colour() -> None:
    drawings = {}
    for face in Face:
        sprite = car_sprite(face, 80)
        grey = Image.new("RGB", sprite.size, (255, 255, 255))
        grey.paste(sprite, (0, 0), sprite)
        drawings[face] = grey.convert("L")
    for one, other in itertools.combinations(Face, 2):
        difference = ImageChops.difference(drawings[one], drawings[other])
        changed = difference.point(lambda value: 255 if value > 60 else 0).histogram()[255]
        assert changed > 0.08 * 80 * 51, (one, other, changed)


def test_a_six_car_train_draws_every_car() -> None:
    five = image(render_turn(turn_view("H", "EECTT", rolls=2), EN))
    six = image(render_turn(turn_view("", "EECTTH", rolls=2), EN))
    train_row = (0, 280, 900, 380)
    sixth_slot = (26 + 5 * 136, 300, 26 + 5 * 136 + 124, 370)
    assert ImageChops.difference(five.convert("RGB"), six.convert("RGB")).crop(train_row).getbbox() is not None
    colours = six.convert("RGB").crop(sixth_slot).getcolors(maxcolors=10_000) or []
    assert len(colours) > 8, "the hopper is drawn in the sixth slot"


def test_a_freight_bank_is_shown() -> None:
    words = Recorder()
    render_turn(turn_view("HK", "EECT", freight=True, banked=19, added_since_roll=1), words)
    assert "dice.picture.bank" in words.asked and "dice.picture.freight_roll" in words.asked
    assert "dice.picture.score_so_far" in words.asked, "a freight run cannot stop halfway"
    assert "dice.picture.rolls" not in words.asked


def test_turn_picture_uses_the_running_score_and_roll_count() -> None:
    words = Recorder()
    render_turn(turn_view("THBK", "EC", rolls=2), words)
    assert {"dice.picture.roll", "dice.picture.rolls", "dice.picture.score_now", "dice.picture.train"} <= set(
        words.asked
    )


def test_finished_turns_draw_their_outcome() -> None:
    for label, record in FINISHED.items():
        words = Recorder()
        png = render_finished_turn(record, words, NAMES)
        assert image(png).size == (900, 400)
        assert f"dice.picture.{label}" in words.asked, label


def test_a_finished_game_draws_its_last_turn() -> None:
    view = ENGINE.view(played(2, GameMode.RACE, 6), None)
    assert view.previous is not None
    assert render_turn(view, EN) == render_finished_turn(view.previous, EN)
    words = Recorder()
    render_scores(view, words, NAMES)
    assert "dice.picture.game_over" in words.asked and "dice.picture.winner" in words.asked


def test_scores_mark_the_eliminated_and_the_bar() -> None:
    words = Recorder()
    state = played(5, GameMode.ELIMINATION, 5)
    assert state.eliminated, "this game knocks players out"
    render_scores(ENGINE.view(state, None), words, NAMES)
    assert {"dice.picture.out", "dice.picture.bar", "dice.picture.best"} <= set(words.asked)
    assert "dice.picture.target" not in words.asked


@pytest.mark.parametrize("players", [2, 6])
def test_opening_pictures_render_for_any_table(players: int) -> None:
    view = ENGINE.view(ENGINE.new_game(DiceOptions(), players, seed=players), None)
    assert image(render_turn(view, EN, NAMES)).size == (900, 400)
    assert image(render_scores(view, EN, NAMES)).size[1] == TOP + ROW * players + 18


def relative_luminance(colour: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    channels = [c / 255 for c in colour]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_every_text_is_at_least_7_px_tall_when_shown_450_px_wide(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        sizes.append((text, int(getattr(kwargs.get("font"), "size", 10))))
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    for language in ("en", "ru"):
        words = table(language)
        for view in turn_views():
            render_turn(view, words, NAMES)
        for record in FINISHED.values():
            render_finished_turn(record, words, NAMES)
        for view in score_views():
            render_scores(view, words, NAMES)
    assert len(sizes) > 100
    cap_height, scale = 0.729, 450 / 900  # DejaVu's capitals and digits; the pictures are 900 px wide
    small = sorted({(size, shown) for shown, size in sizes if size * scale * cap_height < 7})
    assert small == []


def test_secondary_words_keep_their_contrast_on_the_paper() -> None:
    light, dark = sorted((relative_luminance(PAPER), relative_luminance(MUTED)), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def test_a_long_score_sum_keeps_every_term(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    render_finished_turn(FINISHED["score"], EN, NAMES)
    assert "2 × (10+3+2+1)" in drawn
