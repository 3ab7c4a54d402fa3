"""The table everyone sees: the face-up cards, the piles, the big-city bonuses, the last move, and each player's
Rail Yard by colour, Train Stack (face down, with its size), hand size and ticket count; a bot player's name carries
the bot mark.

Drawn from the public view only, for the size Discord shows it (about 450–550 px wide, at most about 300 high):
landscape, players two to a row, counts large. The last move is spelled out above the market, the last play's
groups are ringed in gold and a robbed group shows crossed out; a banner says when the last round has come.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.artstore import stored
from render.cardgame.pieces import (
    Box,
    back_image,
    bonus_card,
    dashed_slot,
    fan_width,
    paste_bot_mark,
    paste_ghost,
    paste_group,
    paste_pile,
    paste_rimmed,
)
from render.cardgame.words import word
from render.fonts import font
from render.ttr.encode import encode
from render.ttr.palette import (
    ACCENT,
    DARK_INK,
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
from rules.cardgame.engine import CardGameEngine
from rules.cardgame.options import CardGameOptions
from rules.cardgame.view import CardGameView, LastMoveView, PlayView

WIDTH = 1000
PAD = 16
CARD_W, CARD_H = 70, 100
PILE_GAP = 16
BONUS_W, BONUS_H = 128, 52
BANNER_H = 54
BOT_MARK = 24
"""The bot mark beside a name, as tall as the name's letters."""
PANEL_GAP = 12
PANEL_H = 160
YARD_CARD = (50, 72)
SMALLEST_YARD_CARD = 30
MINI = (22, 31)
"""The small cards of the last-move line."""
NUMBER = 22
"""Font size of every count: about 7 px tall digits when the picture shows 450 px wide."""
WORD = 15
"""The smallest font size of words (names are fitted down to it)."""
ROBBED: RGB = (255, 128, 116)
COUNTDOWN: RGB = (58, 74, 112)
"""The band counting down to the 4-player first scoring (not the end: quieter than the last round's gold)."""


@dataclass
class TableLayout:
    """Where each thing of the table picture goes (tests read it to find the cards)."""

    size: tuple[int, int]
    banner: Box | None = None
    last_move: Box = (0, 0, 0, 0)
    face_up: list[Box] = field(default_factory=list)
    deck: Box = (0, 0, 0, 0)
    ticket_deck: Box = (0, 0, 0, 0)
    bonus: dict[str, Box] = field(default_factory=dict)
    rows: dict[int, Box] = field(default_factory=dict)
    """Each player's panel, two to a row in seat order."""
    groups: dict[tuple[int, str], Box] = field(default_factory=dict)
    stacks: dict[int, Box] = field(default_factory=dict)
    robbed: dict[int, Box] = field(default_factory=dict)
    """Where a group robbed in the last turn is shown crossed out, in the robbed player's panel."""
    group_card: tuple[int, int] = YARD_CARD


def has_banner(view: CardGameView) -> bool:
    """Whether a band counts down the turns left: the last round, or (4 players) the turns to the first scoring."""
    return view.last_turns_left is not None and view.phase != "over"


def table_layout(view: CardGameView) -> TableLayout:
    """Place the banner, the status and last-move lines, the market, and the players' panels two to a row."""
    layout = TableLayout(size=(WIDTH, 0))
    top = 0
    if has_banner(view):
        layout.banner = (0, 0, WIDTH, BANNER_H)
        top = BANNER_H
    layout.last_move = (PAD, top + 52, WIDTH - PAD, top + 86)
    cards_top = top + 120
    for k in range(5):
        left = PAD + k * (CARD_W + 8)
        layout.face_up.append((left, cards_top, left + CARD_W, cards_top + CARD_H))
    piles_x = PAD + 5 * (CARD_W + 8) + 8
    layout.deck = (piles_x, cards_top, piles_x + CARD_W, cards_top + CARD_H)
    tickets_x = piles_x + CARD_W + PILE_GAP
    layout.ticket_deck = (tickets_x, cards_top, tickets_x + CARD_W, cards_top + CARD_H)
    bonus_x = WIDTH - PAD - 3 * BONUS_W - 16
    for k, city in enumerate(view.big_city_bonus):
        bx = bonus_x + (k % 3) * (BONUS_W + 8)
        by = cards_top + (k // 3) * (BONUS_H + 4)
        layout.bonus[city] = (bx, by, bx + BONUS_W, by + BONUS_H)
    panels_top = cards_top + CARD_H + 36
    panel_w = (WIDTH - 2 * PAD - PANEL_GAP) / 2
    card_w, card_h = _yard_card(view, panel_w)
    layout.group_card = (card_w, card_h)
    last = _last_play(view)
    for player in view.players:
        x0 = PAD + (player.seat % 2) * (panel_w + PANEL_GAP)
        y0 = panels_top + (player.seat // 2) * (PANEL_H + PANEL_GAP)
        layout.rows[player.seat] = (x0, y0, x0 + panel_w, y0 + PANEL_H)
        cards_y = y0 + 54
        x = x0 + 18
        for group in player.yard:
            width = fan_width(card_w, group.cards)
            layout.groups[(player.seat, group.color)] = (x, cards_y, x + width, cards_y + card_h)
            x += width + 14
        if last is not None and last.robbed_seat == player.seat:
            layout.robbed[player.seat] = (x + 4, cards_y, x + 4 + card_w, cards_y + card_h)
        sx = x0 + panel_w - 18 - YARD_CARD[0] - 12
        layout.stacks[player.seat] = (sx, cards_y, sx + YARD_CARD[0], cards_y + YARD_CARD[1])
    rows = (view.n_players + 1) // 2
    layout.size = (WIDTH, round(panels_top + rows * (PANEL_H + PANEL_GAP) - PANEL_GAP + PAD))
    return layout


def _yard_card(view: CardGameView, panel_w: float) -> tuple[int, int]:
    """The largest yard card (down to SMALLEST_YARD_CARD wide) at which every yard, and a robbed ghost, fits."""
    room = panel_w - 18 - YARD_CARD[0] - 30 - 18
    robbed = _last_play(view)
    for width in range(YARD_CARD[0], SMALLEST_YARD_CARD - 1, -2):
        need = max(
            (
                sum(fan_width(width, g.cards) + 14 for g in p.yard)
                + (width + 18 if robbed is not None and robbed.robbed_seat == p.seat else 0)
                for p in view.players
            ),
            default=0,
        )
        if need <= room:
            break
    return width, round(width * YARD_CARD[1] / YARD_CARD[0])


def table_image(view: CardGameView, labels: Labels, names: Names, bots: Collection[int] = ()) -> Image.Image:
    """Draw the table of a game from its public view (a seat's view draws the same, nothing private added); the
    names of the seats in `bots` carry the bot mark."""
    layout = table_layout(view)
    image = Image.new("RGB", layout.size, PANEL_BG)
    draw = ImageDraw.Draw(image)
    top = 0
    if layout.banner is not None:
        _banner(draw, view, layout.banner, labels)
        top = BANNER_H
    status, face = fitted(_status(view, labels, names), 26, WIDTH - 2 * PAD - 300, bold=True, minimum=WORD)
    draw.text((PAD, top + 14), status, font=face, fill=PANEL_TEXT)
    title, face = fitted(word(labels, "table.title"), 16, 290, minimum=WORD)
    draw.text((WIDTH - PAD, top + 20), title, font=face, fill=PANEL_MUTED, anchor="ra")
    _last_move(image, draw, view, layout.last_move, labels, names, bots)
    _market(image, draw, view, layout, labels)
    last = _last_play(view)
    for player in view.players:
        _panel(image, draw, view, layout, player.seat, labels, names, last, player.seat in bots)
    return image


def render_table(view: CardGameView, labels: Labels, names: Names, bots: Collection[int] = ()) -> bytes:
    """The table as PNG bytes, for the public turn messages, in the tables' fixed palette."""
    return encode(table_image(view, labels, names, bots), palette=table_palette())


@stored(maxsize=1)
def table_palette() -> Image.Image:
    """The 256 colours every table is encoded with, chosen once from sampler tables of seeded games (2 to 4
    players, from the opening to the end, with last rounds and robberies): mapping a table to them takes a third
    of the time of choosing colours for each table (bench/cardgame_render.py)."""
    engine = CardGameEngine()
    samples = []
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = engine.new_game(CardGameOptions(), players, seed)
        rng = random.Random(seed)
        moves = 0
        while not engine.is_over(state):
            seat = min(engine.to_act(state))
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, rng))
            moves += 1
            if moves % 37 == 0 or engine.is_over(state):
                samples.append(table_image(engine.view(state, None), {}, ["Ann", "Борис", "Chen", "Dmitri"]))
    sampler = Image.new("RGB", (WIDTH, sum(s.height for s in samples)))
    y = 0
    for sample in samples:
        sampler.paste(sample, (0, y))
        y += sample.height
    return sampler.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _status(view: CardGameView, labels: Labels, names: Names) -> str:
    """One line on the state of play."""
    if view.phase == "over":
        return word(labels, "status.over")
    if view.phase == "opening":
        return word(labels, "status.opening")
    key = {"second_pick": "status.second_pick", "tickets": "status.tickets"}.get(view.phase, "status.to_play")
    return word(labels, key, player=player_name(names, view.current), turn=view.turn)


def _banner(draw: ImageDraw.ImageDraw, view: CardGameView, box: Box, labels: Labels) -> None:
    """Across the top: the last round in gold, or (4 players, first deck) the turns left to the first scoring."""
    turns = view.last_turns_left or 0
    if view.last_round:
        fill, ink, text = ACCENT, DARK_INK, word(labels, "status.last_round", turns=turns)
    else:
        fill, ink, text = COUNTDOWN, ACCENT, word(labels, "status.first_scoring_soon", turns=turns)
    draw.rectangle(box, fill=fill)
    line, face = fitted(text, 32, box[2] - box[0] - 2 * PAD, bold=True, minimum=20)
    draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), line, font=face, fill=ink, anchor="mm")


def _last_move(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: CardGameView,
    box: Box,
    labels: Labels,
    names: Names,
    bots: Collection[int],
) -> None:
    """The latest move in one line: who, what (counts in words), the cards taken or played, any robbery."""
    move = view.last_move
    if move is None or view.phase == "opening":
        return
    x0, y0, x1, y1 = box
    middle = (y0 + y1) / 2
    label = word(labels, "last.label")
    face = font(17, bold=True)
    draw.text((x0, middle), label, font=face, fill=PANEL_MUTED, anchor="lm")
    x = x0 + face.getlength(label) + 12
    b = badge(move.seat, 28)
    image.paste(b, (round(x), round(middle - 14)), b)
    x += 36
    what, minis, robbery = _move_words(move, labels, names)
    bot = move.seat in bots
    name, face = fitted(player_name(names, move.seat), 22, 220 - (BOT_MARK + 6 if bot else 0), bold=True, minimum=WORD)
    draw.text((x, middle), name, font=face, fill=PANEL_TEXT, anchor="lm")
    x += face.getlength(name) + 8
    if bot:
        x = paste_bot_mark(image, x - 2, middle, BOT_MARK - 2, PANEL_TEXT) + 8
    room = x1 - x - len(minis) * (MINI[0] + 5) - (10 if minis else 0)
    if robbery:
        room -= min(room * 0.5, font(20, bold=True).getlength(robbery) + 12)
    text, face = fitted(what, 20, room, minimum=WORD)
    draw.text((x, middle), text, font=face, fill=PANEL_TEXT, anchor="lm")
    x += face.getlength(text) + 10
    for kind in minis:
        if kind == "back":
            back = back_image(*MINI)
            image.paste(back, (round(x), round(middle - MINI[1] / 2)), back)
        else:
            paste_rimmed(image, x, middle - MINI[1] / 2, kind, *MINI)
        x += MINI[0] + 5
    if robbery:
        text, face = fitted(robbery, 20, x1 - x - 6, bold=True, minimum=WORD)
        draw.text((x + 6, middle), text, font=face, fill=ROBBED, anchor="lm")


def _move_words(move: LastMoveView, labels: Labels, names: Names) -> tuple[str, list[str], str]:
    """A move as words (counts passed on, so the template picks the plural), its small cards, and any robbery."""
    if move.kind == "draw":
        count = len(move.face_up) + move.blind
        return word(labels, "last.drew", count=count), [*move.face_up, *["back"] * move.blind], ""
    if move.kind == "play" and move.play is not None:
        play = move.play
        minis = [*play.colors, *(["locomotive"] if play.locomotives else [])]
        what = word(labels, "last.played", count=play.cards + play.locomotives)
        robbery = ""
        if play.robbed_seat is not None:
            victim = player_name(names, play.robbed_seat)
            robbery = word(labels, "last.robbed", victim=victim, count=play.robbed_cards)
        return what, minis, robbery
    if move.kind == "tickets":
        if move.tickets_kept is None:
            return word(labels, "last.choosing", drawn=move.tickets_drawn), [], ""
        return word(labels, "last.kept", drawn=move.tickets_drawn, kept=move.tickets_kept), [], ""
    return word(labels, "last.passed"), [], ""


def _market(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: CardGameView, layout: TableLayout, labels: Labels
) -> None:
    """The five face-up cards, the train and ticket decks, the discard count, and the big-city bonuses."""
    heading = font(17, bold=True)
    first = layout.face_up[0]
    label_y = first[1] - 26
    dead = view.deck_size == 0 and view.phase != "over"  # ruling R-CG-11: no card is drawn once the deck is out
    key = "table.face_up_dead" if dead else "table.face_up"
    text, face = fitted(word(labels, key), 17, layout.ticket_deck[2] - PAD, bold=True, minimum=WORD)
    draw.text((PAD, label_y), text, font=face, fill=ACCENT if dead else PANEL_MUTED)
    for k, box in enumerate(layout.face_up):
        if k < len(view.face_up):
            paste_rimmed(image, box[0], box[1], view.face_up[k], CARD_W, CARD_H)
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
    _under(draw, deck, deck_word)
    tickets = layout.ticket_deck
    paste_pile(image, tickets[0], tickets[1], CARD_W, CARD_H, view.ticket_deck_size, ticket=True, empty_ink=PANEL_MUTED)
    _under(draw, tickets, word(labels, "table.tickets"))
    bonus = next(iter(layout.bonus.values()))
    draw.text((bonus[0], label_y), word(labels, "table.big_cities"), font=heading, fill=PANEL_MUTED)
    for city, box in layout.bonus.items():
        bonus_card(image, box, city, view.big_city_bonus[city], labels)
    last_bonus = list(layout.bonus.values())[-1]
    discards = word(labels, "table.discards", count=view.discard_size)
    text, face = fitted(discards, 17, last_bonus[2] - bonus[0], minimum=WORD)
    draw.text((last_bonus[2], last_bonus[3] + 6), text, font=face, fill=PANEL_MUTED, anchor="ra")


def _under(draw: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    """A pile's name under it."""
    line, face = fitted(text, 17, box[2] - box[0] + PILE_GAP - 2, minimum=WORD)
    draw.text(((box[0] + box[2]) / 2, box[3] + 5), line, font=face, fill=PANEL_MUTED, anchor="ma")


def _last_play(view: CardGameView) -> PlayView | None:
    """The play made in the turn just before this one, if the last turn was a play."""
    if not view.plays or view.phase == "over":
        return None
    last = view.plays[-1]
    return last if last.turn >= view.turn - 1 else None


def _panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: CardGameView,
    layout: TableLayout,
    seat: int,
    labels: Labels,
    names: Names,
    last: PlayView | None,
    bot: bool,
) -> None:
    """One player: badge, name (and the bot mark), cards and tickets held; the Rail Yard; the Train Stack."""
    player = view.players[seat]
    box = layout.rows[seat]
    x0, y0, x1, y1 = box
    active = seat in view.to_act and view.phase != "opening"
    draw.rounded_rectangle(box, radius=12, fill=PANEL_ACTIVE if active else PANEL_CARD)
    if active:
        draw.rounded_rectangle(box, radius=12, outline=ACCENT, width=4)
    draw.rounded_rectangle((x0, y0, x0 + 8, y1), radius=3, fill=player_color(seat))
    b = badge(seat, 36)
    image.paste(b, (round(x0) + 16, round(y0) + 9), b)
    stats_left = _stats(draw, view, seat, x1 - 16, y0 + 27)
    name_x = x0 + 60
    room = stats_left - name_x - 12 - (BOT_MARK + 8 if bot else 0)
    name, face = fitted(player_name(names, seat), 24, room, bold=True, minimum=WORD)
    ink = ACCENT if active else PANEL_TEXT
    draw.text((name_x, y0 + 27), name, font=face, fill=ink, anchor="lm")
    if bot:
        paste_bot_mark(image, name_x + face.getlength(name) + 8, y0 + 27, BOT_MARK, ink)
    card_w, card_h = layout.group_card
    cards_y = y0 + 54
    note = _note(view, seat, labels)
    if note is not None:
        text, ink = note
        line, face = fitted(text, 20, layout.stacks[seat][0] - x0 - 40, bold=True, minimum=WORD)
        draw.text((x0 + 18, cards_y + card_h / 2), line, font=face, fill=ink, anchor="lm")
    elif not player.yard and seat not in layout.robbed:
        line, face = fitted(word(labels, "table.yard_empty"), 18, layout.stacks[seat][0] - x0 - 40, minimum=WORD)
        draw.text((x0 + 18, cards_y + card_h / 2), line, font=face, fill=PANEL_MUTED, anchor="lm")
    ringed = set(last.colors) if last is not None and last.seat == seat else set()
    for group in player.yard:
        fan = layout.groups[(seat, group.color)]
        paste_group(image, fan[0], fan[1], card_w, card_h, group.color, group.cards, group.locomotives)
        if group.color in ringed:
            draw.rounded_rectangle((fan[0] - 5, fan[1] - 5, fan[2] + 5, fan[3] + 5), radius=9, outline=ACCENT, width=4)
        _group_count(image, draw, fan, group.cards, group.locomotives)
    robbed = layout.robbed.get(seat)
    if robbed is not None and last is not None:
        paste_ghost(image, robbed[0], robbed[1], last.colors[0], card_w, card_h, ROBBED)
        draw.text((robbed[0], robbed[3] + 2), f"−{last.robbed_cards}", font=font(NUMBER, bold=True), fill=ROBBED)
    stack = layout.stacks[seat]
    paste_pile(image, stack[0], stack[1], YARD_CARD[0], YARD_CARD[1], player.stack_size, empty_ink=PANEL_MUTED)
    label, face = fitted(word(labels, "table.stack"), 16, x1 - stack[0] + 4, minimum=WORD)
    draw.text(((stack[0] + stack[2]) / 2, stack[3] + 4), label, font=face, fill=PANEL_MUTED, anchor="ma")


def _stats(draw: ImageDraw.ImageDraw, view: CardGameView, seat: int, right: float, middle: float) -> float:
    """Right-aligned on the name's line: cards in hand, tickets held, and the first scoring's points if any.

    Returns where they begin.
    """
    player = view.players[seat]
    face = font(NUMBER + 2, bold=True)
    x = right
    scored = {s.seat: s.points for s in view.first_scoring or []}
    items: list[tuple[str, str]] = [("tickets", str(player.ticket_count)), ("cards", str(player.hand_size))]
    if seat in scored:
        items.insert(0, ("star", str(scored[seat])))
    for icon, value in items:
        draw.text((x, middle), value, font=face, fill=PANEL_TEXT, anchor="rm")
        x -= face.getlength(value) + 6
        if icon == "cards":
            draw_cards_icon(draw, (x - 28, middle - 12, x, middle + 12), PANEL_MUTED, PANEL_CARD)
        elif icon == "tickets":
            draw_ticket_icon(draw, (x - 30, middle - 11, x, middle + 11), PANEL_MUTED, PANEL_CARD)
        else:
            draw_star_icon(draw, (x - 12, middle), 24, ACCENT)
        x -= 30 + 16
    return x + 16


def _group_count(image: Image.Image, draw: ImageDraw.ImageDraw, fan: Box, cards: int, locomotives: int) -> None:
    """Under a yard group: its size, and how many locomotives joined it (a small locomotive card)."""
    x, y = fan[0], fan[3] + 2
    face = font(NUMBER, bold=True)
    draw.text((x, y), f"×{cards}", font=face, fill=PANEL_TEXT)
    if locomotives:
        lx = x + face.getlength(f"×{cards}") + 6
        paste_rimmed(image, lx, y + 2, "locomotive", 16, 23)
        draw.text((lx + 19, y), str(locomotives), font=face, fill=PANEL_TEXT)


def _note(view: CardGameView, seat: int, labels: Labels) -> tuple[str, RGB] | None:
    """At the opening, in place of the yard: whether this player is still choosing tickets."""
    if view.phase != "opening":
        return None
    if view.players[seat].chose_opening:
        return word(labels, "table.chosen"), PANEL_MUTED
    return word(labels, "table.choosing"), ACCENT
