"""Private pictures through the local Discord: laid out for the chat (not taller than wide, so the chat shows them
across its column), with labels in the reader's language and cities named as the game's board names them."""

from __future__ import annotations

import io

from PIL import Image

from bot.i18n import labels, text
from bot.ui.pictures import plain_names
from localdiscord import PHONE_COLUMN, LocalDiscord, RecordedMessage
from render.ttr import render_hand
from rules.ttr.view import SeatView
from tests.bot.e2e.helpers import Running, playing, stored

GAME = "ticket-to-ride"


def only_picture(message: RecordedMessage | None) -> tuple[str, bytes]:
    """The one picture of a private answer: its file name and bytes."""
    assert message is not None
    [attachment] = message.attachments
    return attachment.filename, attachment.data


async def test_a_hand_names_cities_in_the_games_language_and_fills_the_column(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:  # the server speaks English; Dan reads Russian
        _, game_id = await playing(stand_in, bot, GAME, ("Ann", "Dan"), 5)
        answer = await stand_in.slash("Dan", "hand")
        record = await stored(bot, game_id)
        seat = record.seat_of(stand_in.user("Dan").id)
        assert seat is not None
        view = bot.service.view(game_id, seat)
        assert isinstance(view, SeatView)
        board = await stand_in.slash("Dan", "board")

    name, data = only_picture(answer.message)
    assert name == "hand.png" and answer.ephemeral
    names = plain_names(record)
    assert data == render_hand(view, labels("ru", places="en"), names), "Russian labels, the board's city names"
    assert data != render_hand(view, labels("ru"), names), "cities in the reader's language would differ"
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.width >= picture.height, "laid out for the chat: not taller than wide"
    assert answer.message is not None
    [[shown]] = answer.message.shown(column=PHONE_COLUMN)
    assert shown.width >= 0.9 * PHONE_COLUMN, "shown across (nearly) the whole column, not shrunk to its height"
    assert board.message is not None
    [board_picture] = board.message.pictures
    title = text("en", "ttr_bot.title", map=text("en", "ttr.map.usa"))
    assert (board_picture.description or "").startswith(text("en", "ttr_turn.alt.board", title=title)), (
        "the board shown privately is the channel's, in the game's language"
    )
