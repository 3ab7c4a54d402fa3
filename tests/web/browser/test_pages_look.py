"""A screenshot of every kind of board page, on a laptop's screen and a phone's, from games played through the local
Discord: Ticket to Ride on both maps, the card game, the dice game, and a finished game's replay. The pictures go to
$CONDUCTOR_SCREENSHOTS when it names a folder (to look at them), else to the test's own folder; each page must
draw its board with no script error and fit the phone's width; a Ticket to Ride board draws every tunnel's dashed
edges and every ferry's locomotive plates that its map has."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from bot.app import Conductor
from bot.web.board.maps import map_data
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import playing
from tests.web.browser.chromium import SCREENS, Browser, drawn
from tests.web.support import WebRunning

# A real browser (Chromium) per test process: the slow group, which CI runs.
pytestmark = pytest.mark.slow

PAGES: dict[str, tuple[str, str, dict[str, object], int, str]] = {
    "ttr-usa": ("ticket-to-ride", "ttr", {"map": "usa"}, 16, "en"),
    "ttr-europe": ("ticket-to-ride", "ttr", {"map": "europe"}, 20, "ru"),
    "cardgame": ("ticket-to-ride-cards", "cardgame", {}, 12, "en"),
    "dice": ("dice", "dice", {}, 8, "ru"),
}
"""Each page looked at: the game, its kind, its options, how many moves the people make first, the server's
language."""


EVERY_WORD = """() => [
    document.body.textContent,
    ...[...document.querySelectorAll("[title], [aria-label]")].map(e => `${e.title} ${e.ariaLabel}`),
].join(" ")"""
"""Everything the page says: its text (the board's included) and its elements' titles."""
UNWORDED = re.compile(r"\b(?:web|ttr|ttr_picture|cardgame|cardgame_picture|dice)\.[a-z_]+\.[a-z_.]+")
"""A translation key, which the page shows where its words did not come with the data."""


def screenshots(tmp_path: Path) -> Path:
    """Where the pictures go."""
    folder = Path(os.environ.get("CONDUCTOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


MARKS = (
    """() => ["#board .ground .rim", "#board .ground .plate"].map(marks => document.querySelectorAll(marks).length)"""
)
"""How many tunnel edges and free ferry plates the board draws."""


def map_marks(map_id: str) -> list[int]:
    """How many tunnel edges (two for a single track, one for a double's outer side) and ferry locomotive spaces a
    map has."""
    routes = map_data(map_id)["routes"]
    return [sum(len(route["band"]["rims"]) for route in routes), sum(route["locomotives"] for route in routes)]


async def look(browser: Browser, link: str, kind: str, folder: Path, name: str, map_id: str | None = None) -> None:
    """Open the page on each screen, wait for its board, check it fits (and its map's marks) and save its picture."""
    for screen in SCREENS:
        page = await browser.page(screen)
        await page.goto(link)
        await drawn(page, kind)
        await page.evaluate("() => document.fonts.ready")
        width = await page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{name} is wider than the {screen}'s screen"
        assert UNWORDED.findall(await page.evaluate(EVERY_WORD)) == [], f"{name} shows keys with no words"
        if map_id is not None:
            assert await page.evaluate(MARKS) == map_marks(map_id), f"{name} draws its tunnels and ferries"
        await page.screenshot(path=folder / f"{name}-{screen}.png", full_page=screen == "phone")
        await page.context.close()


@pytest.mark.parametrize("name", list(PAGES))
async def test_a_game_in_play_draws_its_page(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser, tmp_path: Path, name: str
) -> None:
    game, kind, options, moves, language = PAGES[name]
    async with running(language=language) as bot:
        players, game_id = await playing(stand_in, bot, game, ("Ann", "Ben", "Cat"), seed=5, bots=1, options=options)
        rng = random.Random(5)
        for _ in range(moves):
            await players.play_move(game_id, rng)
        await players.settle(game_id)
        map_id = options.get("map")
        await look(
            browser, link(bot, game_id), kind, screenshots(tmp_path), name, map_id if isinstance(map_id, str) else None
        )


async def test_a_finished_game_draws_its_replay(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser, tmp_path: Path
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, "dice", ("Ann", "Ben"), seed=5, options={"target": 30})
        await players.play_to_the_end(game_id, seed=5)
        await look(browser, link(bot, game_id), "dice", screenshots(tmp_path), "replay")


def link(bot: Conductor, game_id: int) -> str:
    """The game's board link, as its messages carry it."""
    found = bot.web.board_link(game_id, bot.clock())
    assert found is not None
    return found
