"""The card game's pictures: sizes that fit the chat, text large enough at 450 px, a symbol and an outline on every
card, nothing private on the table, the words asked for (counts passed for plural forms), and what each picture
must show (last move, robbery, the last round, the ticket choice, completed tickets, the scorings)."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n import text
from render.cardgame import (
    detail_image,
    hand_image,
    render_hand,
    render_scoring,
    render_scoring_detail,
    render_table,
    scoring_image,
    table_image,
)
from render.cardgame.hand import WIDTH as HAND_WIDTH
from render.cardgame.hand import covered_by_stack, hand_layout
from render.cardgame.pieces import CARD_RIM, Box
from render.cardgame.table import COUNTDOWN, ROBBED, table_layout
from render.ttr.palette import (
    ACCENT,
    BAD,
    CARD_FILL,
    DARK_INK,
    GOOD,
    LOCOMOTIVE_STRIPES,
    PANEL_ACTIVE,
    PANEL_BG,
    PANEL_CARD,
    RGB,
    ink_on,
)
from rules.cardgame import CardGameOptions, CardGameState
from rules.cardgame.cards import KIND_NAMES
from rules.cardgame.scoring import score_stack
from rules.cardgame.view import CardGameView, PlayView, YardGroupView
from tests.render.cardgame.conftest import ENGINE, NAMES, play, seat_view, words

EN = partial(text, "en")
RU = partial(text, "ru")
CHAT_WIDTH = 450
"""The narrowest width Discord shows a picture at in the chat (a phone shows less, opened full screen)."""
CAP_HEIGHT = 0.729
"""DejaVu Sans: the height of capitals and digits, as a share of the font size."""
NUMBER = re.compile(r"^[×+−-]?\d+$")


def near(pixel: object, colour: RGB, tolerance: int = 24) -> bool:
    """Whether an RGB pixel is within `tolerance` of `colour` on every channel."""
    assert isinstance(pixel, tuple)
    return max(abs(x - y) for x, y in zip(pixel[:3], colour, strict=True)) <= tolerance


def luma(pixel: object) -> float:
    """Brightness of an RGB pixel (0–255)."""
    assert isinstance(pixel, tuple)
    r, g, b = pixel[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_mask(image: Image.Image, box: Box, kind: str) -> list[bool]:
    """Which pixels of a card's middle (its symbol's place) are in the ink its colour carries."""
    ink = DARK_INK if kind == "locomotive" else ink_on(CARD_FILL[kind])
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = x1 - x0, y1 - y0
    return [
        near(image.getpixel((x, y)), ink, 40)
        for y in range(y0 + h // 4, y1 - h // 4)
        for x in range(x0 + w // 6, x1 - w // 6)
    ]


def assert_every_card_carries_its_symbol(image: Image.Image, boxes: dict[str, Box]) -> None:
    """Each card shows its fill (or the locomotive's stripes) and a symbol in ink; no two symbols alike."""
    masks = {}
    for kind, box in boxes.items():
        x0, y0, x1, y1 = box
        edge = image.getpixel((round(x0 + (x1 - x0) * 0.2), round(y0 + (y1 - y0) * 0.12)))
        expected = list(LOCOMOTIVE_STRIPES) if kind == "locomotive" else [CARD_FILL[kind]]
        assert any(near(edge, c, 30) for c in expected), (kind, edge)
        mask = ink_mask(image, box, kind)
        assert sum(mask) > len(mask) * 0.05, f"{kind}: no symbol drawn"
        masks[kind] = mask
    kinds = sorted(masks)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            same = sum(x == y for x, y in zip(masks[a], masks[b], strict=True))
            assert same < len(masks[a]) * 0.95, f"{a} and {b} carry the same shape"


@contextmanager
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Record every text drawn (its words and font size) while the block runs."""
    seen: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        face = kwargs.get("font")
        seen.append((text, int(getattr(face, "size", 10))))
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", recording)
        yield seen


def assert_readable_at_chat_width(seen: list[tuple[str, int]], width: int, words_px: float) -> None:
    """Shown `CHAT_WIDTH` px wide: every count's digits at least 7 px tall, every word at least `words_px`."""
    scale = CHAT_WIDTH / width
    assert seen, "no text drawn"
    for shown, size in seen:
        if NUMBER.match(shown):
            assert size * scale * CAP_HEIGHT >= 7, f"{shown!r} at {size} px is {size * scale * CAP_HEIGHT:.1f} px tall"
        elif shown.strip():
            assert size * scale >= words_px, f"{shown!r} at {size} px is {size * scale:.1f} px"


def with_face_up(view: CardGameView, face_up: list[str]) -> CardGameView:
    return view.model_copy(update={"face_up": face_up})


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


class Recorder:
    """Labels that answer in English and remember each key asked with its parameters."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, object]]] = []

    def __call__(self, key: str, **params: object) -> str:
        self.asked.append((key, params))
        return text("en", key, **params)

    def params(self, key: str) -> list[dict[str, object]]:
        return [p for k, p in self.asked if k == key]

    def asked_keys(self) -> set[str]:
        return {k for k, _ in self.asked}


# Cards: symbols, outlines.


def test_every_face_up_card_shows_its_colour_and_a_symbol_of_its_own(robbery: CardGameState) -> None:
    public = ENGINE.view(robbery, None)
    for part in (list(KIND_NAMES[:5]), list(KIND_NAMES[4:])):
        view = with_face_up(public, part)
        image = table_image(view, EN, NAMES)
        boxes = dict(zip(part, table_layout(view).face_up, strict=True))
        assert_every_card_carries_its_symbol(image, boxes)


def test_a_black_card_is_outlined_in_a_colour_that_stands_out_from_the_panel(robbery: CardGameState) -> None:
    public = ENGINE.view(robbery, None)
    players = list(public.players)
    players[1] = players[1].model_copy(update={"yard": [YardGroupView(color="black", cards=2, locomotives=0)]})
    view = public.model_copy(update={"face_up": ["black", "white", "red", "black", "blue"], "players": players})
    image = table_image(view, EN, NAMES)
    layout = table_layout(view)
    black = [layout.face_up[0], layout.face_up[3], layout.groups[(1, "black")]]
    for x0, y0, x1, y1 in black:
        middle = round((y0 + y1) / 2)
        outside = image.getpixel((round(x0) - 2, middle))
        assert any(near(outside, c, 6) for c in (PANEL_BG, PANEL_CARD, PANEL_ACTIVE)), "the panel around the card"
        edge = [image.getpixel((round(x0) + dx, middle)) for dx in (1, 2)]
        assert any(near(p, CARD_RIM, 40) and luma(p) - luma(outside) > 100 for p in edge), f"{edge} vs {outside}"
        assert near(image.getpixel((round(x0 + (x1 - x0) * 0.25), middle)), CARD_FILL["black"], 30)


def test_a_hand_shows_each_kind_held_with_its_symbol(two_middle: CardGameState) -> None:
    view = seat_view(two_middle, 0).model_copy(update={"hand": dict.fromkeys(KIND_NAMES, 2)})
    image = hand_image(view, EN, NAMES)
    layout = hand_layout(view)
    assert list(layout.cards) == list(KIND_NAMES)
    assert_every_card_carries_its_symbol(image, layout.cards)


def test_yard_groups_show_their_colour_in_front_and_locomotives_behind(robbery: CardGameState) -> None:
    public = ENGINE.view(robbery, None)
    players = list(public.players)
    yard = [YardGroupView(color="red", cards=3, locomotives=1), YardGroupView(color="blue", cards=2, locomotives=0)]
    players[0] = players[0].model_copy(update={"yard": yard})
    view = public.model_copy(update={"players": players, "plays": []})
    image = table_image(view, EN, NAMES)
    layout = table_layout(view)
    card_w, card_h = layout.group_card
    for group in yard:
        x0, y0, x1, y1 = layout.groups[(0, group.color)]
        front = (x1 - card_w, y0, x1, y1)
        assert_every_card_carries_its_symbol(image, {group.color: front})
    x0, y0, _, _ = layout.groups[(0, "red")]
    stripe = image.getpixel((round(x0 + 7), round(y0 + card_h * 0.3)))
    assert any(near(stripe, c, 30) for c in LOCOMOTIVE_STRIPES), "the locomotive shows behind the red card"


# The table: what happened, the last round, sizes.


def test_a_robbery_is_shown_crossed_out_in_the_robbed_players_panel(robbery: CardGameState) -> None:
    view = ENGINE.view(robbery, None)
    last: PlayView = view.plays[-1]
    assert last.robbed_seat is not None
    layout = table_layout(view)
    assert list(layout.robbed) == [last.robbed_seat]
    image = table_image(view, EN, NAMES)
    x0, y0, x1, y1 = layout.robbed[last.robbed_seat]
    cross = [image.getpixel((round(x0 + (x1 - x0) * f), round(y0 + (y1 - y0) * f))) for f in (0.3, 0.7)]
    assert all(near(p, ROBBED, 40) for p in cross)
    later = view.model_copy(update={"turn": view.turn + 2})
    assert table_layout(later).robbed == {}, "only the last turn's robbery is shown"


def test_a_bot_players_name_carries_the_bot_mark_in_its_panel_and_the_last_move(robbery: CardGameState) -> None:
    view = ENGINE.view(robbery, None)
    assert view.last_move is not None
    mover = view.last_move.seat
    other = next(p.seat for p in view.players if p.seat != mover)
    layout = table_layout(view)
    people = table_image(view, EN, NAMES).convert("L")
    for seat in (mover, other):
        marked = table_image(view, EN, NAMES, bots={seat}).convert("L")
        changed = ImageChops.difference(people, marked).point(lambda v: 255 if v > 40 else 0)
        x0, y0, x1, _y1 = layout.rows[seat]
        in_panel = changed.crop((round(x0), round(y0), round(x1), round(y0) + 54)).getbbox()
        assert in_panel is not None, f"seat {seat}: the mark beside the name in its panel"
        in_last_move = changed.crop(tuple(round(v) for v in layout.last_move)).getbbox()  # type: ignore[arg-type]
        assert (in_last_move is not None) == (seat == mover), "and beside the mover's name in the last move"


def test_the_last_move_is_told_with_its_counts_and_its_robbery(robbery: CardGameState) -> None:
    view = ENGINE.view(robbery, None)
    assert view.last_move is not None and view.last_move.play is not None
    play_ = view.last_move.play
    words_ = Recorder()
    table_image(view, words_, NAMES)
    assert words_.params("cardgame_picture.last.played") == [{"count": play_.cards + play_.locomotives}]
    assert play_.robbed_seat is not None
    robbed = {"victim": NAMES[play_.robbed_seat], "count": play_.robbed_cards}
    assert words_.params("cardgame_picture.last.robbed") == [robbed]


def test_the_last_move_counts_cards_drawn_and_tickets_kept_never_naming_them(two_middle: CardGameState) -> None:
    state = two_middle
    seat = state.current
    state, _ = ENGINE.apply(state, seat, ENGINE.parse_action("draw:deck"))
    state, _ = ENGINE.apply(state, seat, ENGINE.parse_action("draw:deck"))
    words_ = Recorder()
    table_image(ENGINE.view(state, None), words_, NAMES)
    assert words_.params("cardgame_picture.last.drew") == [{"count": 2}]
    seat = state.current
    state, _ = ENGINE.apply(state, seat, ENGINE.parse_action("tickets"))
    offered = state.players[seat].offered
    kept = [ENGINE.apply(state, seat, ENGINE.parse_action(f"keep:{t}"))[0] for t in offered[:2]]
    words_ = Recorder()
    table_image(ENGINE.view(kept[0], None), words_, NAMES)
    assert words_.params("cardgame_picture.last.kept") == [{"drawn": len(offered), "kept": 1}]
    one, other = (render_table(ENGINE.view(k, None), EN, NAMES) for k in kept)
    assert one == other, "which ticket was kept shows nowhere on the table"


def test_the_last_round_banner_is_gold_and_only_in_the_true_last_round(
    last_round: CardGameState, countdown: CardGameState, robbery: CardGameState
) -> None:
    final = ENGINE.view(last_round, None)
    assert final.last_round and final.last_turns_left is not None
    words_ = Recorder()
    image = table_image(final, words_, NAMES)
    banner = table_layout(final).banner
    assert banner is not None and banner[3] - banner[1] >= 50, "a band across the top, not a line of text"
    assert near(image.getpixel((8, 8)), ACCENT, 4)
    assert words_.params("cardgame_picture.status.last_round") == [{"turns": final.last_turns_left}]
    before_first = ENGINE.view(countdown, None)
    assert not before_first.last_round and before_first.last_turns_left is not None
    words_ = Recorder()
    image = table_image(before_first, words_, NAMES)
    assert "cardgame_picture.status.last_round" not in words_.asked_keys()
    assert words_.params("cardgame_picture.status.first_scoring_soon") == [{"turns": before_first.last_turns_left}]
    assert near(image.getpixel((8, 8)), COUNTDOWN, 4)
    assert table_layout(ENGINE.view(robbery, None)).banner is None


@pytest.mark.parametrize(
    ("language", "turns", "expected"),
    [
        ("en", 1, "Last round · 1 turn left"),
        ("en", 3, "Last round · 3 turns left"),
        ("ru", 1, "Последний раунд · остался 1 ход"),
        ("ru", 3, "Последний раунд · осталось 3 хода"),
        ("ru", 5, "Последний раунд · осталось 5 ходов"),
    ],
)
def test_the_turns_left_take_the_plural_form_of_the_language(language: str, turns: int, expected: str) -> None:
    assert text(language, "cardgame_picture.status.last_round", turns=turns) == expected


def test_the_table_holds_nothing_private(robbery: CardGameState) -> None:
    public = render_table(ENGINE.view(robbery, None), EN, NAMES)
    for seat in range(robbery.n_players):
        assert render_table(seat_view(robbery, seat), EN, NAMES) == public


def test_the_same_view_gives_the_same_bytes(four_end: CardGameState, second_deck: CardGameState) -> None:
    public = ENGINE.view(four_end, None)
    assert render_table(public, EN, NAMES) == render_table(public, EN, NAMES)
    assert render_scoring(public, EN, NAMES) == render_scoring(public, EN, NAMES)
    assert render_scoring_detail(public, EN, NAMES) == render_scoring_detail(public, EN, NAMES)
    mine = seat_view(second_deck, 1)
    assert render_hand(mine, EN, NAMES) == render_hand(mine, EN, NAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_is_landscape_and_fits_the_chat_frame_at_450_px(players: int) -> None:
    state = play(players, 20 + players, lambda s, m: m > 25 and s.phase == "turn")
    png = render_table(ENGINE.view(state, None), EN, NAMES)
    image = picture(png)
    assert png.startswith(b"\x89PNG") and image.width == 1000
    assert image.height * CHAT_WIDTH / image.width <= 300, "Discord would shrink it below 450 px wide"
    assert len(png) < 120_000


def test_the_last_round_table_still_fits_the_chat_frame(countdown: CardGameState) -> None:
    image = table_image(ENGINE.view(countdown, None), EN, NAMES)
    assert image.height * CHAT_WIDTH / image.width <= 300


def test_the_tables_words_and_counts_are_readable_at_450_px(
    monkeypatch: pytest.MonkeyPatch, robbery: CardGameState, countdown: CardGameState, opening: CardGameState
) -> None:
    for state in (robbery, countdown, opening):
        for labels in (EN, RU):
            view = ENGINE.view(state, None)
            with drawn_text(monkeypatch) as seen:
                image = table_image(view, labels, NAMES)
            assert_readable_at_chat_width(seen, image.width, 6.7)


# The hand and the ticket choice.


def test_the_ticket_choice_is_one_ticket_per_line_in_large_text(
    monkeypatch: pytest.MonkeyPatch, opening: CardGameState
) -> None:
    choosing = next(s for s in range(opening.n_players) if not opening.players[s].chose_opening)
    view = seat_view(opening, choosing)
    layout = hand_layout(view)
    boxes = [layout.offered[t.id] for t in view.offered or []]
    assert len(boxes) == 6 and layout.tickets_top is None
    assert all(b[0] == boxes[0][0] and b[2] - b[0] > HAND_WIDTH * 0.6 for b in boxes), "each across the right column"
    assert all(a[3] < b[1] for a, b in itertools.pairwise(boxes)), "stacked top to bottom"
    assert max(box[2] for box in layout.cards.values()) < boxes[0][0], "the cards held beside the choice, on the left"
    with drawn_text(monkeypatch) as seen:
        image = hand_image(view, RU, NAMES)
    assert_readable_at_chat_width(seen, image.width, 9.5)
    routes = [size for shown, size in seen if "–" in shown]
    assert len(routes) == 6 and min(routes) * CHAT_WIDTH / image.width >= 14, "the cities read large"


def test_a_private_hand_is_no_taller_than_wide(
    opening: CardGameState,
    robbery: CardGameState,
    second_deck: CardGameState,
    last_round: CardGameState,
    beginners: CardGameState,
    two_middle: CardGameState,
) -> None:
    drawing = play(2, 10, lambda s, m: s.phase == "tickets" and len(s.players[s.current].tickets) >= 11)
    for state in (opening, robbery, second_deck, last_round, beginners, two_middle, drawing):
        for seat in range(state.n_players):
            width, height = hand_image(seat_view(state, seat), RU, NAMES).size
            assert height <= width, (state.phase, seat, width, height)
    beside_a_choice = hand_layout(seat_view(drawing, drawing.current))
    assert beside_a_choice.listed and beside_a_choice.columns == 2, "many tickets held, listed in two columns"


def full_yard(view: CardGameView) -> CardGameView:
    """The same hand with three groups in its own Rail Yard, and cards of two of those colours in hand."""
    assert view.seat is not None
    yard = [
        YardGroupView(color="red", cards=3, locomotives=1),
        YardGroupView(color="blue", cards=1, locomotives=0),
        YardGroupView(color="black", cards=5, locomotives=2),
    ]
    players = list(view.players)
    players[view.seat] = players[view.seat].model_copy(update={"yard": yard})
    return view.model_copy(update={"players": players, "hand": {"red": 2, "blue": 1, "green": 2, "locomotive": 1}})


def test_the_hand_shows_its_own_rail_yard_what_robs_it_and_the_colours_it_bars(two_middle: CardGameState) -> None:
    view = full_yard(seat_view(two_middle, 0))
    words_ = Recorder()
    image = hand_image(view, words_, NAMES)
    layout = hand_layout(view)
    assert list(layout.yard) == ["red", "blue", "black"]
    assert all(box[1] > layout.yard_top and box[2] < HAND_WIDTH / 3 for box in layout.yard.values()), "left column"
    assert [p["count"] for p in words_.params("cardgame_picture.hand.yard_robbed_by")] == [4, 2, 6], "one more card"
    assert "cardgame_picture.hand.yard_blocks" in words_.asked_keys()
    for kind, (_x0, y0, x1, _y1) in layout.cards.items():
        corner = image.getpixel((round(x1) - 2, round(y0) + 10))
        assert near(corner, BAD, 30) == (kind in ("red", "blue")), f"{kind}: barred by the yard"
    empty = seat_view(two_middle, 0).model_copy(
        update={"players": [p.model_copy(update={"yard": []}) for p in view.players]}
    )
    words_ = Recorder()
    hand_image(empty, words_, NAMES)
    assert hand_layout(empty).yard == {} and "cardgame_picture.hand.yard_empty" in words_.asked_keys()


def test_a_hand_after_the_first_scoring_lists_the_tickets_it_completed(second_deck: CardGameState) -> None:
    first = second_deck.first_scoring
    assert first is not None
    for seat in range(second_deck.n_players):
        layout = hand_layout(seat_view(second_deck, seat))
        assert sorted(layout.scored) == sorted(s.ticket for s in first[seat].completed)
        assert not set(layout.scored) & set(layout.tickets)


def test_the_beginners_hand_marks_the_tickets_its_stack_already_covers(beginners: CardGameState) -> None:
    seat = next(s for s in range(beginners.n_players) if covered_by_stack(seat_view(beginners, s)))
    view = seat_view(beginners, seat)
    player = beginners.players[seat]
    expected = {s.ticket for s in score_stack(seat, player.stack, player.tickets).completed}
    assert covered_by_stack(view) == expected
    image = hand_image(view, EN, NAMES)
    layout = hand_layout(view)
    for ticket, (x0, y0, _x1, y1) in layout.tickets.items():
        edge = image.getpixel((round(x0) + 1, round((y0 + y1) / 2)))
        assert near(edge, GOOD, 30) == (ticket in expected), ticket
    assert covered_by_stack(seat_view(play(3, 7, lambda s, m: m > 50 and s.phase == "turn"), seat)) == set()


def test_the_hand_shows_the_stack_only_in_the_beginners_variant(two_middle: CardGameState) -> None:
    assert hand_layout(seat_view(two_middle, 0)).stack_top is None
    beginners = play(2, 4, lambda s, m: m > 30 and s.phase == "turn", CardGameOptions(stack_visible_to_owner=True))
    view = seat_view(beginners, 0)
    assert view.stack is not None and hand_layout(view).stack_top is not None


def test_offered_tickets_get_a_line_each_and_the_opening_shows_no_empty_held_list(opening: CardGameState) -> None:
    chosen = next(s for s in range(opening.n_players) if opening.players[s].chose_opening)
    layout = hand_layout(seat_view(opening, chosen))
    assert layout.offered == {} and len(layout.tickets) == len(opening.players[chosen].tickets)


def test_a_public_view_has_no_hand_to_draw(robbery: CardGameState) -> None:
    with pytest.raises(ValueError):
        hand_image(ENGINE.view(robbery, None), EN, NAMES)


# The scorings.


def test_scorings_need_a_scoring(robbery: CardGameState, second_deck: CardGameState) -> None:
    for draw in (scoring_image, detail_image):
        with pytest.raises(ValueError):
            draw(ENGINE.view(robbery, None), EN, NAMES, "first")
        with pytest.raises(ValueError):
            draw(ENGINE.view(second_deck, None), EN, NAMES, "final")


def test_the_summary_is_wide_enough_to_read_in_the_chat_and_the_detail_holds_the_rest(
    monkeypatch: pytest.MonkeyPatch, second_deck: CardGameState, four_end: CardGameState
) -> None:
    for state, stage in ((second_deck, "first"), (four_end, "final")):
        view = ENGINE.view(state, None)
        with drawn_text(monkeypatch) as seen:
            summary = scoring_image(view, RU, NAMES, stage)  # type: ignore[arg-type]
        assert summary.height * CHAT_WIDTH / summary.width <= 300, "shown 450 px wide, not shrunk by its height"
        assert_readable_at_chat_width(seen, summary.width, 7)
        detail = detail_image(view, EN, NAMES, stage)  # type: ignore[arg-type]
        assert detail.height > summary.height


def test_the_summary_ranks_players_with_each_part_of_their_score(
    monkeypatch: pytest.MonkeyPatch, four_end: CardGameState
) -> None:
    view = ENGINE.view(four_end, None)
    assert view.final is not None
    with drawn_text(monkeypatch) as seen:
        scoring_image(view, EN, NAMES, "final")
    drawn = [shown for shown, _ in seen]
    totals = [str(p.total) for p in view.final.result.players]
    assert [t for t in drawn if t in totals][: len(totals)] == totals, "totals from first to last"
    won = sum(t.points for t in view.final.scoring[0].tickets if t.completed)
    assert f"+{won}" in drawn
    drawn_words = " ".join(drawn).split()
    for column in ("col_won", "col_lost", "col_first", "col_bonus", "total"):
        assert set(text("en", f"cardgame_picture.score.{column}").split()) <= set(drawn_words), column


def test_every_word_the_pictures_ask_for_exists_in_english_and_russian(
    opening: CardGameState,
    robbery: CardGameState,
    second_deck: CardGameState,
    four_end: CardGameState,
    countdown: CardGameState,
    last_round: CardGameState,
    beginners: CardGameState,
) -> None:
    words_ = Recorder()
    for state in (opening, robbery, second_deck, four_end, countdown, last_round, beginners):
        render_table(ENGINE.view(state, None), words_, NAMES)
        for seat in range(state.n_players):
            render_hand(seat_view(state, seat), words_, NAMES)
    drawing = play(3, 6, lambda s, m: m > 20 and s.phase == "tickets")
    render_hand(seat_view(drawing, drawing.current), words_, NAMES)
    for draw in (render_scoring, render_scoring_detail):
        draw(ENGINE.view(second_deck, None), words_, NAMES, "first")
        draw(ENGINE.view(four_end, None), words_, NAMES, "final")
    ours = {k for k in words_.asked_keys() if k.startswith("cardgame_picture.")}
    assert len(ours) > 40
    assert sorted(ours - set(words("en", "cardgame_picture"))) == []
    assert sorted(ours - set(words("ru", "cardgame_picture"))) == []
    others = words_.asked_keys() - ours
    assert others and all(k.startswith(("cardgame.city.", "cardgame.color.")) for k in others)
    for key, params in words_.asked:
        for language in ("en", "ru"):
            assert "{" not in text(language, key, **params), (language, key, params)
