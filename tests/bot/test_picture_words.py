"""The words pictures are drawn with: the reader's labels, with city names in the game's language when asked, so a
private picture names a city as the game's board does."""

from __future__ import annotations

import pickle

from bot.i18n import labels, text


def test_city_names_come_in_the_games_language_and_everything_else_in_the_readers() -> None:
    words = labels("en", places="ru")
    assert words("ttr.city.wilno") == text("ru", "ttr.city.wilno") != text("en", "ttr.city.wilno")
    assert words("cardgame.city.chicago") == text("ru", "cardgame.city.chicago")
    assert words("ttr_picture.hand.cards_count", count=3) == text("en", "ttr_picture.hand.cards_count", count=3)
    assert words("ttr.color.red") == text("en", "ttr.color.red"), "only cities follow the game"


def test_the_words_travel_to_a_picture_worker() -> None:
    words = pickle.loads(pickle.dumps(labels("ru", places="en")))
    assert words("ttr.city.wilno") == text("en", "ttr.city.wilno")
    assert words("ttr_picture.hand.no_cards") == text("ru", "ttr_picture.hand.no_cards")
