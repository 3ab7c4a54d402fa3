"""`/metrics` of a running bot: Prometheus' text format, read with the Prometheus client's own parser, whose counts
move when a move is made through the local Discord; each bot counts apart from the others in its process."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import PICTURE_SECONDS, Metrics
from tests.bot.e2e.helpers import checked, table, usual_people
from tests.web.ops_client import Samples, ops_bot, scrape

MOVES = ("conductor_moves_total", (("game", "dice"),))
CLICKS = ("conductor_interactions_total", (("kind", "component"), ("result", "ok")))
ACKNOWLEDGED = ("conductor_acknowledgement_seconds_count", ())
WRITES = ("conductor_store_seconds_count", (("kind", "write"),))


def count(samples: Samples, key: tuple[str, tuple[tuple[str, str], ...]]) -> float:
    """A sample's value, 0 where the scrape has none yet (a labelled counter appears at its first count)."""
    return samples.get(key, 0.0)


async def test_metrics_parse_and_count_a_move_made_through_discord(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    async with checked(caplog, usual_people()) as stand_in, ops_bot(stand_in, tmp_path / "games.sqlite3") as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        game = await players.open("dice")
        await players.settle(game.id)
        before = await scrape(bot)
        assert count(before, MOVES) == 0
        assert before[("conductor_open_games", (("game", "dice"), ("status", "active")))] == 1
        assert before[("conductor_lease_held", ())] == 1
        assert before[("conductor_gateway_connected", (("shard", "0"),))] == 1
        assert ("conductor_cache_hits_total", (("cache", "pictures"),)) in before
        assert ("conductor_worker_restarts_total", (("pool", "thinking"),)) in before

        assert await players.play_move(game.id, random.Random(0))
        await players.settle(game.id)
        after = await scrape(bot)
        assert count(after, MOVES) == 1
        assert count(after, CLICKS) > count(before, CLICKS)
        assert count(after, ACKNOWLEDGED) > count(before, ACKNOWLEDGED)
        assert count(after, WRITES) > count(before, WRITES)
        assert after[("conductor_acknowledgement_seconds_bucket", (("le", "3.0"),))] == after[ACKNOWLEDGED], (
            "every acknowledgement within Discord's 3 s"
        )


def test_each_bot_counts_apart_and_shows_what_the_process_workers_count() -> None:
    first, second = Metrics(), Metrics()
    first.moved("dice")
    PICTURE_SECONDS.labels("public pictures").observe(0.2)
    for metrics, moves in ((first, 1.0), (second, 0.0)):
        families = {f.name: f for f in text_string_to_metric_families(generate_latest(metrics.registry).decode())}
        assert [s.value for s in families["conductor_moves"].samples if s.name == "conductor_moves_total"] == (
            [moves] if moves else []
        )
        assert "conductor_picture_seconds" in families
