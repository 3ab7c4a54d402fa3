"""The end-of-game score sheet: each player's routes, tickets won and lost, longest route, stations, total,
the winner, and a map with every player's longest trail traced.

Everything comes from the final public view (`final` and `result`) and the map's printed scoring rules.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.encode import encode
from render.ttr.minimap import MiniMap
from render.ttr.palette import (
    ACCENT,
    BAD,
    GOOD,
    PAPER,
    PAPER_LINE,
    PAPER_MUTED,
    PAPER_TEXT,
    player_color,
)
from render.ttr.panel import badge
from render.ttr.symbols import draw_star_icon
from render.ttr.text import Labels, Names, city_names, fitted, picture_text, player_name
from rules.ttr.maps import load_map
from rules.ttr.view import FinalPlayer, PublicView

WIDTH = 1200
PAD = 24
CHIP_H = 30


def score_sheet_image(view: PublicView, labels: Labels, names: Names) -> Image.Image:
    """Draw the final scores of a finished game (its public view carries `final` and `result`)."""
    if view.final is None or view.result is None:
        raise ValueError("the score sheet needs a finished game's view")
    game_map = load_map(view.map)
    cities = city_names(labels, game_map)
    finals = {f.seat: f for f in view.final}
    order = [p.seat for p in view.result.players]
    blocks = [_player_block(view, finals[seat], cities, labels, names, seat in view.result.winners) for seat in order]
    mini = MiniMap(view.map, WIDTH - 2 * PAD)
    trails = {t for f in view.final for t in f.longest_trail}
    for player in view.players:
        owned = sorted(t for t, s in view.owners.items() if s == player.seat)
        mini.trains([t for t in owned if t not in trails], player.color, width=2.5)
    for seat in order:
        mini.trains(finals[seat].longest_trail, view.players[seat].color, width=7)
    picture = mini.finish()
    height = 92 + sum(b.height + 14 for b in blocks) + picture.height + 2 * PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 20), picture_text(labels, "score.title"), font=font(32, bold=True), fill=PAPER_TEXT)
    winners = view.result.winners
    key = "score.winner" if len(winners) == 1 else "score.winners"
    crown = f"{picture_text(labels, key)}: " + ", ".join(player_name(names, s) for s in winners)
    text, face = fitted(crown, 22, WIDTH - 2 * PAD - 40, bold=True)
    draw_star_icon(draw, (PAD + 12, 74), 24, ACCENT)
    draw.text((PAD + 32, 62), text, font=face, fill=PAPER_TEXT)
    y = 104
    for block in blocks:
        image.paste(block, (PAD, y))
        y += block.height + 14
    image.paste(picture, (PAD, y))
    draw.rectangle((PAD - 1, y - 1, PAD + picture.width, y + picture.height), outline=PAPER_LINE, width=2)
    return image


def render_score_sheet(view: PublicView, labels: Labels, names: Names) -> bytes:
    """The score sheet as PNG bytes, posted once the game is over."""
    return encode(score_sheet_image(view, labels, names))


def _player_block(
    view: PublicView, final: FinalPlayer, cities: dict[str, str], labels: Labels, names: Names, winner: bool
) -> Image.Image:
    """One player's card: name and total, the four kinds of points, then every ticket as a chip."""
    rules = load_map(view.map).rules
    player = view.players[final.seat]
    width = WIDTH - 2 * PAD
    chips = [_chip_text(t.points, t.completed, f"{cities[t.a]} – {cities[t.b]}") for t in final.tickets]
    chip_face = font(16, bold=True)
    lines = _wrap([chip_face.getlength(c) + 28 for c in chips], width - 40)
    height = 124 + lines * (CHIP_H + 8)
    block = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(block)
    edge = ACCENT if winner else PAPER_LINE
    draw.rectangle((0, 0, width - 1, height - 1), outline=edge, width=4 if winner else 2)
    draw.rectangle((0, 0, 10, height), fill=player_color(player.color))
    b = badge(player.color, 40)
    block.paste(b, (24, 16), b)
    total_face = font(34, bold=True)
    draw.text((width - 20, 12), str(final.total), font=total_face, fill=PAPER_TEXT, anchor="ra")
    if winner:
        draw_star_icon(draw, (width - 36 - total_face.getlength(str(final.total)), 32), 30, ACCENT)
    name, face = fitted(player_name(names, final.seat), 24, width - 300, bold=True)
    draw.text((76, 14), name, font=face, fill=PAPER_TEXT)
    trail = picture_text(labels, "score.trail", length=final.longest_length)
    draw.text((76, 46), trail, font=font(15), fill=PAPER_MUTED)
    won = sum(t.points for t in final.tickets if t.completed)
    lost = sum(t.points for t in final.tickets if not t.completed)
    parts = [
        ("score.routes", f"{player.route_points:+d}", PAPER_TEXT),
        ("score.tickets", f"{won:+d} / {-lost:+d}" if lost else f"{won:+d}", PAPER_TEXT),
        ("score.longest", f"{rules.longest_bonus if final.longest_bonus else 0:+d}", PAPER_TEXT),
    ]
    if rules.stations_per_player:
        parts.append(("score.stations", f"{player.stations_left * rules.station_value:+d}", PAPER_TEXT))
    step = (width - 60) / len(parts)
    for k, (key, value, color) in enumerate(parts):
        x = 24 + k * step
        word, f = fitted(picture_text(labels, key), 15, step - 12)
        draw.text((x, 72), word, font=f, fill=PAPER_MUTED)
        draw.text((x, 88), value, font=font(18, bold=True), fill=color)
    x, y = 24.0, 120.0
    for text, ticket in zip(chips, final.tickets, strict=True):
        w = chip_face.getlength(text) + 28
        if x + w > width - 16:
            x, y = 24.0, y + CHIP_H + 8
        color = GOOD if ticket.completed else BAD
        draw.rounded_rectangle((x, y, x + w, y + CHIP_H), radius=8, fill=color)
        draw.text((x + 14, y + CHIP_H / 2), text, font=chip_face, fill=(255, 255, 255), anchor="lm")
        x += w + 8
    return block


def _chip_text(points: int, completed: bool, route: str) -> str:
    return f"{'✓' if completed else '✗'} {route} {points if completed else -points:+d}"


def _wrap(widths: list[float], room: float) -> int:
    """How many lines the chips take."""
    lines, x = 1, 0.0
    for w in widths:
        if x and x + w > room:
            lines, x = lines + 1, 0.0
        x += w + 8
    return lines if widths else 0
