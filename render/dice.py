"""Pictures of «Поезд»: the turn in play (dice, train, score) and the score table; a view in, PNG bytes out."""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from render.dice_faces import INK, car_sprite
from render.fonts import font
from render.games import GamePictures
from render.glyphs import bot_mark
from render.labels import Labels, text_for
from render.ttr.text import fitted
from rules.dice import Add, DiceView, Face, GameMode, Stop
from rules.dice.faces import CARGO_POINTS, FACES
from rules.dice.state import Outcome, TurnRecord
from rules.dice.train import TrainScore, score_train
from rules.dice.view import PlayerLine

"""Picture words by key (`dice.picture.roll` → "Roll {roll} of {max}"): a mapping or a lookup function."""

LABEL_KEYS: tuple[str, ...] = tuple(
    f"dice.picture.{name}"
    for name in (
        "roll",
        "freight_roll",
        "rolls",
        "bank",
        "table",
        "all_in_train",
        "train",
        "score_now",
        "score_so_far",
        "score",
        "bonus",
        "incomplete",
        "crashed",
        "last_round",
        "tie_break",
        "game_over",
        "scores",
        "round",
        "target",
        "bar",
        "player",
        "last_turns",
        "total",
        "best",
        "winner",
        "out",
        "key_crash",
        "key_bonus",
        "key_zero",
        "key_leader",
    )
)
"""Every label key the pictures use; the bot's translation tables must hold them all."""

Colour = tuple[int, int, int]
PAPER: Colour = (244, 239, 230)
PANEL: Colour = (255, 253, 248)
EDGE: Colour = (214, 206, 192)
SHADOW: Colour = (222, 214, 200)
MUTED: Colour = (98, 90, 80)
"""Secondary words: about 6:1 against the paper, so they stay legible shrunk to 450 px."""
FAINT: Colour = (190, 183, 170)
"""Dashed empty slots and the outline of a die that cannot join the train."""
FADED_INK: Colour = (146, 138, 126)
"""The points of a die that cannot join the train: quieter than ink, still readable."""
ACCENT: Colour = (196, 62, 48)
GOLD: Colour = (232, 182, 52)
SEAT_COLOURS: tuple[Colour, ...] = (
    (48, 82, 150),
    (196, 62, 48),
    (66, 138, 84),
    (214, 150, 30),
    (128, 78, 160),
    (40, 150, 160),
)

TURN_SIZE = (900, 400)
DIE = 92
CAR = 124
TEXT = 20
"""The smallest font size: capitals and digits about 7 px tall when a 900 px picture shows 450 px wide."""
BOT_MARK = 28
"""The bot mark beside a bot player's name: as tall as the name's capitals and more, so it reads at 450 px."""


class _Words:
    """Looks up and fills in the caller's picture labels."""

    def __init__(self, labels: Labels) -> None:
        self.labels = labels

    def __call__(self, name: str, **params: object) -> str:
        return text_for(self.labels, f"dice.picture.{name}", **params)


def _png(image: Image.Image) -> bytes:
    """Encode as a palette PNG (the pictures use few colours, so it looks the same and weighs far less)."""
    buffer = io.BytesIO()
    image.quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(buffer, "PNG")
    return buffer.getvalue()


def _fit(text: str, size: int, width: float, *, bold: bool = False) -> str:
    """Shorten `text` with an ellipsis until it fits `width` pixels."""
    face = font(size, bold=bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _fitting_size(text: str, size: int, width: float, *, bold: bool = False) -> int:
    """Return the largest font size, at most `size` and at least TEXT, at which `text` fits `width` pixels."""
    while size > TEXT and font(size, bold=bold).getlength(text) > width:
        size -= 1
    return size


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, fill: Colour, *, right: bool = False) -> None:
    """Draw a small rounded label with its top-left corner at (x, y), or its top-right one if `right`."""
    face = font(TEXT, bold=True)
    width = face.getlength(text) + 22
    if right:
        x -= width
    draw.rounded_rectangle((x, y, x + width, y + 30), 15, fill=fill)
    draw.text((x + 11, y + 15), text, font=face, fill=PANEL, anchor="lm")


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour | None) -> None:
    """Draw a five-pointed star (the leader's mark; filled gold for a winner)."""
    points = [
        (
            cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
            cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5),
        )
        for i in range(10)
    ]
    draw.polygon(points, fill=fill, outline=INK, width=2)


def _paste_bot_mark(canvas: Image.Image, x: float, middle: float, size: int = BOT_MARK) -> int:
    """Paste the bot mark with its left edge at `x`, centred on `middle`; return where it ends."""
    mark = bot_mark(size, INK)
    canvas.paste(mark, (round(x), round(middle - size / 2)), mark)
    return round(x) + size


# The turn picture.


def _die(canvas: Image.Image, x: int, y: int, face: Face, addable: bool) -> None:
    """Draw one die: the car pictogram and its points; a die that cannot join the train now is faded."""
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle((x + 3, y + 4, x + DIE + 3, y + DIE + 4), 16, fill=SHADOW)
    draw.rounded_rectangle(
        (x, y, x + DIE, y + DIE),
        16,
        fill=PANEL if addable else (238, 233, 224),
        outline=INK if addable else FAINT,
        width=3 if addable else 2,
    )
    sprite = car_sprite(face, 80, faded=not addable)
    canvas.paste(sprite, (x + (DIE - sprite.width) // 2, y + DIE - sprite.height - 10), sprite)
    points = "×2" if face is Face.CABOOSE else str(CARGO_POINTS.get(face, ""))
    if points:
        ink = INK if addable else FADED_INK
        draw.text((x + DIE - 9, y + 6), points, font=font(24, bold=True), fill=ink, anchor="ra")


def _train(canvas: Image.Image, train: Sequence[Face], slots: int, y_rail: int) -> None:
    """Draw the train on its rails, locomotive(s) at the front (left), and dashed slots for the dice still out."""
    draw = ImageDraw.Draw(canvas)
    for x in range(14, canvas.width - 14, 22):
        draw.rectangle((x, y_rail + 2, x + 12, y_rail + 9), fill=(150, 130, 110))
    draw.rectangle((10, y_rail - 1, canvas.width - 10, y_rail + 3), fill=(90, 84, 78))
    height = round(CAR * 64 / 100)
    x = 26
    for index, face in enumerate(train):
        sprite = car_sprite(face, CAR)
        if index:
            draw.rectangle((x - 14, y_rail - 20, x + 2, y_rail - 16), fill=INK)  # coupler
        canvas.paste(sprite, (x, y_rail - sprite.height), sprite)
        x += CAR + 12
    for _ in range(slots):
        _dashed_box(draw, (x + 4, y_rail - height + 6, x + CAR - 4, y_rail - 4))
        x += CAR + 12


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """Outline an empty train slot with a dashed line."""
    x0, y0, x1, y1 = box
    for x in range(x0, x1, 14):
        draw.line((x, y0, min(x + 7, x1), y0), fill=FAINT, width=2)
        draw.line((x, y1, min(x + 7, x1), y1), fill=FAINT, width=2)
    for y in range(y0, y1, 14):
        draw.line((x0, y, x0, min(y + 7, y1)), fill=FAINT, width=2)
        draw.line((x1, y, x1, min(y + 7, y1)), fill=FAINT, width=2)


def _how(words: _Words, train: Sequence[Face], score: TrainScore) -> str:
    """Return how the score adds up, in numbers where it can (they need no translation): `2 × (10 + 4 + 1)`."""
    if not score.complete:
        return words("incomplete")
    if score.bonus:
        return words("bonus")
    parts = ([str(score.banked)] if score.banked else []) + [
        str(CARGO_POINTS[face]) for face in train if face in CARGO_POINTS
    ]
    if score.caboose:
        return f"2 × ({' + '.join([*parts, '1'])})"
    return " + ".join(parts) if len(parts) > 1 else ""  # a lone cargo car: the sum says it all


def _score_panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str, points: int, note: str) -> None:
    """Draw the score card: a title, the big number and how it is made."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 14, fill=PANEL, outline=EDGE, width=2)
    centre = (x0 + x1) / 2
    draw.text((centre, y0 + 12), _fit(title, TEXT, x1 - x0 - 16), font=font(TEXT), fill=MUTED, anchor="ma")
    draw.text((centre, y0 + (74 if note else 84)), str(points), font=font(60, bold=True), fill=INK, anchor="mm")
    if font(TEXT, bold=True).getlength(note) > x1 - x0 - 20:  # a long sum keeps every term, closing up its spaces
        note = note.replace(" + ", "+")
    size = _fitting_size(note, 22, x1 - x0 - 20, bold=True)
    note = _fit(note, size, x1 - x0 - 16, bold=True)
    draw.text((centre, y1 - 14), note, font=font(size, bold=True), fill=INK, anchor="md")


def _roll_pips(draw: ImageDraw.ImageDraw, words: _Words, right: int, used: int, total: int) -> None:
    """Draw the 'Rolls' label and one small square per roll, filled once used."""
    x = right - total * 28
    for index in range(total):
        filled = index < used
        draw.rounded_rectangle(
            (x + index * 28, 22, x + index * 28 + 20, 42), 5, fill=INK if filled else PANEL, outline=INK, width=2
        )
    draw.text((x - 10, 32), words("rolls"), font=font(TEXT), fill=MUTED, anchor="rm")


def _draw_table(
    words: _Words,
    *,
    title: str,
    bot: bool,
    status: str,
    status_alert: bool,
    showing: Sequence[Face],
    addable: set[Face],
    train: Sequence[Face],
    slots: int,
    score_title: str,
    points: int,
    note: str,
    pips: tuple[int, int] | None,
    banked: int,
    last_round: bool,
) -> bytes:
    """Draw the turn card: header, the dice on the table, the score card and the train."""
    canvas = Image.new("RGB", TURN_SIZE, PAPER)
    draw = ImageDraw.Draw(canvas)
    width, height = TURN_SIZE

    x = 24
    if title:
        title = _fit(title, 28, 300 - (BOT_MARK + 8 if bot else 0), bold=True)
        draw.text((x, 32), title, font=font(28, bold=True), fill=INK, anchor="lm")
        x += int(font(28, bold=True).getlength(title)) + 16
        if bot:
            x = _paste_bot_mark(canvas, x - 8, 32) + 16
    draw.text((x, 32), status, font=font(22, bold=status_alert), fill=ACCENT if status_alert else MUTED, anchor="lm")
    x += int(font(22, bold=status_alert).getlength(status)) + 14
    if last_round:
        _chip(draw, x, 17, words("last_round"), ACCENT)
    if pips is not None:
        _roll_pips(draw, words, width - 24, *pips)
    elif banked:
        _chip(draw, width - 24, 17, words("bank", banked=banked), INK, right=True)

    draw.text((24, 62), words("table"), font=font(TEXT), fill=MUTED, anchor="la")
    panel = (16, 88, 16 + 6 * DIE + 5 * 12 + 20, 88 + DIE + 26)
    draw.rounded_rectangle(panel, 14, fill=(233, 226, 213))
    if showing:
        for index, face in enumerate(sorted(showing, key=FACES.index)):  # like faces side by side
            _die(canvas, 26 + index * (DIE + 12), 98, face, face in addable)
    else:
        draw.text(
            ((panel[0] + panel[2]) / 2, (panel[1] + panel[3]) / 2),
            words("all_in_train"),
            font=font(22),
            fill=MUTED,
            anchor="mm",
        )

    _score_panel(draw, (panel[2] + 18, 66, width - 16, panel[3]), score_title, points, note)

    draw.text((24, 232), words("train"), font=font(TEXT), fill=MUTED, anchor="la")
    _train(canvas, train, slots, height - 26)
    return _png(canvas)


def render_turn(
    view: DiceView, labels: Labels, names: Sequence[str] | None = None, bots: Collection[int] = ()
) -> bytes:
    """Draw the turn in play: the latest roll, the train so far, its running score, rolls used or freight bank.

    Once the game is over it draws the last turn played. `names` (by seat) puts the player's name in the title, with
    the bot mark for a seat in `bots`.
    """
    if view.turn is None:
        if view.previous is None:
            raise ValueError("a finished game without a single turn has nothing to draw")
        return render_finished_turn(view.previous, labels, names, bots)
    words = _Words(labels)
    turn = view.turn
    addable = {face for action in view.legal if isinstance(action, Add) for face in action.faces}
    status = words("freight_roll") if turn.freight else words("roll", roll=turn.rolls, max=turn.max_rolls)
    return _draw_table(
        words,
        title=names[turn.seat] if names else "",
        bot=bool(names) and turn.seat in bots,
        status=status,
        status_alert=False,
        showing=turn.showing,
        addable=addable,
        train=turn.train,
        slots=len(turn.showing),
        score_title=words("score_now") if any(isinstance(a, Stop) for a in view.legal) else words("score_so_far"),
        points=turn.score.points,
        note=_how(words, turn.train, turn.score),
        pips=None if turn.freight else (turn.rolls, turn.max_rolls),
        banked=turn.banked,
        last_round=view.last_round,
    )


def render_finished_turn(
    record: TurnRecord, labels: Labels, names: Sequence[str] | None = None, bots: Collection[int] = ()
) -> bytes:
    """Draw a finished turn (e.g. `view.previous`): the train as it ended, the dice left, and what it scored."""
    words = _Words(labels)
    score = score_train(record.train, record.banked)
    status = {
        Outcome.SCORED: words("score"),
        Outcome.BONUS: words("bonus"),
        Outcome.INCOMPLETE: words("incomplete"),
        Outcome.CRASHED: words("crashed"),
    }[record.outcome]
    return _draw_table(
        words,
        title=names[record.seat] if names else "",
        bot=bool(names) and record.seat in bots,
        status=status,
        status_alert=record.outcome in (Outcome.CRASHED, Outcome.BONUS),
        showing=record.showing,
        addable=set(),
        train=record.train,
        slots=0,
        score_title=words("score"),
        points=record.points,
        note=status if record.outcome is Outcome.CRASHED else _how(words, record.train, score),
        pips=None,
        banked=record.banked,
        last_round=False,
    )


# The score table.

ROW = 64
TOP = 112
CHIPS = 6
"""Past turns shown per player."""
CHIP_W = 54


KEY_H = 44
"""The key under the score table: what each kind of chip means."""
KEY_CHIP = (44, 30)


def _turn_chip(
    draw: ImageDraw.ImageDraw, x: int, y: int, record: TurnRecord, size: tuple[int, int] = (CHIP_W, 36)
) -> None:
    """Draw one past turn: its points; a crash is a dark chip with a cross, a bonus train a gold one."""
    w, h = size
    box = (x, y, x + w, y + h)
    if record.outcome is Outcome.CRASHED:
        draw.rounded_rectangle(box, 8, fill=INK)
        arm = h * 0.22
        cx, cy = x + w / 2, y + h / 2
        draw.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=PANEL, width=4)
        draw.line((cx + arm, cy - arm, cx - arm, cy + arm), fill=PANEL, width=4)
        return
    fill = GOLD if record.outcome is Outcome.BONUS else PANEL if record.points else (233, 226, 213)
    draw.rounded_rectangle(box, 8, fill=fill, outline=EDGE if record.points else FAINT, width=2)
    ink = INK if record.points else MUTED
    size_pt = 22 if h >= 36 else TEXT
    draw.text(
        (x + w / 2, y + h / 2), str(record.points), font=font(size_pt, bold=bool(record.points)), fill=ink, anchor="mm"
    )


_KEYED: tuple[tuple[str, TurnRecord], ...] = (
    ("key_bonus", TurnRecord(seat=0, round=1, points=25, outcome=Outcome.BONUS, train=())),
    ("key_zero", TurnRecord(seat=0, round=1, points=0, outcome=Outcome.INCOMPLETE, train=())),
    ("key_crash", TurnRecord(seat=0, round=1, points=0, outcome=Outcome.CRASHED, train=())),
)
"""The chips the key explains, each drawn as the table draws it."""


def _key(view: DiceView) -> list[str]:
    """What the key under the table explains: the kinds of chip the table shows, and the leader's star if drawn."""
    shown = [record for player in view.players for record in player.turns[-CHIPS:]]
    found = {
        "key_bonus": any(r.outcome is Outcome.BONUS for r in shown),
        "key_zero": any(r.outcome is not Outcome.CRASHED and not r.points for r in shown),
        "key_crash": any(r.outcome is Outcome.CRASHED for r in shown),
        "key_leader": any(_leads(view, player) for player in view.players),
    }
    return [name for name, present in found.items() if present]


def _leads(view: DiceView, player: PlayerLine) -> bool:
    """Whether the row draws the leader's hollow star (a winner gets a gold one and a chip of its own)."""
    return (
        player.seat not in view.winners
        and player.seat in view.leaders
        and player.standing > 0
        and not player.eliminated
    )


def _draw_key(canvas: Image.Image, words: _Words, names: Sequence[str], top: int) -> None:
    """Draw the key: each kind of chip the table shows, with what it means, on one line."""
    draw = ImageDraw.Draw(canvas)
    chips = dict(_KEYED)
    x, middle = 24, top + KEY_H / 2
    for name in names:
        if name in chips:
            _turn_chip(draw, x, round(middle - KEY_CHIP[1] / 2), chips[name], KEY_CHIP)
            x += KEY_CHIP[0] + 8
        else:
            _star(draw, x + 12, middle, 11, None)
            x += 24 + 8
        label = words(name)
        draw.text((x, middle), label, font=font(TEXT), fill=MUTED, anchor="lm")
        x += int(font(TEXT).getlength(label)) + 28


def render_scores(view: DiceView, labels: Labels, names: Sequence[str], bots: Collection[int] = ()) -> bytes:
    """Draw the score table: players in seat order (by rank, winners first, once the game is over: it is the final
    message's summary), totals, last turns, the target, the leader or winners, the bot mark beside the seats in `bots`,
    and a key to the chips under it."""
    words = _Words(labels)
    width = 900
    elimination = view.options.mode is GameMode.ELIMINATION
    key = _key(view)
    rows_end = TOP + ROW * len(view.players)
    canvas = Image.new("RGB", (width, rows_end + (KEY_H + 8 if key else 0) + 18), PAPER)
    draw = ImageDraw.Draw(canvas)

    draw.text((24, 30), words("scores"), font=font(30, bold=True), fill=INK, anchor="lm")
    details = [words("round", round=view.round)]
    if not elimination:
        details.append(words("target", target=view.options.target))
    elif view.bar is not None:
        details.append(words("bar", bar=view.bar))
    draw.text((24, 66), " · ".join(details), font=font(TEXT), fill=MUTED, anchor="lm")
    if view.over:
        _chip(draw, width - 24, 17, words("game_over"), INK, right=True)
    elif view.tie_break or view.last_round:
        _chip(draw, width - 24, 17, words("tie_break" if view.tie_break else "last_round"), ACCENT, right=True)

    heading = font(TEXT)
    draw.text((74, TOP - 8), words("player"), font=heading, fill=MUTED, anchor="ld")
    draw.text((400, TOP - 8), words("last_turns"), font=heading, fill=MUTED, anchor="ld")
    draw.text((width - 24, TOP - 8), words("best" if elimination else "total"), font=heading, fill=MUTED, anchor="rd")
    for row, player in enumerate(_ranked(view) if view.over else view.players):
        _score_row(canvas, words, view, player, names[player.seat], TOP + row * ROW, player.seat in bots)
    if key:
        _draw_key(canvas, words, key, rows_end + 8)
    return _png(canvas)


def _ranked(view: DiceView) -> list[PlayerLine]:
    """The players best first: winners, then by what ranks them (`standing`), ties in seat order."""
    return sorted(view.players, key=lambda p: (p.seat not in view.winners, -p.standing, p.seat))


def _score_row(
    canvas: Image.Image, words: _Words, view: DiceView, player: PlayerLine, name: str, top: int, bot: bool
) -> None:
    """Draw one player's row: turn marker, name, bot and winner marks, progress to the target, last turns, total."""
    draw = ImageDraw.Draw(canvas)
    width = canvas.width
    out = player.eliminated
    race = view.options.mode is GameMode.RACE
    colour = SEAT_COLOURS[player.seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle(
        (14, top + 3, width - 14, top + ROW - 3), 12, fill=(236, 231, 222) if out else PANEL, outline=EDGE, width=1
    )
    draw.rounded_rectangle((14, top + 3, 21, top + ROW - 3), 4, fill=colour)
    if view.turn is not None and player.seat == view.turn.seat:
        sprite = car_sprite(Face.LOCOMOTIVE, 40)
        canvas.paste(sprite, (26, top + (ROW - sprite.height) // 2), sprite)

    ink = MUTED if out else INK
    mark = words("out") if out else words("winner") if player.seat in view.winners else ""
    mark_w = font(TEXT, bold=True).getlength(mark) + 62 if mark else 36
    bot_w = BOT_MARK - 2 + 8 if bot else 0
    name, face = fitted(name, 23, min(280, 392 - 74 - mark_w) - bot_w, bold=True, minimum=TEXT)  # condensed first
    end = 74 + face.getlength(name)
    middle = top + (24 if race else ROW // 2)  # a race row has its progress bar under the name
    draw.text((74, middle), name, font=face, fill=ink, anchor="lm")
    if out:
        draw.line((70, middle + 1, end + 4, middle + 1), fill=ink, width=3)
    if bot:
        end = _paste_bot_mark(canvas, end + 8, middle, BOT_MARK - 2)
    if out:
        _chip(draw, end + 14, middle - 15, mark, MUTED)
    elif player.seat in view.winners:
        _star(draw, end + 20, middle, 12, GOLD)
        _chip(draw, end + 40, middle - 15, mark, INK)
    elif _leads(view, player):
        _star(draw, end + 20, middle, 11, None)

    if race:
        x0, x1, y = 74, 360, top + 46
        draw.rounded_rectangle((x0, y, x1, y + 8), 4, fill=(233, 226, 213))
        if player.total:
            filled = x0 + (x1 - x0) * min(player.total, view.options.target) / view.options.target
            draw.rounded_rectangle((x0, y, max(filled, x0 + 8), y + 8), 4, fill=colour)
        draw.line((x1, y - 4, x1, y + 12), fill=INK, width=2)  # the target line

    for index, record in enumerate(player.turns[-CHIPS:]):
        _turn_chip(draw, 400 + index * (CHIP_W + 5), top + 14, record)
    standing = str(player.standing)
    draw.text((width - 28, top + ROW // 2), standing, font=font(34, bold=True), fill=ink, anchor="rm")
    if out:
        left = width - 32 - font(34, bold=True).getlength(standing)
        draw.line((left, top + ROW // 2, width - 24, top + ROW // 2), fill=ink, width=3)


def replay_frame(view: DiceView, labels: Labels, names: Sequence[str]) -> Image.Image:
    """A replay's frame: the train just played above the score table."""
    scores = Image.open(io.BytesIO(render_scores(view, labels, names))).convert("RGB")
    if view.previous is None:
        return scores
    train = Image.open(io.BytesIO(render_finished_turn(view.previous, labels, names))).convert("RGB")
    frame = Image.new("RGB", (max(train.width, scores.width), train.height + scores.height), scores.getpixel((0, 0)))
    frame.paste(train, (0, 0))
    frame.paste(scores, (0, train.height))
    return frame


PICTURES = GamePictures(frame=replay_frame, colours=SEAT_COLOURS)
"""The dice game's pictures as the replay and the score chart use them (no static art to draw ahead)."""
