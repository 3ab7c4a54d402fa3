"""The scoring pictures, in two parts: a wide summary (rank, player, each part of the score, the total) that stays
readable at the size Discord shows it in the chat (about 400–550 px wide, at most about 300 high), and the detail
(each Train Stack revealed, the cards that served each ticket, tickets won and lost, cards left unused, and at the
end the big-city bonuses with who took them), which a player opens to read.

Two stages: the 4-player first scoring (when the first deck runs out: completed tickets only, nothing lost) and
the final scoring. Both come from the public view, which reveals a scoring once it has happened.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from render.cardgame.pieces import BONUS_EDGE, Box, bonus_card, paste_counts, paste_row, signed
from render.cardgame.words import route_word, word
from render.fonts import font
from render.ttr.encode import encode
from render.ttr.palette import (
    ACCENT,
    BAD,
    GOOD,
    LIGHT_INK,
    PAPER,
    PAPER_LINE,
    PAPER_MUTED,
    PAPER_TEXT,
    RGB,
    player_color,
)
from render.ttr.panel import badge
from render.ttr.score_sheet import paste_bot_mark
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.view import BigCityView, CardGameView, ScoredTicketView, ScoringView

Stage = Literal["first", "final"]

WIDTH = 900
PAD = 20
BLOCK_W = WIDTH - 2 * PAD
ROW_H = 74
TOTAL_W = 134
PART_W = 100
LINE_H = 44
EARLIER: RGB = (52, 120, 170)
"""Chips of tickets completed at the first scoring, in the final detail."""
SERVED = (22, 31)
"""Size of the small cards shown after a completed ticket: the stack cards that served it."""
WINNER_FILL: RGB = (255, 244, 206)


@dataclass(frozen=True)
class Column:
    """One part of the score in the summary: its heading and each seat's value (None: nothing to show)."""

    heading: str
    values: dict[int, int]
    signed: bool = True


def scoring_image(
    view: CardGameView, labels: Labels, names: Names, stage: Stage = "final", bots: Collection[int] = ()
) -> Image.Image:
    """Draw the summary of a scoring: `first` (4 players, the first deck ran out) or `final` (the game is over);
    `bots`: the seats bot players play, marked."""
    scorings = _scorings(view, stage)
    totals, order, winners = _totals(view, scorings, stage)
    columns = _columns(view, scorings, totals, stage, labels)
    header_top = 112
    rows_top = header_top + 52
    height = rows_top + len(order) * ROW_H + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = word(labels, "score.title_final" if stage == "final" else "score.title_first")
    line, face = fitted(title, 36, BLOCK_W, bold=True, minimum=24)
    draw.text((PAD, 18), line, font=face, fill=PAPER_TEXT)
    if stage == "final":
        key = "score.winner" if len(winners) == 1 else "score.winners"
        crown = f"{word(labels, key)}: " + ", ".join(player_name(names, s) for s in sorted(winners))
        draw_star_icon(draw, (PAD + 14, 82), 28, ACCENT)
        line, face = fitted(crown, 26, BLOCK_W - 40, bold=True, minimum=18)
        draw.text((PAD + 36, 82), line, font=face, fill=PAPER_TEXT, anchor="lm")
    else:
        for k, part in enumerate(_two_lines(word(labels, "score.first_note"), font(19), BLOCK_W)):
            line, face = fitted(part, 19, BLOCK_W, minimum=15)
            draw.text((PAD, 66 + k * 24), line, font=face, fill=PAPER_MUTED)
    right = WIDTH - PAD
    xs: list[float] = [right - TOTAL_W - (len(columns) - k) * PART_W for k in range(len(columns))]
    for x, column in zip(xs, columns, strict=True):
        _heading(draw, column.heading, (x, header_top, x + PART_W, rows_top - 6))
    _heading(draw, word(labels, "score.total"), (right - TOTAL_W, header_top, right, rows_top - 6), bold=True)
    name_right = (xs[0] if xs else right - TOTAL_W) - 12
    ranks = _ranks(order, totals, winners)
    for k, seat in enumerate(order):
        row = _Row(seat, ranks[seat], totals[seat], seat in winners, rows_top + k * ROW_H, seat in bots)
        _summary_row(image, row, name_right, xs, columns, names)
    return image


def render_scoring(
    view: CardGameView, labels: Labels, names: Names, stage: Stage = "final", bots: Collection[int] = ()
) -> bytes:
    """A scoring's summary as PNG bytes: what the scoring message shows in the chat."""
    return encode(scoring_image(view, labels, names, stage, bots))


def detail_image(
    view: CardGameView, labels: Labels, names: Names, stage: Stage = "final", bots: Collection[int] = ()
) -> Image.Image:
    """Draw a scoring's detail: each player's stack (bot players marked), tickets with the cards that served them,
    and the big cities."""
    scorings = _scorings(view, stage)
    earlier = {s.seat: s for s in view.first_scoring or []} if stage == "final" else {}
    totals, order, winners = _totals(view, scorings, stage)
    blocks = [
        _block(scorings[seat], earlier.get(seat), (totals[seat], seat in winners, seat in bots), labels, names)
        for seat in order
    ]
    cities = _big_cities(view, labels, names) if stage == "final" else None
    top = 104 if earlier else 70
    height = top + sum(b.height + 14 for b in blocks) + (cities.height + 16 if cities else 0) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = word(labels, "score.detail_final" if stage == "final" else "score.detail_first")
    line, face = fitted(title, 30, BLOCK_W - 10, bold=True, minimum=20)
    draw.text((PAD, 18), line, font=face, fill=PAPER_TEXT)
    if earlier:
        _first_legend(draw, labels, WIDTH - PAD, 62)
    y = top
    for block in blocks:
        image.paste(block, (PAD, y))
        y += block.height + 14
    if cities is not None:
        image.paste(cities, (PAD, y + 2))
    return image


def render_scoring_detail(
    view: CardGameView, labels: Labels, names: Names, stage: Stage = "final", bots: Collection[int] = ()
) -> bytes:
    """A scoring's detail as PNG bytes: a second picture, for the player who opens it."""
    return encode(detail_image(view, labels, names, stage, bots))


def _scorings(view: CardGameView, stage: Stage) -> dict[int, ScoringView]:
    """Each seat's side of the scoring asked for; refuse a view where it has not happened."""
    if stage == "final":
        if view.final is None:
            raise ValueError("the final scoring needs a finished game's view")
        return {s.seat: s for s in view.final.scoring}
    if view.first_scoring is None:
        raise ValueError("no first scoring has happened in this game")
    return {s.seat: s for s in view.first_scoring}


def _totals(
    view: CardGameView, scorings: dict[int, ScoringView], stage: Stage
) -> tuple[dict[int, int], list[int], set[int]]:
    """Each seat's points, the order to show them in, and the winners (final only)."""
    if stage == "final" and view.final is not None:
        result = view.final.result
        return {p.seat: p.total for p in result.players}, [p.seat for p in result.players], set(result.winners)
    totals = {seat: s.points for seat, s in scorings.items()}
    return totals, sorted(totals, key=lambda s: (-totals[s], s)), set()


def _columns(
    view: CardGameView, scorings: dict[int, ScoringView], totals: dict[int, int], stage: Stage, labels: Labels
) -> list[Column]:
    """The parts of the score, one column each: tickets won and lost, the first scoring, big cities (final);
    tickets completed and cards in the stack (first)."""
    seats = list(scorings)
    if stage == "first":
        completed = {s: sum(1 for t in scorings[s].tickets if t.completed) for s in seats}
        stacks = {s: sum(scorings[s].stack.values()) for s in seats}
        return [
            Column(word(labels, "score.col_completed"), completed, signed=False),
            Column(word(labels, "score.col_stack"), stacks, signed=False),
        ]
    earlier = {s.seat: s.points for s in view.first_scoring or []}
    won = {s: sum(t.points for t in scorings[s].tickets if t.completed) for s in seats}
    lost = {s: sum(t.points for t in scorings[s].tickets if not t.completed) for s in seats}
    bonus = {s: totals[s] - scorings[s].points - earlier.get(s, 0) for s in seats}
    columns = [Column(word(labels, "score.col_won"), won), Column(word(labels, "score.col_lost"), lost)]
    if earlier:
        columns.append(Column(word(labels, "score.col_first"), {s: earlier.get(s, 0) for s in seats}))
    columns.append(Column(word(labels, "score.col_bonus"), bonus))
    return columns


def _heading(draw: ImageDraw.ImageDraw, text: str, box: Box, *, bold: bool = False) -> None:
    """A column heading, centred over its column at the bottom of `box`, on two lines if it needs them."""
    x0, _y0, x1, y1 = box
    width = x1 - x0 - 6
    for k, line in enumerate(reversed(_two_lines(text, font(17, bold=True), width))):
        shown, face = fitted(line, 17, width, bold=True, minimum=14)
        ink = PAPER_TEXT if bold else PAPER_MUTED
        draw.text(((x0 + x1) / 2, y1 - k * 20), shown, font=face, fill=ink, anchor="md")


@dataclass(frozen=True)
class _Row:
    """One line of the summary: whose, their place, their total, whether they won, where it goes, and whether a bot
    player plays the seat."""

    seat: int
    rank: int
    total: int
    winner: bool
    top: float
    bot: bool


def _ranks(order: list[int], totals: dict[int, int], winners: set[int]) -> dict[int, int]:
    """Places: every winner 1st; the others by position, equal totals sharing a place."""
    ranks: dict[int, int] = {}
    for k, seat in enumerate(order):
        same = next((s for s in order[:k] if totals[s] == totals[seat] and s not in winners), None)
        ranks[seat] = 1 if seat in winners else ranks[same] if same is not None else k + 1
    return ranks


def _two_lines(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`text` as one line if it fits `width` in `face`, else cut in two at the space nearest its middle."""
    if face.getlength(text) <= width or " " not in text:
        return [text]
    middle = len(text) // 2
    cut = min((i for i, c in enumerate(text) if c == " "), key=lambda i: abs(i - middle))
    return [text[:cut], text[cut + 1 :]]


def _summary_row(
    image: Image.Image,
    row: _Row,
    name_right: float,
    xs: list[float],
    columns: list[Column],
    names: Names,
) -> None:
    """One player's line of the summary: place and name (on the player's colour), each part, the total (a winner's
    in gold)."""
    draw = ImageDraw.Draw(image)
    seat, top, winner = row.seat, row.top, row.winner
    box = (PAD, top + 3, WIDTH - PAD, top + ROW_H - 3)
    middle = top + ROW_H / 2
    fill, edge = (WINNER_FILL, ACCENT) if winner else ((255, 255, 255), PAPER_LINE)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=edge, width=3 if winner else 2)
    draw.rounded_rectangle((PAD, top + 3, PAD + 8, top + ROW_H - 3), radius=3, fill=player_color(seat))
    draw.text((PAD + 34, middle), str(row.rank), font=font(30, bold=True), fill=PAPER_TEXT, anchor="mm")
    mark = paste_bot_mark(image, (PAD + 66, middle), 30) if row.bot else 0.0
    name, face = fitted(player_name(names, seat), 28, name_right - PAD - 66 - mark, bold=True, minimum=18)
    draw.text((PAD + 66 + mark, middle), name, font=face, fill=PAPER_TEXT, anchor="lm")
    part = font(26, bold=True)
    for x, column in zip(xs, columns, strict=True):
        value = column.values.get(seat, 0)
        if column.signed and value == 0:
            draw.text((x + PART_W / 2, middle), "—", font=part, fill=PAPER_LINE, anchor="mm")
            continue
        shown = signed(value) if column.signed else str(value)
        ink = BAD if value < 0 else PAPER_TEXT
        draw.text((x + PART_W / 2, middle), shown, font=part, fill=ink, anchor="mm")
    right = WIDTH - PAD
    draw.line((right - TOTAL_W, top + 12, right - TOTAL_W, top + ROW_H - 12), fill=PAPER_LINE, width=2)
    draw.text((right - 16, middle), str(row.total), font=font(40, bold=True), fill=PAPER_TEXT, anchor="rm")
    if winner:
        draw_star_icon(draw, (right - TOTAL_W + 18, middle), 26, ACCENT)


def _block(
    scoring: ScoringView,
    earlier: ScoringView | None,
    standing: tuple[int, bool, bool],
    labels: Labels,
    names: Names,
) -> Image.Image:
    """One player (`standing`: their total, whether they won, whether a bot plays the seat): name and points, the
    stack revealed, every ticket with the cards that served it, the rest."""
    total, winner, bot = standing
    tickets: list[tuple[ScoredTicketView, bool]] = [(t, True) for t in (earlier.tickets if earlier else [])]
    tickets += [(t, False) for t in sorted(scoring.tickets, key=lambda t: (not t.completed, -t.points))]
    height = 150 + max(1, len(tickets)) * LINE_H + 56
    block = Image.new("RGB", (BLOCK_W, height), (255, 255, 255))
    draw = ImageDraw.Draw(block)
    seat = scoring.seat
    draw.rectangle((0, 0, BLOCK_W - 1, height - 1), outline=ACCENT if winner else PAPER_LINE, width=4 if winner else 2)
    draw.rectangle((0, 0, 10, height), fill=player_color(seat))
    b = badge(seat, 40)
    block.paste(b, (24, 16), b)
    total_face = font(36, bold=True)
    shown = str(total)
    draw.text((BLOCK_W - 20, 36), shown, font=total_face, fill=PAPER_TEXT, anchor="rm")
    if winner:
        draw_star_icon(draw, (BLOCK_W - 42 - total_face.getlength(shown), 36), 30, ACCENT)
    mark = paste_bot_mark(block, (76, 36), 28) if bot else 0.0
    name, face = fitted(player_name(names, seat), 26, BLOCK_W - 260 - mark, bold=True, minimum=18)
    draw.text((76 + mark, 36), name, font=face, fill=PAPER_TEXT, anchor="lm")
    size = sum(scoring.stack.values())
    heading = font(18, bold=True)
    draw.text((24, 74), f"{word(labels, 'score.stack')} · {size}", font=heading, fill=PAPER_MUTED)
    if size:
        paste_counts(block, 24, 100, scoring.stack, width=26, height=36, size=20)
    else:
        draw.text((24, 106), word(labels, "score.stack_empty"), font=font(18), fill=PAPER_MUTED)
    if not tickets:
        draw.text((24, 156), word(labels, "score.no_tickets"), font=font(18), fill=PAPER_MUTED)
    for k, (ticket, first) in enumerate(tickets):
        y = 150 + k * LINE_H
        _ticket_line(block, draw, (24, y, BLOCK_W - 24, y + 36), ticket, first, labels)
    unused_y = height - 48
    unused = sum(scoring.unused.values())
    label = f"{word(labels, 'score.unused')} · {unused}"
    draw.text((24, unused_y + 8), label, font=heading, fill=PAPER_MUTED)
    if unused:
        paste_counts(block, 24 + heading.getlength(label) + 16, unused_y, scoring.unused, width=24, height=34, size=18)
    return block


def _ticket_line(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, ticket: ScoredTicketView, first: bool, labels: Labels
) -> None:
    """A ticket as a chip (won, lost, or won at the first scoring) followed by the stack cards that served it."""
    x0, y0, x1, y1 = box
    fill = EARLIER if first else GOOD if ticket.completed else BAD
    mark = "✓" if ticket.completed else "✗"
    points = signed(ticket.points)
    points_face = font(20, bold=True)
    cards_w = len(ticket.cards) * (SERVED[0] + 3)
    chip_room = x1 - x0 - cards_w - 12
    prefix = word(labels, "score.first_mark") + " " if first else ""
    text, face = fitted(
        f"{prefix}{mark} {route_word(labels, ticket.ticket.a, ticket.ticket.b)}",
        20,
        chip_room - points_face.getlength(points) - 36,
        bold=True,
        minimum=15,
    )
    chip_w = face.getlength(text) + 24 + points_face.getlength(points) + 14
    draw.rounded_rectangle((x0, y0, x0 + chip_w, y1), radius=8, fill=fill)
    draw.text((x0 + 12, (y0 + y1) / 2), text, font=face, fill=LIGHT_INK, anchor="lm")
    draw.text((x0 + chip_w - 12, (y0 + y1) / 2), points, font=points_face, fill=LIGHT_INK, anchor="rm")
    paste_row(image, x0 + chip_w + 10, y0 + (y1 - y0 - SERVED[1]) / 2, ticket.cards, SERVED[0], SERVED[1], 3)


def _first_legend(draw: ImageDraw.ImageDraw, labels: Labels, right: float, top: float) -> None:
    """Top right of the final detail: what the blue chips are (tickets completed at the first scoring)."""
    words = word(labels, "score.first_legend")
    face, chip_face = font(17), font(17, bold=True)
    mark = f"{word(labels, 'score.first_mark')} ✓"
    text_x = right - face.getlength(words)
    chip_w = chip_face.getlength(mark) + 20
    draw.rounded_rectangle((text_x - chip_w - 10, top, text_x - 10, top + 28), radius=7, fill=EARLIER)
    draw.text((text_x - 10 - chip_w / 2, top + 14), mark, font=chip_face, fill=LIGHT_INK, anchor="mm")
    draw.text((text_x, top + 14), words, font=face, fill=PAPER_MUTED, anchor="lm")


def _big_cities(view: CardGameView, labels: Labels, names: Names) -> Image.Image:
    """The six big-city bonus cards, three to a row, each with how many completed tickets name it per player,
    and who takes it."""
    assert view.final is not None
    cities = view.final.big_cities
    gap, columns = 14, 3
    card_w = (BLOCK_W - gap * (columns - 1)) / columns
    lines = max((sum(1 for c in city.counts if c) for city in cities), default=1)
    card_h = 80 + max(1, lines) * 32
    grid_rows = (len(cities) + columns - 1) // columns
    panel = Image.new("RGB", (BLOCK_W, 44 + grid_rows * (card_h + gap)), PAPER)
    draw = ImageDraw.Draw(panel)
    draw.text((0, 4), word(labels, "score.big_cities"), font=font(24, bold=True), fill=PAPER_TEXT)
    for k, city in enumerate(cities):
        x = (k % columns) * (card_w + gap)
        y = 44 + (k // columns) * (card_h + gap)
        _city_card(panel, draw, (x, y, x + card_w, y + card_h), city, labels, names)
    return panel


def _city_card(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, city: BigCityView, labels: Labels, names: Names
) -> None:
    """One bonus card and, under it, each player's count; the takers' lines in bold with a gold star."""
    x0, y0, x1, _y1 = box
    taken = bool(city.winners)
    edge, width = (ACCENT, 3) if taken else (PAPER_LINE, 2)
    draw.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=edge, width=width)
    bonus_card(image, (x0 + 6, y0 + 6, x1 - 6, y0 + 64), city.city, city.bonus, labels)
    y = y0 + 72
    counted = [(seat, n) for seat, n in enumerate(city.counts) if n]
    if not counted:
        draw.text((x0 + 12, y + 4), word(labels, "score.nobody"), font=font(18), fill=PAPER_MUTED)
    count_face = font(20, bold=True)
    for seat, count in sorted(counted, key=lambda sc: (-sc[1], sc[0])):
        b = badge(seat, 24)
        image.paste(b, (round(x0 + 10), round(y + 3)), b)
        taker = seat in city.winners
        name, face = fitted(player_name(names, seat), 18, x1 - x0 - 110, bold=taker, minimum=14)
        draw.text((x0 + 42, y + 15), name, font=face, fill=PAPER_TEXT if taker else PAPER_MUTED, anchor="lm")
        draw.text((x1 - 12, y + 15), f"×{count}", font=count_face, fill=PAPER_TEXT, anchor="rm")
        if taker:
            draw_star_icon(draw, (x1 - 62, y + 15), 20, BONUS_EDGE)
        y += 32
