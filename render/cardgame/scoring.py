"""The scoring pictures: each Train Stack revealed, the cards assigned to each ticket, tickets won and lost, the
cards left unused, and (at the end) the big-city bonuses with who took them, the totals and the winner.

Two stages: the 4-player first scoring (when the first deck runs out: completed tickets only, nothing lost) and
the final scoring. Both come from the public view, which reveals a scoring once it has happened.
"""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageDraw

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
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.view import BigCityView, CardGameView, ScoredTicketView, ScoringView

Stage = Literal["first", "final"]

WIDTH = 1200
PAD = 24
BLOCK_W = WIDTH - 2 * PAD
LINE_H = 44
EARLIER: RGB = (52, 120, 170)
"""Chips of tickets completed at the first scoring, in the final picture."""
SERVED = (20, 28)
"""Size of the small cards shown after a completed ticket: the stack cards that served it."""


def scoring_image(view: CardGameView, labels: Labels, names: Names, stage: Stage = "final") -> Image.Image:
    """Draw a scoring: `first` (4 players, the first deck ran out) or `final` (the game is over)."""
    scorings = _scorings(view, stage)
    earlier = {s.seat: s for s in view.first_scoring or []} if stage == "final" else {}
    totals, order, winners = _totals(view, scorings, stage)
    blocks = [_block(scorings[seat], earlier.get(seat), totals[seat], seat in winners, labels, names) for seat in order]
    cities = _big_cities(view, labels, names) if stage == "final" else None
    height = 112 + sum(b.height + 14 for b in blocks) + (cities.height + 16 if cities else 0) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = word(labels, "score.title_final" if stage == "final" else "score.title_first")
    draw.text((PAD, 20), title, font=font(32, bold=True), fill=PAPER_TEXT)
    if stage == "final":
        key = "score.winner" if len(winners) == 1 else "score.winners"
        crown = f"{word(labels, key)}: " + ", ".join(player_name(names, s) for s in sorted(winners))
        text, face = fitted(crown, 22, BLOCK_W - 40, bold=True)
        draw_star_icon(draw, (PAD + 12, 76), 24, ACCENT)
        draw.text((PAD + 32, 64), text, font=face, fill=PAPER_TEXT)
        if earlier:
            _first_legend(draw, labels, WIDTH - PAD, 60)
    else:
        text, face = fitted(word(labels, "score.first_note"), 18, BLOCK_W)
        draw.text((PAD, 66), text, font=face, fill=PAPER_MUTED)
    y = 108
    for block in blocks:
        image.paste(block, (PAD, y))
        y += block.height + 14
    if cities is not None:
        image.paste(cities, (PAD, y + 2))
    return image


def render_scoring(view: CardGameView, labels: Labels, names: Names, stage: Stage = "final") -> bytes:
    """A scoring as PNG bytes: the first scoring's message, or the final score sheet."""
    return encode(scoring_image(view, labels, names, stage))


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


def _block(
    scoring: ScoringView,
    earlier: ScoringView | None,
    total: int,
    winner: bool,
    labels: Labels,
    names: Names,
) -> Image.Image:
    """One player: name and points, the stack revealed, every ticket with the cards that served it, the rest."""
    tickets: list[tuple[ScoredTicketView, bool]] = [(t, True) for t in (earlier.tickets if earlier else [])]
    tickets += [(t, False) for t in sorted(scoring.tickets, key=lambda t: (not t.completed, -t.points))]
    lines = (len(tickets) + 1) // 2
    height = 150 + max(1, lines) * LINE_H + 54
    block = Image.new("RGB", (BLOCK_W, height), (255, 255, 255))
    draw = ImageDraw.Draw(block)
    seat = scoring.seat
    draw.rectangle((0, 0, BLOCK_W - 1, height - 1), outline=ACCENT if winner else PAPER_LINE, width=4 if winner else 2)
    draw.rectangle((0, 0, 10, height), fill=player_color(seat))
    b = badge(seat, 40)
    block.paste(b, (24, 16), b)
    total_face = font(34, bold=True)
    shown = str(total)
    draw.text((BLOCK_W - 20, 12), shown, font=total_face, fill=PAPER_TEXT, anchor="ra")
    if winner:
        draw_star_icon(draw, (BLOCK_W - 40 - total_face.getlength(shown), 32), 30, ACCENT)
    name, face = fitted(player_name(names, seat), 24, BLOCK_W - 320, bold=True)
    draw.text((76, 14), name, font=face, fill=PAPER_TEXT)
    summary, face = fitted(_summary(scoring, earlier, total, labels), 17, BLOCK_W - 120)
    draw.text((76, 48), summary, font=face, fill=PAPER_MUTED)
    size = sum(scoring.stack.values())
    heading = font(16, bold=True)
    draw.text((24, 84), f"{word(labels, 'score.stack')} · {size}", font=heading, fill=PAPER_MUTED)
    if size:
        paste_counts(block, 24, 106, scoring.stack, width=24, height=34)
    else:
        draw.text((24, 112), word(labels, "score.stack_empty"), font=font(16), fill=PAPER_MUTED)
    column = (BLOCK_W - 48) / 2
    if not tickets:
        draw.text((24, 160), word(labels, "score.no_tickets"), font=font(16), fill=PAPER_MUTED)
    for k, (ticket, first) in enumerate(tickets):
        x = 24 + (k % 2) * column
        y = 152 + (k // 2) * LINE_H
        _ticket_line(block, draw, (x, y, x + column - 16, y + 34), ticket, first, labels)
    unused_y = height - 44
    unused = sum(scoring.unused.values())
    label = f"{word(labels, 'score.unused')} · {unused}"
    draw.text((24, unused_y + 6), label, font=heading, fill=PAPER_MUTED)
    if unused:
        paste_counts(block, 24 + heading.getlength(label) + 16, unused_y, scoring.unused, width=20, height=28, size=15)
    return block


def _summary(scoring: ScoringView, earlier: ScoringView | None, total: int, labels: Labels) -> str:
    """The points in words: tickets won, lost, the first scoring's, and big-city bonuses (the rest of the total)."""
    won = sum(t.points for t in scoring.tickets if t.completed)
    lost = -sum(t.points for t in scoring.tickets if not t.completed)
    parts = [word(labels, "score.won", points=won)]
    if lost:
        parts.append(word(labels, "score.lost", points=lost))
    if earlier is not None:
        parts.append(word(labels, "score.earlier", points=earlier.points))
    bonus = total - scoring.points - (earlier.points if earlier else 0)
    if bonus:
        parts.append(word(labels, "score.bonus", points=bonus))
    return " · ".join(parts)


def _ticket_line(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, ticket: ScoredTicketView, first: bool, labels: Labels
) -> None:
    """A ticket as a chip (won, lost, or won at the first scoring) followed by the stack cards that served it."""
    x0, y0, x1, y1 = box
    fill = EARLIER if first else GOOD if ticket.completed else BAD
    mark = "✓" if ticket.completed else "✗"
    points = signed(ticket.points)
    cards_w = len(ticket.cards) * (SERVED[0] + 3)
    chip_room = x1 - x0 - cards_w - 10
    prefix = word(labels, "score.first_mark") + " " if first else ""
    text, face = fitted(
        f"{prefix}{mark} {route_word(labels, ticket.ticket.a, ticket.ticket.b)}",
        16,
        chip_room - 70,
        bold=True,
        minimum=11,
    )
    chip_w = face.getlength(text) + 24 + font(16, bold=True).getlength(points) + 12
    draw.rounded_rectangle((x0, y0, x0 + chip_w, y1), radius=8, fill=fill)
    draw.text((x0 + 12, (y0 + y1) / 2), text, font=face, fill=LIGHT_INK, anchor="lm")
    draw.text((x0 + chip_w - 12, (y0 + y1) / 2), points, font=font(16, bold=True), fill=LIGHT_INK, anchor="rm")
    paste_row(image, x0 + chip_w + 8, y0 + (y1 - y0 - SERVED[1]) / 2, ticket.cards, SERVED[0], SERVED[1], 3)


def _first_legend(draw: ImageDraw.ImageDraw, labels: Labels, right: float, top: float) -> None:
    """Top right of the final sheet: what the blue chips are (tickets completed at the first scoring)."""
    words = word(labels, "score.first_legend")
    face, chip_face = font(16), font(16, bold=True)
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
    card_h = 78 + max(1, lines) * 30
    grid_rows = (len(cities) + columns - 1) // columns
    panel = Image.new("RGB", (BLOCK_W, 40 + grid_rows * (card_h + gap)), PAPER)
    draw = ImageDraw.Draw(panel)
    draw.text((0, 4), word(labels, "score.big_cities"), font=font(20, bold=True), fill=PAPER_TEXT)
    for k, city in enumerate(cities):
        x = (k % columns) * (card_w + gap)
        y = 40 + (k // columns) * (card_h + gap)
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
    bonus_card(image, (x0 + 6, y0 + 6, x1 - 6, y0 + 60), city.city, city.bonus, labels)
    y = y0 + 68
    counted = [(seat, n) for seat, n in enumerate(city.counts) if n]
    if not counted:
        draw.text((x0 + 12, y + 4), word(labels, "score.nobody"), font=font(15), fill=PAPER_MUTED)
    for seat, count in sorted(counted, key=lambda sc: (-sc[1], sc[0])):
        b = badge(seat, 22)
        image.paste(b, (round(x0 + 10), round(y + 2)), b)
        taker = seat in city.winners
        name, face = fitted(player_name(names, seat), 16, x1 - x0 - 120, bold=taker, minimum=11)
        draw.text((x0 + 40, y + 13), name, font=face, fill=PAPER_TEXT if taker else PAPER_MUTED, anchor="lm")
        draw.text((x1 - 12, y + 13), f"×{count}", font=font(16, bold=True), fill=PAPER_TEXT, anchor="rm")
        if taker:
            draw_star_icon(draw, (x1 - 58, y + 13), 18, BONUS_EDGE)
        y += 30
