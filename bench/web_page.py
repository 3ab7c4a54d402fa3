"""The live board page's figures, measured in a real browser (Debian's Chromium through Playwright) during a sandbox
game on the local Discord: the page's load to its first paint and to its board drawn, the delay from a move shown in
Discord to the page drawing it (and from the click that made it), and the bytes of the page's own files.

Run: python -m bench.web_page [--game ticket-to-ride] [--moves 60] [--players 3] [--option map=usa]
Prints milliseconds (p50 and p99 over the people's moves; bot players' moves arrive with them) and bytes. The page
marks each version it draws (`performance.mark("board-drawn")`); the browser and the bot share this machine's clock.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright
from pydantic import SecretStr

from bot.app import create_bot
from bot.sandbox.run import SANDBOX_PEOPLE, sandbox_settings
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord, LocalUser

STATIC = Path(__file__).resolve().parent.parent / "bot" / "web" / "board" / "static"
CHROMIUM = "/usr/bin/chromium"
PATIENCE = 60.0
"""Seconds the stand-in waits for the bot (a busy machine draws the first boards slowly)."""
LOAD = """() => {
    const navigation = performance.getEntriesByType("navigation")[0];
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const drawn = performance.getEntriesByName("board-drawn")[0];
    const data = performance.getEntriesByType("resource").map(r => [r.name, r.encodedBodySize]);
    return {ready: navigation.domContentLoadedEventEnd, paint: paint.startTime, drawn: drawn.startTime, data};
}"""
DRAWN = """() => performance.getEntriesByName("board-drawn").map(
    e => [e.detail.version, performance.timeOrigin + e.startTime]
)"""


async def measure(game: str, moves: int, players: int, options: dict[str, object]) -> dict[str, Any]:
    """Play `moves` people's moves of a game with a page following it; return the figures."""
    people = [LocalUser(name=name) for name in SANDBOX_PEOPLE[: players - 1]]
    web = {"web_listen": "127.0.0.1:0", "web_secret": SecretStr("a secret of the benchmark")}
    clock_offset = time.time() - time.perf_counter()
    shown: list[tuple[int, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = sandbox_settings(Path(folder) / "bench.sqlite3", bot_move_delay=0).model_copy(update=web)
        async with LocalDiscord(users=people, timeout=PATIENCE) as discord, async_playwright() as playwright:
            bot = create_bot(settings)
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            async with discord.connected(bot):
                table = ScriptedTable(discord, bot, people)
                record = await table.open(game, bots=1, options=options)
                link = bot.web.board_link(record.id, bot.clock())
                page = await browser.new_page(viewport={"width": 1400, "height": 900})
                await page.goto(link)
                await page.wait_for_function("() => document.body.dataset.version")
                load = await page.evaluate(LOAD)
                rng = random.Random(0)
                for _ in range(moves):
                    version = (await table.settle(record.id)).version + 1  # the first version past this move
                    if not await table.play_move(record.id, rng):
                        break
                    clicked = (table._last_started + clock_offset) * 1000
                    shown.append((version, clicked, clicked + table.shown[-1][1] * 1000))
                    await page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
                drawn = await page.evaluate(DRAWN)
            await browser.close()
    return {"load": load, "shown": shown, "drawn": drawn}


def delays(shown: list[tuple[int, float, float]], drawn: list[tuple[int, float]]) -> tuple[list[float], list[float]]:
    """For each move: from Discord showing it, and from its click, to the page first drawing its version or a later
    one."""
    from_shown, from_click = [], []
    for version, clicked, posted in shown:
        first = min(at for seen, at in drawn if seen >= version)
        from_shown.append(first - posted)
        from_click.append(first - clicked)
    return from_shown, from_click


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of them fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    """Parse flags, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="ticket-to-ride")
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], help="a /newgame option, NAME=VALUE")
    args = parser.parse_args()
    options: dict[str, object] = dict(option.split("=", 1) for option in args.option)
    figures = asyncio.run(measure(args.game, args.moves, args.players, options))
    load = figures["load"]
    print(f"{args.game} {options or ''}: a page on a laptop's screen (1400 × 900), cold cache")
    print(f"  DOM ready {load['ready']:.0f} ms, first paint {load['paint']:.0f} ms, board drawn {load['drawn']:.0f} ms")
    for name, size in load["data"]:
        print(f"  fetched {name.split('?')[0].rsplit('/', 1)[-1]}: {size} bytes (encoded)")
    from_shown, from_click = delays(figures["shown"], figures["drawn"])
    print(f"over {len(from_shown)} moves of the people (one bot player moving between them):")
    for what, values in (("shown in Discord -> page drawn", from_shown), ("click -> page drawn", from_click)):
        print(
            f"  {what}: p50 {statistics.median(values):.0f} ms, p99 {percentile(values, 0.99):.0f} ms,"
            f" max {max(values):.0f} ms"
        )
    print("the page's own files (bytes as written, gzipped):")
    total = zipped = 0
    for path in sorted(STATIC.iterdir()):
        body = path.read_bytes()
        size = len(gzip.compress(body))
        total, zipped = total + len(body), zipped + size
        print(f"  {path.name}: {len(body)}, {size}")
    print(f"  in all: {total}, {zipped}")


if __name__ == "__main__":
    main()
