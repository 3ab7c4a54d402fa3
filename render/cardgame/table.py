"""The table everyone sees: the face-up cards, the piles, the big-city bonuses, and each player's Rail Yard by
colour, Train Stack (face down, with its size), hand size and ticket count.

Drawn from the public view only. The last play's groups are ringed in gold and a robbery is named in the row of
the player robbed, so a glance tells what just happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.cardgame.pieces import Box, bonus_card, dashed_slot, fan_width, paste_ghost, paste_group, paste_pile
from render.cardgame.words import word
from render.fonts import font
from render.ttr.cards import paste_card
from render.ttr.encode import encode
from render.ttr.palette import (
    ACCENT,
    PANEL_ACTIVE,
    PANEL_BG,
    PANEL_CARD,
    PANEL_MUTED,
    PANEL_TEXT,
    RGB,
    player_color,
)
from render.ttr.panel import badge
from render.ttr.symbols import draw_cards_icon, draw_star_icon, draw_ticket_icon
from render.ttr.text import Labels, Names, fitted, player_name
from rules.cardgame.view import CardGameView, PlayView

WIDTH = 1200
PAD = 24
CARD_W, CARD_H = 82, 118
MARKET_TOP = 96
ROWS_TOP = 290
ROW_H = 156
YARD_X = 324
YARD_RIGHT = 1020
STACK_X = 1040
YARD_CARD = (60, 86)
ROBBED: RGB = (255, 128, 116)


@dataclass
class TableLayout:
    """Where each thing of the table picture goes (tests read it to find the cards)."""

    size: tuple[int, int]
    face_up: list[Box] = field(default_factory=list)
    deck: Box = (0, 0, 0, 0)
    ticket_deck: Box = (0, 0, 0, 0)
    bonus: dict[str, Box] = field(default_factory=dict)
    rows: dict[int, Box] = field(default_factory=dict)
    groups: dict[tuple[int, str], Box] = field(default_factory=dict)
    stacks: dict[int, Box] = field(default_factory=dict)
    robbed: dict[int, Box] = field(default_factory=dict)
    """Where a group robbed in the last turn is shown crossed out, in the robbed player's row."""
    group_card: tuple[int, int] = YARD_CARD


def table_layout(view: CardGameView) -> TableLayout:
    """Place the market, the piles, the bonus cards and one row per player (yard groups fitted to the row)."""
    height = ROWS_TOP + view.n_players * ROW_H + PAD - 12
    layout = TableLayout(size=(WIDTH, height))
    top = MARKET_TOP + 30
    for k in range(5):
        x = PAD + k * (CARD_W + 12)
        layout.face_up.append((x, top, x + CARD_W, top + CARD_H))
    piles_x = PAD + 5 * (CARD_W + 12) + 30
    layout.deck = (piles_x, top, piles_x + CARD_W, top + CARD_H)
    layout.ticket_deck = (piles_x + CARD_W + 34, top, piles_x + 2 * CARD_W + 34, top + CARD_H)
    bonus_x, bonus_w, bonus_h = 840, 106, 56
    for k, city in enumerate(view.big_city_bonus):
        x = bonus_x + (k % 3) * (bonus_w + 9)
        y = top + (k // 3) * (bonus_h + 8)
        layout.bonus[city] = (x, y, x + bonus_w, y + bonus_h)
    last = _last_play(view)
    card_w, card_h = _yard_card(view)
    layout.group_card = (card_w, card_h)
    for player in view.players:
        y = ROWS_TOP + player.seat * ROW_H
        layout.rows[player.seat] = (16, y, WIDTH - 16, y + ROW_H - 12)
        x = YARD_X
        for group in player.yard:
            width = fan_width(card_w, group.cards)
            layout.groups[(player.seat, group.color)] = (x, y + 34, x + width, y + 34 + card_h)
            x += width + 18
        if last is not None and last.robbed_seat == player.seat:
            layout.robbed[player.seat] = (x + 8, y + 34, x + 8 + card_w, y + 34 + card_h)
        sx = STACK_X + 38
        layout.stacks[player.seat] = (sx, y + 34, sx + YARD_CARD[0], y + 34 + YARD_CARD[1])
    return layout


def _yard_card(view: CardGameView) -> tuple[int, int]:
    """The largest yard card size (down to 2/3) at which every player's groups fit the row."""
    for width in range(YARD_CARD[0], 38, -2):
        need = max(
            (sum(fan_width(width, g.cards) + 18 for g in p.yard) for p in view.players),
            default=0,
        )
        if YARD_X + need <= YARD_RIGHT:
            return width, round(width * YARD_CARD[1] / YARD_CARD[0])
    return 40, round(40 * YARD_CARD[1] / YARD_CARD[0])


def table_image(view: CardGameView, labels: Labels, names: Names) -> Image.Image:
    """Draw the table of a game from its public view (a seat's view draws the same, nothing private added)."""
    layout = table_layout(view)
    image = Image.new("RGB", layout.size, PANEL_BG)
    draw = ImageDraw.Draw(image)
    title, face = fitted(word(labels, "table.title"), 28, 640, bold=True)
    draw.text((PAD, 18), title, font=face, fill=PANEL_TEXT)
    status, face = fitted(_status(view, labels, names), 19, WIDTH - 2 * PAD - 260)
    draw.text((PAD, 56), status, font=face, fill=ACCENT if view.last_round else PANEL_MUTED)
    discards = word(labels, "table.discards", count=view.discard_size)
    draw.text((WIDTH - PAD, 58), discards, font=font(17), fill=PANEL_MUTED, anchor="ra")
    _market(image, draw, view, layout, labels)
    last = _last_play(view)
    for player in view.players:
        _row(image, draw, view, layout, player.seat, labels, names, last)
    return image


def render_table(view: CardGameView, labels: Labels, names: Names) -> bytes:
    """The table as PNG bytes, for the public turn messages."""
    return encode(table_image(view, labels, names))


def _status(view: CardGameView, labels: Labels, names: Names) -> str:
    """One line on the state of play."""
    if view.phase == "over":
        return word(labels, "status.over")
    if view.phase == "opening":
        return word(labels, "status.opening")
    who = player_name(names, view.current)
    key = {"second_pick": "status.second_pick", "tickets": "status.tickets"}.get(view.phase, "status.to_play")
    line = word(labels, key, player=who, turn=view.turn)
    if view.last_round and view.last_turns_left is not None:
        line = word(labels, "status.last_round", turns=view.last_turns_left) + " · " + line
    return line


def _market(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: TableLayout, labels: Labels
) -> None:
    """The five face-up cards, the train and ticket decks, the discard count, and the big-city bonuses."""
    heading = font(16, bold=True)
    dead = view.deck_size == 0 and view.phase != "over"  # ruling R-CG-11: no card is drawn once the deck is out
    key = "table.face_up_dead" if dead else "table.face_up"
    draw.text((PAD, MARKET_TOP), word(labels, key), font=heading, fill=PANEL_MUTED)
    for k, box in enumerate(layout.face_up):
        if k < len(view.face_up):
            paste_card(image, box[0], box[1], view.face_up[k], CARD_W, CARD_H)
            if dead:
                veil = Image.new("RGBA", (CARD_W + 1, CARD_H + 1), (*PANEL_BG, 170))
                image.paste(veil, (round(box[0]), round(box[1])), veil)
        else:
            dashed_slot(image, box, PANEL_MUTED)
    deck = layout.deck
    paste_pile(image, deck[0], deck[1], CARD_W, CARD_H, view.deck_size, empty_ink=PANEL_MUTED)
    deck_word = (
        word(labels, "table.deck_of", number=view.deck_number) if view.n_players == 4 else word(labels, "table.deck")
    )
    text, face = fitted(deck_word, 15, CARD_W + 30)
    draw.text(((deck[0] + deck[2]) / 2, deck[3] + 8), text, font=face, fill=PANEL_MUTED, anchor="ma")
    tickets = layout.ticket_deck
    paste_pile(image, tickets[0], tickets[1], CARD_W, CARD_H, view.ticket_deck_size, ticket=True, empty_ink=PANEL_MUTED)
    text, face = fitted(word(labels, "table.tickets"), 15, CARD_W + 30)
    draw.text(((tickets[0] + tickets[2]) / 2, tickets[3] + 8), text, font=face, fill=PANEL_MUTED, anchor="ma")
    first = next(iter(layout.bonus.values()))
    draw.text((first[0], MARKET_TOP), word(labels, "table.big_cities"), font=heading, fill=PANEL_MUTED)
    for city, box in layout.bonus.items():
        bonus_card(image, box, city, view.big_city_bonus[city], labels)


def _last_play(view: CardGameView) -> PlayView | None:
    """The play made in the turn just before this one, if the last turn was a play."""
    if not view.plays or view.phase == "over":
        return None
    last = view.plays[-1]
    return last if last.turn >= view.turn - 1 else None


def _row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: CardGameView,
    layout: TableLayout,
    seat: int,
    labels: Labels,
    names: Names,
    last: PlayView | None,
) -> None:
    """One player: badge, name and state; cards and tickets held; the Rail Yard; the Train Stack."""
    player = view.players[seat]
    box = layout.rows[seat]
    x0, y0, _x1, y1 = box
    active = seat in view.to_act and view.phase != "opening"
    color = player_color(seat)
    draw.rounded_rectangle(box, radius=12, fill=PANEL_ACTIVE if active else PANEL_CARD)
    if active:
        draw.rounded_rectangle(box, radius=12, outline=ACCENT, width=3)
    draw.rounded_rectangle((x0, y0, x0 + 8, y1), radius=3, fill=color)
    b = badge(seat, 40)
    image.paste(b, (round(x0) + 20, round(y0) + 16), b)
    name_x = x0 + 72
    name, face = fitted(player_name(names, seat), 22, YARD_X - name_x - 14, bold=True, minimum=14)
    draw.text((name_x, y0 + 16), name, font=face, fill=PANEL_TEXT)
    note, note_ink = _note(view, seat, labels)
    if note:
        text, small = fitted(note, 15, YARD_X - name_x - 10, minimum=11)
        draw.text((name_x, y0 + 48), text, font=small, fill=note_ink)
    _stats(draw, view, seat, (x0, y1 - 46), labels)
    label_face = font(14, bold=True)
    draw.text((YARD_X, y0 + 10), word(labels, "table.yard").upper(), font=label_face, fill=PANEL_MUTED)
    card_w, card_h = layout.group_card
    if not player.yard and seat not in layout.robbed:
        draw.text(
            (YARD_X, y0 + 34 + card_h / 2),
            word(labels, "table.yard_empty"),
            font=font(16),
            fill=PANEL_MUTED,
            anchor="lm",
        )
    ringed = set(last.colors) if last is not None and last.seat == seat else set()
    for group in player.yard:
        fan = layout.groups[(seat, group.color)]
        paste_group(image, fan[0], fan[1], card_w, card_h, group.color, group.cards, group.locomotives)
        if group.color in ringed:
            draw.rounded_rectangle((fan[0] - 5, fan[1] - 5, fan[2] + 5, fan[3] + 5), radius=10, outline=ACCENT, width=3)
        _group_count(image, draw, fan, group.cards, group.locomotives)
    robbed = layout.robbed.get(seat)
    if robbed is not None and last is not None:
        _robbery(image, draw, robbed, last, labels, names)
    draw.text((STACK_X, y0 + 10), word(labels, "table.stack").upper(), font=label_face, fill=PANEL_MUTED)
    stack = layout.stacks[seat]
    paste_pile(image, stack[0], stack[1], YARD_CARD[0], YARD_CARD[1], player.stack_size, empty_ink=PANEL_MUTED)


def _robbery(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, last: PlayView, labels: Labels, names: Names
) -> None:
    """The group just robbed: a crossed-out ghost of its colour, how many cards, and by whom."""
    x0, y0, x1, y1 = box
    paste_ghost(image, x0, y0, last.colors[0], round(x1 - x0), round(y1 - y0), ROBBED)
    draw.text((x0, y1 + 3), f"−{last.robbed_cards}", font=font(18, bold=True), fill=ROBBED)
    room = STACK_X - x1 - 30
    lines = [word(labels, "table.robbed"), player_name(names, last.seat)]
    for k, line in enumerate(lines):
        text, face = fitted(line, 17, room, bold=k == 1, minimum=11)
        draw.text((x1 + 14, y0 + 18 + k * 26), text, font=face, fill=ROBBED)


def _stats(draw: ImageDraw.ImageDraw, view: CardGameView, seat: int, at: tuple[float, float], labels: Labels) -> None:
    """Cards in hand and tickets held; after a 4-player first scoring, the points it gave."""
    x0, y = at
    player = view.players[seat]
    value_face, label_face = font(20, bold=True), font(13)
    draw_cards_icon(draw, (x0 + 20, y + 3, x0 + 44, y + 23), PANEL_MUTED, PANEL_CARD)
    draw.text((x0 + 50, y), str(player.hand_size), font=value_face, fill=PANEL_TEXT)
    draw.text((x0 + 50, y + 24), word(labels, "table.cards"), font=label_face, fill=PANEL_MUTED)
    tx = x0 + 112
    draw_ticket_icon(draw, (tx, y + 4, tx + 26, y + 22), PANEL_MUTED, PANEL_CARD)
    draw.text((tx + 32, y), str(player.ticket_count), font=value_face, fill=PANEL_TEXT)
    draw.text((tx + 32, y + 24), word(labels, "table.ticket_count"), font=label_face, fill=PANEL_MUTED)
    scored = {s.seat: s.points for s in view.first_scoring or []}
    if seat in scored:
        sx = x0 + 206
        draw_star_icon(draw, (sx + 9, y + 12), 20, ACCENT)
        draw.text((sx + 22, y), str(scored[seat]), font=value_face, fill=PANEL_TEXT)
        text, face = fitted(word(labels, "table.first_scoring"), 13, YARD_X - sx - 30, minimum=10)
        draw.text((sx + 22, y + 24), text, font=face, fill=PANEL_MUTED)


def _group_count(image: Image.Image, draw: ImageDraw.ImageDraw, fan: Box, cards: int, locomotives: int) -> None:
    """Under a yard group: its size, and how many locomotives joined it (a small locomotive card)."""
    x, y = fan[0], fan[3] + 3
    face = font(18, bold=True)
    draw.text((x, y), f"×{cards}", font=face, fill=PANEL_TEXT)
    if locomotives:
        lx = x + face.getlength(f"×{cards}") + 8
        paste_card(image, lx, y + 1, "locomotive", 16, 23)
        draw.text((lx + 20, y + 2), str(locomotives), font=font(15, bold=True), fill=PANEL_TEXT)


def _note(view: CardGameView, seat: int, labels: Labels) -> tuple[str, RGB]:
    """The line under a player's name: choosing opening tickets, or to play."""
    if view.phase == "opening":
        chosen = view.players[seat].chose_opening
        return (word(labels, "table.chosen"), PANEL_MUTED) if chosen else (word(labels, "table.choosing"), ACCENT)
    if seat in view.to_act:
        return "▶ " + word(labels, "table.choosing_tickets" if view.phase == "tickets" else "table.to_play"), ACCENT
    return "", PANEL_MUTED
