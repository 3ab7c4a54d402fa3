"""The card game's pictures: sizes, determinism, a symbol on every card for colour-blind players, nothing private
on the table, the words asked for, and what each picture must show (robbery, stack, scorings)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.cardgame import (
    hand_image,
    render_hand,
    render_scoring,
    render_table,
    scoring_image,
    table_image,
)
from render.cardgame.hand import hand_layout
from render.cardgame.pieces import Box
from render.cardgame.table import ROBBED, table_layout
from render.ttr.palette import CARD_FILL, DARK_INK, LOCOMOTIVE_STRIPES, RGB, ink_on
from rules.cardgame import CardGameOptions, CardGameState
from rules.cardgame.cards import KIND_NAMES
from rules.cardgame.view import CardGameView, PlayView, YardGroupView
from tests.render.cardgame.conftest import ENGINE, NAMES, play, seat_view, words

EN = words("en", "cardgame", "cardgame_picture")


def near(pixel: object, colour: RGB, tolerance: int = 24) -> bool:
    """Whether an RGB pixel is within `tolerance` of `colour` on every channel."""
    assert isinstance(pixel, tuple)
    return max(abs(x - y) for x, y in zip(pixel[:3], colour, strict=True)) <= tolerance


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


def with_face_up(view: CardGameView, face_up: list[str]) -> CardGameView:
    return view.model_copy(update={"face_up": face_up})


def test_every_face_up_card_shows_its_colour_and_a_symbol_of_its_own(robbery: CardGameState) -> None:
    public = ENGINE.view(robbery, None)
    for part in (list(KIND_NAMES[:5]), list(KIND_NAMES[4:])):
        view = with_face_up(public, part)
        image = table_image(view, EN, NAMES)
        boxes = dict(zip(part, table_layout(view).face_up, strict=True))
        assert_every_card_carries_its_symbol(image, boxes)


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
    stripe = image.getpixel((round(x0 + 4), round(y0 + card_h * 0.3)))
    assert any(near(stripe, c, 30) for c in LOCOMOTIVE_STRIPES), "the locomotive shows behind the red card"


def test_a_robbery_is_shown_crossed_out_in_the_robbed_players_row(robbery: CardGameState) -> None:
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


def test_the_table_holds_nothing_private(robbery: CardGameState) -> None:
    public = render_table(ENGINE.view(robbery, None), EN, NAMES)
    for seat in range(robbery.n_players):
        assert render_table(seat_view(robbery, seat), EN, NAMES) == public


def test_the_same_view_gives_the_same_bytes(four_end: CardGameState, second_deck: CardGameState) -> None:
    public = ENGINE.view(four_end, None)
    assert render_table(public, EN, NAMES) == render_table(public, EN, NAMES)
    assert render_scoring(public, EN, NAMES) == render_scoring(public, EN, NAMES)
    mine = seat_view(second_deck, 1)
    assert render_hand(mine, EN, NAMES) == render_hand(mine, EN, NAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_are_pngs_of_a_fixed_width_and_a_height_that_grows_with_the_table(players: int) -> None:
    state = play(players, 20 + players, lambda s, m: m > 25 and s.phase == "turn")
    png = render_table(ENGINE.view(state, None), EN, NAMES)
    image = Image.open(io.BytesIO(png))
    assert png.startswith(b"\x89PNG") and image.width == 1200
    assert 280 + 150 * players <= image.height <= 340 + 160 * players
    assert len(png) < 150_000
    hand = Image.open(io.BytesIO(render_hand(seat_view(state, state.current), EN, NAMES)))
    assert hand.width == 1160 and 300 < hand.height < 1400


def test_the_hand_shows_the_stack_only_in_the_beginners_variant(two_middle: CardGameState) -> None:
    assert hand_layout(seat_view(two_middle, 0)).stack_top is None
    beginners = play(2, 4, lambda s, m: m > 30 and s.phase == "turn", CardGameOptions(stack_visible_to_owner=True))
    view = seat_view(beginners, 0)
    assert view.stack is not None and hand_layout(view).stack_top is not None


def test_offered_tickets_get_a_tile_each_and_the_opening_shows_no_empty_held_list(opening: CardGameState) -> None:
    choosing = next(s for s in range(opening.n_players) if not opening.players[s].chose_opening)
    layout = hand_layout(seat_view(opening, choosing))
    assert len(layout.offered) == 6 and layout.tickets_top is None
    chosen = next(s for s in range(opening.n_players) if opening.players[s].chose_opening)
    layout = hand_layout(seat_view(opening, chosen))
    assert layout.offered == {} and len(layout.tickets) == len(opening.players[chosen].tickets)


def test_a_public_view_has_no_hand_to_draw(robbery: CardGameState) -> None:
    with pytest.raises(ValueError):
        hand_image(ENGINE.view(robbery, None), EN, NAMES)


def test_scorings_need_a_scoring_and_list_every_player(
    robbery: CardGameState, second_deck: CardGameState, four_end: CardGameState
) -> None:
    with pytest.raises(ValueError):
        scoring_image(ENGINE.view(robbery, None), EN, NAMES, "first")
    with pytest.raises(ValueError):
        scoring_image(ENGINE.view(second_deck, None), EN, NAMES, "final")
    first = scoring_image(ENGINE.view(second_deck, None), EN, NAMES, "first")
    final = scoring_image(ENGINE.view(four_end, None), EN, NAMES, "final")
    assert first.width == final.width == 1200
    assert final.height > first.height, "the final sheet adds tickets lost and the big cities"


def test_every_word_the_pictures_ask_for_exists_in_english_and_russian(
    opening: CardGameState, robbery: CardGameState, second_deck: CardGameState, four_end: CardGameState
) -> None:
    asked: set[str] = set()

    def label(key: str, **params: object) -> str:
        asked.add(key)
        return key

    last_round = play(3, 8, lambda s, m: s.last_turns_left is not None and s.phase == "turn")
    for state in (opening, robbery, second_deck, four_end, last_round):
        render_table(ENGINE.view(state, None), label, NAMES)
        for seat in range(state.n_players):
            render_hand(seat_view(state, seat), label, NAMES)
    render_scoring(ENGINE.view(second_deck, None), label, NAMES, "first")
    render_scoring(ENGINE.view(four_end, None), label, NAMES, "final")
    ours = {k for k in asked if k.startswith("cardgame_picture.")}
    assert len(ours) > 30
    assert sorted(ours - set(EN)) == []
    assert sorted(ours - set(words("ru", "cardgame_picture"))) == []
    others = {k for k in asked if not k.startswith("cardgame_picture.")}
    assert others and all(k.startswith(("cardgame.city.", "cardgame.color.")) and k in EN for k in others)
