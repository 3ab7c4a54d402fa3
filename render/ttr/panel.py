"""The players' panel beside the board: who plays, in turn order, with score, cars, cards, tickets, stations.

Also the state of play (whose turn, last round, the opening choice, a tunnel being paid) and the five face-up
cards with the sizes of the piles.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.cards import card_image, paste_card
from render.ttr.palette import (
    ACCENT,
    DARK_INK,
    PANEL_ACTIVE,
    PANEL_BG,
    PANEL_CARD,
    PANEL_MUTED,
    PANEL_TEXT,
    RGB,
    TUNNEL_RING,
    ink_on,
    player_color,
)
from render.ttr.sprites import space_sample
from render.ttr.symbols import (
    draw_cards_icon,
    draw_star_icon,
    draw_station_icon,
    draw_ticket_icon,
    draw_train_icon,
)
from render.ttr.text import Labels, Names, city_names, fitted, picture_text, player_name, text_for
from rules.ttr.board import CARD_NAMES
from rules.ttr.maps import load_map
from rules.ttr.view import PublicView

PANEL_WIDTH = 360
PAD = 16
LEGEND_ROW = 24


@lru_cache(maxsize=16)
def badge(color_index: int, size: int) -> Image.Image:
    """A round badge in a player's colour with their number, smooth (drawn large and shrunk)."""
    big = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    color = player_color(color_index)
    draw.ellipse((2, 2, size * 4 - 3, size * 4 - 3), fill=(255, 255, 255))
    draw.ellipse((8, 8, size * 4 - 9, size * 4 - 9), fill=color)
    draw.text(
        (size * 2, size * 2 + 1), str(color_index + 1), font=font(size * 2, bold=True), fill=ink_on(color), anchor="mm"
    )
    return big.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")


def draw_panel(image: Image.Image, x0: int, view: PublicView, labels: Labels, names: Names) -> None:
    """Draw the panel into `image` from column `x0` to the right edge."""
    draw = ImageDraw.Draw(image)
    height = image.height
    draw.rectangle((x0, 0, image.width, height), fill=PANEL_BG)
    game_map = load_map(view.map)
    x, right = x0 + PAD, image.width - PAD
    title, face = fitted(picture_text(labels, f"map.{view.map}"), 24, right - x, bold=True)
    draw.text((x, 16), title, font=face, fill=PANEL_TEXT)
    status, face = fitted(_status(view, labels, names), 17, right - x)
    draw.text((x, 52), status, font=face, fill=ACCENT if view.last_round else PANEL_MUTED)
    market_top = height - 190
    top = 88
    rows = max(1, view.n_players)
    stations = game_map.rules.stations_per_player > 0
    legend_h = LEGEND_ROW * (4 if stations else 3) + 8
    rows_bottom = market_top - (60 if view.tunnel is not None else 8)
    row_h = min(118, (rows_bottom - top - legend_h) // rows)
    legend = row_h >= 100
    if not legend:
        row_h = min(118, (rows_bottom - top) // rows)
    for player in view.players:
        y = top + player.seat * row_h
        _player_row(
            image, draw, (x0 + 8, y, image.width - 8, y + row_h - 8), view, player.seat, labels, names, stations
        )
    if legend:
        _legend(image, draw, x, right, rows_bottom - legend_h + 4, stations, labels)
    _market(image, draw, x, right, market_top, view, labels)
    if view.tunnel is not None:
        _tunnel(image, draw, x, right, market_top - 4, view, labels)


def _status(view: PublicView, labels: Labels, names: Names) -> str:
    """One line on the state of play."""
    if view.result is not None:
        return picture_text(labels, "status.over")
    if view.phase == "opening":
        return picture_text(labels, "status.opening")
    if view.current is None:
        return ""
    who = player_name(names, view.current)
    if view.last_round and view.turns_left is not None:
        return picture_text(labels, "status.last_round", player=who, turns=view.turns_left)
    return picture_text(labels, "status.to_play", player=who)


def _player_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: PublicView,
    seat: int,
    labels: Labels,
    names: Names,
    stations: bool,
) -> None:
    """One player: badge, name, score, then cars, cards, tickets and stations with their icons."""
    x0, y0, x1, y1 = box
    player = view.players[seat]
    winner = view.result is not None and seat in view.result.winners
    active = seat in view.to_act or winner
    color = player_color(player.color)
    draw.rounded_rectangle(box, radius=10, fill=PANEL_ACTIVE if active else PANEL_CARD)
    draw.rounded_rectangle((x0, y0, x0 + 7, y1), radius=3, fill=color)
    b = badge(player.color, 36)
    image.paste(b, (x0 + 16, y0 + 12), b)
    score = _score(view, seat)
    score_face = font(26, bold=True)
    score_w = score_face.getlength(str(score))
    draw.text((x1 - 12, y0 + 12), str(score), font=score_face, fill=PANEL_TEXT, anchor="ra")
    draw_star_icon(draw, (x1 - 24 - score_w, y0 + 27), 18, ACCENT)
    name_room = x1 - 40 - score_w - (x0 + 62)
    name, face = fitted(player_name(names, seat), 20, name_room, bold=True, minimum=16)
    draw.text((x0 + 62, y0 + 12), name, font=face, fill=PANEL_TEXT)
    note = ""
    if view.phase == "opening":
        note = picture_text(labels, "panel.choosing" if not player.chosen else "panel.chosen")
    elif winner:
        note = "★ " + picture_text(labels, "score.winner")
    elif active:
        note = "▶ " + picture_text(labels, "panel.to_play")
    if note:
        text, small = fitted(note, 14, name_room)
        draw.text((x0 + 62, y0 + 38), text, font=small, fill=ACCENT if active else PANEL_MUTED)
    line_y = y1 - 34
    if line_y - y0 < 58:
        line_y = y0 + 58
    items: list[tuple[str, int]] = [
        ("cars", player.cars),
        ("cards", player.hand_size),
        ("tickets", player.ticket_count),
    ]
    if stations:
        items.append(("stations", player.stations_left))
    step = (x1 - x0 - 24) / len(items)
    value_face = font(18, bold=True)
    for k, (icon, value) in enumerate(items):
        ix = x0 + 16 + k * step
        _icon(draw, icon, (ix, line_y + 2, ix + 24, line_y + 20), color)
        draw.text((ix + 30, line_y), str(value), font=value_face, fill=PANEL_TEXT)


def _score(view: PublicView, seat: int) -> int:
    """Route points during play; the final total once the game is over."""
    if view.final is not None:
        for final in view.final:
            if final.seat == seat:
                return final.total
    return view.players[seat].route_points


def _icon(draw: ImageDraw.ImageDraw, name: str, box: tuple[float, float, float, float], color: RGB) -> None:
    if name == "cars":
        draw_train_icon(draw, box, PANEL_MUTED)
    elif name == "cards":
        draw_cards_icon(draw, (box[0] + 2, box[1] - 2, box[2] - 4, box[3]), PANEL_MUTED, PANEL_CARD)
    elif name == "tickets":
        draw_ticket_icon(draw, box, PANEL_MUTED, PANEL_CARD)
    else:
        draw_station_icon(draw, (box[0] + 3, box[1] - 2, box[2] - 3, box[3]), PANEL_MUTED, PANEL_CARD)


def _legend(
    image: Image.Image, draw: ImageDraw.ImageDraw, x: int, right: int, top: int, stations: bool, labels: Labels
) -> None:
    """Which symbol is which colour (for colour-blind players), and on Europe what tunnels and ferries look like."""
    entries: list[tuple[Image.Image, str]] = [
        (card_image(name, 18, 24), _colour_word(labels, name)) for name in CARD_NAMES
    ]
    if stations:
        entries += [(space_sample("tunnel"), picture_text(labels, "legend.tunnel"))]
        entries += [(space_sample("ferry"), picture_text(labels, "legend.ferry"))]
    step = (right - x) / 3
    for k, (sample, word) in enumerate(entries):
        cx, cy = x + (k % 3) * step, top + (k // 3) * LEGEND_ROW
        image.paste(sample, (round(cx), round(cy + (22 - sample.height) / 2)), sample)
        text, f = fitted(word, 13, step - sample.width - 10)
        draw.text(
            (cx + sample.width + 6, cy + 11),
            text,
            font=f,
            fill=PANEL_MUTED,
            anchor="lm",
        )


def _colour_word(labels: Labels, name: str) -> str:
    """A card colour's name from the game's own words (`ttr.color.<name>`)."""
    key = f"ttr.color.{name}"
    word = text_for(labels, key)
    return name if word == key else word


def _market(
    image: Image.Image, draw: ImageDraw.ImageDraw, x: int, right: int, top: int, view: PublicView, labels: Labels
) -> None:
    """The face-up cards and the piles."""
    draw.line((x, top, right, top), fill=PANEL_CARD, width=2)
    heading, face = fitted(picture_text(labels, "panel.market"), 16, right - x, bold=True)
    draw.text((x, top + 10), heading, font=face, fill=PANEL_MUTED)
    card_w, gap = 54, (right - x - 5 * 54) / 4
    for k, color in enumerate(view.market[:5]):
        cx = x + k * (card_w + gap)
        paste_card(image, cx, top + 38, color, card_w, 78)
    piles = [
        ("cards", picture_text(labels, "panel.deck"), view.deck_size),
        ("discard", picture_text(labels, "panel.discards"), view.discard_size),
        ("tickets", picture_text(labels, "panel.ticket_deck"), view.ticket_deck_size),
    ]
    step = (right - x) / 3
    small = font(14)
    for k, (icon, word, count) in enumerate(piles):
        px = x + k * step
        _icon(draw, "tickets" if icon == "tickets" else "cards", (px, top + 134, px + 22, top + 150), DARK_INK)
        draw.text((px + 28, top + 130), str(count), font=font(17, bold=True), fill=PANEL_TEXT)
        text, f = fitted(word, 14, step - 6)
        draw.text((px, top + 156), text, font=f if f.size <= small.size else small, fill=PANEL_MUTED)


def _tunnel(
    image: Image.Image, draw: ImageDraw.ImageDraw, x: int, right: int, bottom: int, view: PublicView, labels: Labels
) -> None:
    """A tunnel being paid: the revealed cards and how many more are due (the track is ringed on the map)."""
    tunnel = view.tunnel
    if tunnel is None:
        return
    game_map = load_map(view.map)
    track = next(t for t in game_map.tracks if t.id == tunnel.track)
    names = city_names(labels, game_map)
    cards_w = len(tunnel.revealed) * 40
    room = right - x - cards_w - 8
    top = bottom - 54
    route, face = fitted(picture_text(labels, "panel.tunnel", a=names[track.a], b=names[track.b]), 16, room, bold=True)
    draw.text((x, top + 4), route, font=face, fill=TUNNEL_RING)
    extra, face = fitted(picture_text(labels, "panel.tunnel_extra", extra=tunnel.extra), 16, room)
    draw.text((x, top + 28), extra, font=face, fill=PANEL_TEXT)
    for k, color in enumerate(tunnel.revealed):
        paste_card(image, right - cards_w + k * 40 + 4, top, color, 34, 50)
