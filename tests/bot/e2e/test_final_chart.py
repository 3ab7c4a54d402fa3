"""The score-over-time chart through the local Discord: added to a finished game's final message after it is out,
keeping the message's texts, pictures and Rematch button; and added after a restart that came in between."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image

from bot.app import Conductor
from bot.services.charts import DUE, KIND
from bot.storage.games import GameRecord
from bot.ui.charts import CHART
from localdiscord import LocalDiscord, RecordedMessage
from render.chart import HEIGHT, WIDTH
from tests.bot.e2e.helpers import Running, table

OPTIONS = {"target": 10}
"""A short dice race, so the game ends in a few turns."""


async def finished_game(stand_in: LocalDiscord, bot: Conductor) -> GameRecord:
    """A short dice race between Ann, Ben and a bot player, played to its end."""
    players = table(stand_in, bot, "Ann", "Ben")
    record = await players.open("dice", bots=1, options=OPTIONS)
    return await players.play_to_the_end(record.id, seed=3)


async def ended_before_its_chart(stand_in: LocalDiscord, bot: Conductor) -> tuple[GameRecord, tuple[int, int]]:
    """A game played to its end by a bot that stops right after the final message is out, before adding the chart
    (its note is stored with the last move): the game and where its final message is."""

    async def stopped_before_the_chart(outcome: object) -> None:
        """What the bot would do next, never done."""

    bot.charts.on_moved = stopped_before_the_chart  # type: ignore[method-assign]
    record = await finished_game(stand_in, bot)
    where = await bot.shown.message(record.id, "final")
    assert where is not None
    await bot.shown.flush()
    return record, where


def final_message(stand_in: LocalDiscord, where: tuple[int, int] | None) -> RecordedMessage:
    """The game's final message as the local Discord holds it now."""
    assert where is not None
    return stand_in.message(where[1])


def custom_ids(components: list[Any]) -> list[str]:
    """Every custom id among components, however nested, in order."""
    found: list[str] = []
    for component in components:
        if component.get("custom_id"):
            found.append(str(component["custom_id"]))
        found += custom_ids(component.get("components", []) or [])
    return found


def has_chart(message: RecordedMessage) -> bool:
    """Whether the message shows the chart."""
    return any(a.filename == CHART for a in message.attachments)


async def test_the_chart_is_added_to_the_final_message_keeping_what_it_shows(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await finished_game(stand_in, bot)
        where = await bot.shown.message(record.id, "final")
        await stand_in.wait_for(lambda: has_chart(final_message(stand_in, where)), what="the chart")
        final = final_message(stand_in, where)
        assert final.history, "the chart came by an edit"
        before = final.history[-1]
        names = [a.filename for a in final.attachments]
        assert names[-1] == CHART and names[:-1] == [a.filename for a in before.attachments], "pictures kept"
        assert custom_ids(final.components) == custom_ids(before.components) != [], "the Rematch button is kept"
        assert before.text in final.text or final.text.startswith(before.text.split("\n")[0])
        shown = json.dumps(final.components)
        assert shown.count(CHART) == 1 and "scores.png" in shown, "both pictures in the layout, the chart once"
        assert shown.index("scores.png") < shown.index(CHART) < shown.index("custom_id"), (
            "after the picture, before the buttons"
        )
        chart = next(a for a in final.attachments if a.filename == CHART)
        assert chart.description and "Score over time" in chart.description
        with Image.open(io.BytesIO(chart.data)) as picture:
            assert picture.size == (WIDTH, HEIGHT)
        await bot.charts.settled()  # its note is written just after the edit
        assert await bot.service.store.get_message(record.id, KIND) == where, "noted as added"


async def test_a_chart_due_when_the_bot_stopped_is_added_after_the_restart(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record, where = await ended_before_its_chart(stand_in, bot)
        assert not has_chart(final_message(stand_in, where))
        due = await bot.service.store.get_message(record.id, KIND)
        assert due is not None and due[1] == DUE

    async with running() as bot:
        await stand_in.wait_for(lambda: has_chart(final_message(stand_in, where)), what="the chart, at start")
        await bot.charts.settled()
        assert await bot.service.store.get_message(record.id, KIND) == where
    async with running() as bot:
        await bot.charts.resumed.wait()
        await bot.charts.settled()
        assert [a.filename for a in final_message(stand_in, where).attachments].count(CHART) == 1, "once only"


async def test_a_final_message_deleted_before_its_chart_is_dropped_not_retried(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record, where = await ended_before_its_chart(stand_in, bot)
        await bot.get_partial_messageable(where[0]).get_partial_message(where[1]).delete()
        await bot.shown.flush()

    async with running() as bot:
        await bot.charts.resumed.wait()
        await bot.charts.settled()
        assert await bot.service.store.get_message(record.id, KIND) == where, "noted as done: never retried"
        assert stand_in.message(where[1]).deleted


async def test_in_a_game_thread_the_chart_is_added_and_the_thread_stays_archived(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running(threads=None) as bot:
        record = await finished_game(stand_in, bot)
        where = await bot.shown.message(record.id, "final")
        assert where is not None
        thread = next(t for t in stand_in.threads if t.id == where[0])
        await stand_in.wait_for(lambda: has_chart(final_message(stand_in, where)), what="the chart in the thread")
        await bot.charts.settled()
        assert thread.archived, "archived at the game's end, and again after the chart"
