"""The end-of-game pictures, made to read at phone width (about 450 px), in two parts: the summary (the winner, then
a table of rank, player, route points, tickets won and lost, longest trail bonus, stations and total, and who has the
longest trail), wide and short so the chat shows it across its whole column; and the detail, each player's routes by
length and every ticket completed or missed, which may be as tall as it needs (a player opens it to read).

Everything comes from the final public view (`final` and `result`) and the map's printed scoring rules. The
final board is posted between the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import font
from render.glyphs import bot_mark
from render.ttr.encode import encode
from render.ttr.palette import (
    ACCENT,
    BAD,
    DARK_INK,
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
from render.ttr.symbols import draw_star_icon, draw_train_icon
from render.ttr.text import Labels, Names, city_names, fitted, picture_text, player_name
from rules.ttr.maps import load_map
from rules.ttr.view import FinalPlayer, PublicView, TicketView

WIDTH = 900
"""Twice the phone's 450 px: every size below reads at half on a phone."""
PAD = 24
ROW_H = 74
TICKET_SIZE = 22
TICKET_ROW = 40
WINNER_ROW: RGB = (255, 243, 205)
TABLE_TOP = 132


@dataclass(frozen=True)
class _Column:
    key: str
    width: int


def summary_image(view: PublicView, labels: Labels, names: Names, bots: Collection[int] = ()) -> Image.Image:
    """Draw the summary of a finished game (its public view carries `final` and `result`): the winner, every
    player's total and its parts best first (`bots`: the seats bot players play, marked), the longest trail."""
    finals = _finals(view)
    table_h = 50 + ROW_H * len(finals)
    image = Image.new("RGB", (WIDTH, TABLE_TOP + table_h + 60 + PAD), PAPER)
    draw = ImageDraw.Draw(image)
    _title(draw, view, labels, names)
    _table(image, view, finals, labels, names, set(bots))
    _longest(draw, view, labels, names, TABLE_TOP + table_h + 14)
    return image


def render_score_summary(view: PublicView, labels: Labels, names: Names, bots: Collection[int] = ()) -> bytes:
    """The summary as PNG bytes: the first picture of the final message."""
    return encode(summary_image(view, labels, names, bots))


def score_sheet_image(view: PublicView, labels: Labels, names: Names, bots: Collection[int] = ()) -> Image.Image:
    """Draw the detail of a finished game: each player, best first (bot players marked), with routes by length and
    every ticket."""
    cities = city_names(labels, load_map(view.map))
    details = [_detail(view, final, cities, labels, names, final.seat in bots) for final in _finals(view)]
    image = Image.new("RGB", (WIDTH, PAD + sum(d.height + 14 for d in details) - 14 + PAD), PAPER)
    y = PAD
    for detail in details:
        image.paste(detail, (PAD, y))
        y += detail.height + 14
    return image


def render_score_sheet(view: PublicView, labels: Labels, names: Names, bots: Collection[int] = ()) -> bytes:
    """The detail as PNG bytes: the last picture of the final message."""
    return encode(score_sheet_image(view, labels, names, bots))


def _finals(view: PublicView) -> list[FinalPlayer]:
    """Each player's revealed end of game, best first; refuse a view of a game that is not over."""
    if view.final is None or view.result is None:
        raise ValueError("the final pictures need a finished game's view")
    finals = {f.seat: f for f in view.final}
    return [finals[p.seat] for p in view.result.players]


def _title(draw: ImageDraw.ImageDraw, view: PublicView, labels: Labels, names: Names) -> None:
    """The title, and the winner (or the players sharing the win) under it with a star."""
    assert view.result is not None
    title, face = fitted(picture_text(labels, "score.title"), 40, WIDTH - 2 * PAD, bold=True)
    draw.text((PAD, 16), title, font=face, fill=PAPER_TEXT)
    winners = view.result.winners
    key = "score.winner" if len(winners) == 1 else "score.winners"
    crown = f"{picture_text(labels, key)}: " + ", ".join(player_name(names, s) for s in winners)
    text, face = fitted(crown, 32, WIDTH - 2 * PAD - 48, bold=True)
    draw_star_icon(draw, (PAD + 18, 90), 36, ACCENT)
    draw.text((PAD + 46, 90), text, font=face, fill=PAPER_TEXT, anchor="lm")


def _columns(stations: bool) -> list[_Column]:
    """The number columns, right to left of the player's name."""
    columns = [_Column("routes", 112), _Column("tickets", 162), _Column("longest", 96)]
    if stations:
        columns.append(_Column("stations", 96))
    return [*columns, _Column("total", 104)]


def _table(
    image: Image.Image,
    view: PublicView,
    finals: list[FinalPlayer],
    labels: Labels,
    names: Names,
    bots: set[int],
) -> None:
    """The table: one row per player, best first, big enough to read on a phone."""
    assert view.result is not None
    draw = ImageDraw.Draw(image)
    rules = load_map(view.map).rules
    columns = _columns(rules.stations_per_player > 0)
    right = WIDTH - PAD
    edges = []
    for column in reversed(columns):
        edges.append((column, right))
        right -= column.width
    edges.reverse()
    name_x, name_end = PAD + 70, right - 12
    for column, x in edges:
        _heading(draw, picture_text(labels, f"score.{column.key}"), (x - 6, TABLE_TOP + 40), column.width - 10)
    words, face = fitted(picture_text(labels, "score.player"), 20, name_end - PAD, bold=True)
    draw.text((PAD, TABLE_TOP + 40), words, font=face, fill=PAPER_MUTED, anchor="ld")
    winners = set(view.result.winners)
    rank = 0
    for k, final in enumerate(finals):
        rank = 1 if final.seat in winners else max(rank + 1, k + 1)
        y = TABLE_TOP + 50 + k * ROW_H
        mid = y + ROW_H / 2
        fill = WINNER_ROW if final.seat in winners else (255, 255, 255) if k % 2 == 0 else PAPER
        draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 4), fill=fill)
        draw.rectangle((PAD, y, PAD + 8, y + ROW_H - 4), fill=player_color(view.players[final.seat].color))
        draw.text((PAD + 38, mid - 2), str(rank), font=font(36, bold=True), fill=PAPER_TEXT, anchor="mm")
        mark = paste_bot_mark(image, (name_x, mid - 2), 32) if final.seat in bots else 0.0
        _name(draw, player_name(names, final.seat), (name_x + mark, mid - 2), name_end - name_x - mark)
        for column, x in edges:
            _cell(draw, column.key, view, final, (x - 6, mid - 2))
    draw.line((PAD, TABLE_TOP + 45, WIDTH - PAD, TABLE_TOP + 45), fill=PAPER_LINE, width=2)


def paste_bot_mark(image: Image.Image, at: tuple[float, float], size: int) -> float:
    """A bot player's robot mark (the font has no emoji) at the left of `at`, centred on its line, before the name;
    return the room it takes. The card game's scoring marks its bot players with it too."""
    mark = bot_mark(size, PAPER_TEXT)
    image.paste(mark, (round(at[0]), round(at[1] - size / 2)), mark)
    return size + 10


def _name(draw: ImageDraw.ImageDraw, name: str, at: tuple[float, float], room: float) -> None:
    """A player's name in the summary, big; on two lines (split at the middle space) rather than cut or tiny."""
    text, face = fitted(name, 30, room, bold=True, minimum=24)
    if text == name or " " not in name:
        draw.text(at, text, font=face, fill=PAPER_TEXT, anchor="lm")
        return
    cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(2 * i - len(name)))
    for k, line in enumerate((name[:cut], name[cut + 1 :])):
        words, f = fitted(line, 26, room, bold=True, minimum=18)
        draw.text((at[0], at[1] + (k - 0.5) * 30), words, font=f, fill=PAPER_TEXT, anchor="lm")


def _heading(draw: ImageDraw.ImageDraw, text: str, at: tuple[float, float], room: float) -> None:
    """A column's heading, right-aligned above its numbers, on two lines when one is too narrow for it."""
    face = font(20, bold=True)
    lines = [text]
    if face.getlength(text) > room and " " in text:
        cut = min((i for i, c in enumerate(text) if c == " "), key=lambda i: abs(2 * i - len(text)))
        lines = [text[:cut], text[cut + 1 :]]
    for k, line in enumerate(reversed(lines)):
        words, f = fitted(line, 20, room, bold=True)
        draw.text((at[0], at[1] - k * 22), words, font=f, fill=PAPER_MUTED, anchor="rd")


def _cell(draw: ImageDraw.ImageDraw, key: str, view: PublicView, final: FinalPlayer, at: tuple[float, float]) -> None:
    """One number of the summary: signed, the total biggest, tickets as won (green) and lost (red)."""
    rules = load_map(view.map).rules
    player = view.players[final.seat]
    face = font(30, bold=True)
    if key == "tickets":
        won = sum(t.points for t in final.tickets if t.completed)
        lost = sum(t.points for t in final.tickets if not t.completed)
        x = at[0]
        if lost:
            draw.text((x, at[1]), f"−{lost}", font=face, fill=BAD, anchor="rm")
            x -= face.getlength(f"−{lost}") + 10
        draw.text((x, at[1]), f"+{won}", font=face, fill=GOOD if won else PAPER_MUTED, anchor="rm")
        return
    if key == "total":
        draw.text(at, str(final.total), font=font(40, bold=True), fill=PAPER_TEXT, anchor="rm")
        return
    value = {
        "routes": player.route_points,
        "longest": rules.longest_bonus if final.longest_bonus else 0,
        "stations": player.stations_left * rules.station_value,
    }[key]
    draw.text(at, f"+{value}" if value else "–", font=face, fill=PAPER_TEXT if value else PAPER_MUTED, anchor="rm")


def _longest(draw: ImageDraw.ImageDraw, view: PublicView, labels: Labels, names: Names, top: int) -> None:
    """Name who won the longest trail bonus and how long it is (or say nobody did, when the bonus is off)."""
    assert view.final is not None
    holders = [f for f in view.final if f.longest_bonus]
    if holders:
        players = ", ".join(player_name(names, f.seat) for f in holders)
        words = picture_text(labels, "score.longest_won", players=players, length=holders[0].longest_length)
    else:
        best = max(view.final, key=lambda f: f.longest_length)
        words = picture_text(labels, "score.longest_none", length=best.longest_length)
    draw_train_icon(draw, (PAD, top + 6, PAD + 40, top + 38), PAPER_TEXT)
    text, face = fitted(words, 28, WIDTH - 2 * PAD - 54, bold=True)
    draw.text((PAD + 54, top + 22), text, font=face, fill=PAPER_TEXT, anchor="lm")


def _detail(
    view: PublicView, final: FinalPlayer, cities: dict[str, str], labels: Labels, names: Names, bot: bool
) -> Image.Image:
    """One player's detail: name (a bot player's marked), routes by length, then every ticket completed or missed,
    two to a line."""
    width = WIDTH - 2 * PAD
    tickets = sorted(final.tickets, key=lambda t: (not t.completed, -t.points, t.id))
    lines = -(-len(tickets) // 2)
    height = 16 + 48 + 52 + max(1, lines) * TICKET_ROW + 12
    card = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(card)
    color = view.players[final.seat].color
    draw.rectangle((0, 0, 9, height), fill=player_color(color))
    draw.rectangle((0, 0, width - 1, height - 1), outline=PAPER_LINE, width=2)
    b = badge(color, 40)
    card.paste(b, (24, 16), b)
    trail, trail_face = fitted(picture_text(labels, "score.trail", length=final.longest_length), 22, 300)
    trail_w = trail_face.getlength(trail)
    mark = paste_bot_mark(card, (76, 36), 28) if bot else 0.0
    name, face = fitted(player_name(names, final.seat), 28, width - 76 - 40 - trail_w - mark, bold=True)
    draw.text((76 + mark, 36), name, font=face, fill=PAPER_TEXT, anchor="lm")
    draw.text((width - 20, 36), trail, font=trail_face, fill=PAPER_MUTED, anchor="rm")
    _lengths(draw, view, final.seat, labels, (24, 16 + 48 + 22))
    y = 16 + 48 + 52
    if not tickets:
        draw.text((24, y + 4), picture_text(labels, "hand.no_tickets"), font=font(TICKET_SIZE), fill=PAPER_MUTED)
    column_w = (width - 24 - 20 - 16) // 2
    for k, ticket in enumerate(tickets):
        x = 24 + (k % 2) * (column_w + 16)
        _ticket(draw, ticket, cities, (x, y + (k // 2) * TICKET_ROW, x + column_w))
    return card


def _lengths(draw: ImageDraw.ImageDraw, view: PublicView, seat: int, labels: Labels, at: tuple[int, int]) -> None:
    """The player's routes counted by length, longest first: a dark box with the length, then `×count`."""
    lengths = {t.id: t.length for t in load_map(view.map).tracks}
    counts = Counter(lengths[t] for t, s in view.owners.items() if s == seat)
    x, mid = at
    label = picture_text(labels, "score.by_length")
    face = font(20)
    draw.text((x, mid), label, font=face, fill=PAPER_MUTED, anchor="lm")
    x += round(face.getlength(label)) + 14
    if not counts:
        draw.text((x, mid), "–", font=face, fill=PAPER_MUTED, anchor="lm")
    box_face, count_face = font(20, bold=True), font(22, bold=True)
    for length in sorted(counts, reverse=True):
        draw.rounded_rectangle((x, mid - 15, x + 32, mid + 15), radius=5, fill=DARK_INK)
        draw.text((x + 16, mid), str(length), font=box_face, fill=LIGHT_INK, anchor="mm")
        x += 38
        text = f"×{counts[length]}"
        draw.text((x, mid), text, font=count_face, fill=PAPER_TEXT, anchor="lm")
        x += round(count_face.getlength(text)) + 22


def _ticket(draw: ImageDraw.ImageDraw, ticket: TicketView, cities: dict[str, str], box: tuple[int, int, int]) -> None:
    """One ticket of the detail: a green +points or red −points chip, a ✓ or ✗, and its two cities."""
    x0, top, x1 = box
    mid = top + TICKET_ROW / 2 - 2
    color = GOOD if ticket.completed else BAD
    chip = f"+{ticket.points}" if ticket.completed else f"−{ticket.points}"
    draw.rounded_rectangle((x0, mid - 15, x0 + 58, mid + 15), radius=6, fill=color)
    draw.text((x0 + 29, mid), chip, font=font(20, bold=True), fill=LIGHT_INK, anchor="mm")
    mark = "✓" if ticket.completed else "✗"
    draw.text((x0 + 68, mid), mark, font=font(TICKET_SIZE, bold=True), fill=color, anchor="lm")
    route, face = fitted(f"{cities[ticket.a]} – {cities[ticket.b]}", TICKET_SIZE, x1 - x0 - 94, bold=True)
    draw.text((x0 + 94, mid), route, font=face, fill=PAPER_TEXT if ticket.completed else PAPER_MUTED, anchor="lm")
