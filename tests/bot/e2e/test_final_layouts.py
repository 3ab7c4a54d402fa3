"""The final message of every game as a phone shows it, through the local Discord: the summary first, wide enough to
fill the chat's column, then the final board, then the detail; one picture per gallery, never two side by side."""

from __future__ import annotations

import pytest

from bot.i18n import text
from localdiscord import PHONE_COLUMN, LocalDiscord
from rules.engine import GameResult
from tests.bot.e2e.helpers import Running, final_with_chart, table

GAMES = [
    ("dice", {}, ["scores.png"]),
    ("ticket-to-ride", {"map": "usa"}, ["scores.png", "board.png", "score-detail.png"]),
    ("ticket-to-ride", {"map": "europe"}, ["scores.png", "board.png", "score-detail.png"]),
    ("ticket-to-ride-cards", {}, ["scores.png", "table.png", "score-detail.png"]),
]
CHART = "score-chart.png"


@pytest.mark.parametrize(
    ("game", "options", "pictures"),
    [pytest.param(*case, marks=() if case[0] == "dice" else pytest.mark.slow) for case in GAMES],
    ids=["dice", "ttr-usa", "ttr-europe", "ticket-to-ride-cards"],
)  # whole games of bot players: the short dice game in every run, the others in the slow group
async def test_the_final_message_shows_its_summary_first_one_picture_per_gallery(
    stand_in: LocalDiscord, running: Running, game: str, options: dict[str, object], pictures: list[str]
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann")
        record = await players.open(game, bots=2, options=options)
        finished = await players.play_to_the_end(record.id, seed=4)
        final = await final_with_chart(stand_in, bot, finished.id)

    galleries = final.shown(column=PHONE_COLUMN)
    assert all(len(gallery) == 1 for gallery in galleries), "never two pictures side by side in one gallery"
    shown = [picture for [picture] in galleries]
    assert [p.filename for p in shown] == [*pictures, CHART], "the summary first, the final board, then the detail"
    summary = shown[0]
    assert summary.whole and summary.width == PHONE_COLUMN, "the summary is wide and short: it fills the column"
    engine = bot.service.engine(game)
    assert finished.state is not None
    result = engine.result(engine.load_state(finished.state))
    assert isinstance(result, GameResult)
    winners = [finished.seats[seat].name for seat in result.winners]
    alt = {p.filename: p.description or "" for p in final.pictures}
    assert all(name in alt["scores.png"] for name in winners), "the summary's alt text names the winner"
    if "board.png" in pictures:  # the final board's panel shows totals, and so does its alt text
        for player in result.players:
            name = finished.seats[player.seat].name
            assert text("en", "ttr_turn.alt.score", player=name, points=player.total) in alt["board.png"]
