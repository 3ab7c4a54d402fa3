"""The proof of one registration per game: a game that lives only in this package, listed by a fixture, plays a
whole game through the real bot on the local Discord, then /replay and /stats know it."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.drawing import SLOW
from bot.i18n import labels
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, table
from tests.fifth_game.rules import CoinEngine

DRAWN = 60.0
"""Seconds a replay may take to come (its animation is drawn in a worker started on first use)."""


async def test_the_coin_race_plays_to_its_end_replays_and_shows_in_stats(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open(CoinEngine.game_id, options={"target": 3})
        finished = await players.play_to_the_end(record.id, seed=5)
        where = await bot.shown.message(record.id, "final")
        assert where is not None
        await stand_in.wait_for(
            lambda: any(a.filename == "score-chart.png" for a in stand_in.message(where[1]).attachments),
            timeout=DRAWN,
            what="the score chart",
        )
        final = stand_in.message(where[1])
        assert finished.status == "finished"
        assert [a.filename for a in final.attachments] == ["race.png", "score-chart.png"]
        assert "Winner:" in final.text
        flips = [m for m in stand_in.channel_messages() if any(a.filename == "race.png" for a in m.attachments)]
        assert len(flips) > 2, "a message for the start, each flip and the end"

        posted = await stand_in.slash("Cat", "replay", {"game": record.id}, timeout=DRAWN)
        assert posted.message is not None and not posted.ephemeral, posted.text
        files = {a.filename: a for a in posted.message.attachments}
        assert set(files) == {f"replay-{record.id}.webp", f"game-{record.id}.json"}
        log = json.loads(files[f"game-{record.id}.json"].data)
        assert log["game"] == CoinEngine.game_id and log["moves"][0]["events"][0]["key"].startswith("coin.event.")
        with Image.open(io.BytesIO(files[f"replay-{record.id}.webp"].data)) as animation:
            assert animation.n_frames == len(log["moves"]) + 1, "the start, then one frame per flip"

        offered = {c["value"]: c for c in stand_in.command("stats").option("game")["choices"]}
        assert offered[CoinEngine.game_id]["name_localizations"]["ru"] == "Гонка монет"
        mine = await stand_in.slash("Ann", "stats")
        assert not mine.ephemeral and mine.content.startswith("**Ann** in Coin race: "), mine.text
        assert mine.message is not None and mine.message.attachments[0].filename == "stats-coin.png"


def test_a_picture_worker_reads_the_games_own_words() -> None:
    """Replays, charts and stats are drawn in worker processes, which never build the list of games."""
    words = labels("ru")
    assert SLOW.submit(0, words, "coin.picture.heads").result(timeout=DRAWN) == "Орёл"
