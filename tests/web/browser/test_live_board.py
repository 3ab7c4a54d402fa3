"""The live board in a real browser: a game in play shows its board, a move made through the local Discord arrives
on the page by itself (after a restart of the bot too), the board zooms, pans and names a route under the pointer or
the finger, a finished game steps through its replay, and a wrong or expired link opens nothing."""

from __future__ import annotations

import random
import time

import pytest

from bot.web.board.tokens import sign
from localdiscord import LocalDiscord
from rules.ttr.maps import load_map
from tests.bot.e2e.helpers import playing, table
from tests.ports import free_port
from tests.web.browser.chromium import Browser, drawn, following
from tests.web.support import SECRET, WebRunning, base, board_links

# A real browser (Chromium) per test process: the slow group, which CI runs.
pytestmark = pytest.mark.slow

TTR = "ticket-to-ride"
MIDDLE_OF_TRACK = """id => {
    const line = document.querySelector(`#board .hits [data-track="${id}"]`);
    const middle = line.points.getItem(Math.floor(line.points.numberOfItems / 2));
    const m = line.getScreenCTM();
    return [middle.x * m.a + middle.y * m.c + m.e, middle.y * m.d + middle.x * m.b + m.f];
}"""
"""Where on the screen the middle of a track's line is (a page's point, for the mouse)."""


async def test_a_game_in_play_shows_its_board_and_a_move_arrives_live(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=3)
        [link] = board_links(await players.turn_message(game_id))
        page = await browser.page()
        await page.goto(link)
        shown = await drawn(page, "ttr")
        assert await page.locator("#board .hits [data-track]").count() == 100, "every USA track can be pointed at"
        assert await page.locator("#board .band").count() == len(bot.service.view(game_id, None).owners)
        await following(page)

        await players.play_move(game_id, random.Random(3))
        version = (await players.settle(game_id)).version
        assert await drawn(page, "ttr", version) == version > shown
        owners = bot.service.view(game_id, None).owners
        await page.wait_for_function("n => document.querySelectorAll('#board .band').length === n", arg=len(owners))


async def test_the_board_zooms_pans_and_names_a_route_under_the_pointer(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=3)
        [link] = board_links(await players.turn_message(game_id))
        page = await browser.page()
        await page.goto(link)
        await drawn(page, "ttr")
        await following(page)
        board = page.locator("#board")
        whole = await board.get_attribute("viewBox")

        box = await board.bounding_box()
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.wheel(0, -400)
        await page.wait_for_function("() => Number(document.getElementById('board').dataset.zoom) > 1.5")
        zoomed = await board.get_attribute("viewBox")
        await page.mouse.down()
        await page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 60, steps=5)
        await page.mouse.up()
        panned = await board.get_attribute("viewBox")
        assert len({whole, zoomed, panned}) == 3, "the wheel zooms in and a drag moves the board"
        await page.get_by_role("button", name="Whole board").click()
        assert await board.get_attribute("viewBox") == whole

        track = next(t for t in load_map("usa").tracks if {t.a, t.b} == {"denver", "kansas_city"})
        await page.mouse.move(*await page.evaluate(MIDDLE_OF_TRACK, track.id))
        tip = page.locator("#tip")
        await tip.wait_for(state="visible")
        assert (await tip.locator("b").inner_text()) in ("Denver – Kansas City", "Kansas City – Denver")
        assert f"{track.length} cars" in await tip.inner_text()


async def test_a_wrong_or_expired_link_opens_no_board(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    async with running() as bot:
        _, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=3)
        page = await browser.page()
        expired = sign(SECRET.encode(), game_id, int(time.time()) - 60)
        for token, status in (("not-a-token", 404), (expired, 403)):
            response = await page.goto(f"{base(bot)}/b/{token}")
            assert response is not None and response.status == status
            assert await page.locator("#board").count() == 0, "a refused link shows no board"
            assert "/board" in await page.locator("body").inner_text(), "it says how to ask for a new link"


async def test_a_phone_pinches_the_board_closer_and_a_tap_names_a_route(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=3)
        [link] = board_links(await players.turn_message(game_id))
        page = await browser.page("phone")
        await page.goto(link)
        await drawn(page, "ttr")
        await following(page)
        board = await page.locator("#board").bounding_box()
        x, y = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
        touch = await page.context.new_cdp_session(page)
        fingers = [(x - 20, y, x - 80, y), (x + 20, y, x + 80, y)]
        for event, share in (("touchStart", 0.0), ("touchMove", 0.5), ("touchMove", 1.0), ("touchEnd", 1.0)):
            points = [{"x": a + (b - a) * share, "y": c, "id": k} for k, (a, c, b, _) in enumerate(fingers)]
            await touch.send(
                "Input.dispatchTouchEvent", {"type": event, "touchPoints": [] if event == "touchEnd" else points}
            )
        await page.wait_for_function("() => Number(document.getElementById('board').dataset.zoom) > 2")

        # A click, not a tap: on a busy machine the gap between a tap's two touch events can outlast the browser's
        # long-press delay, and a long press is no click. The tap that counts here is the one on the track below.
        await page.get_by_role("button", name="Whole board").click()
        await page.wait_for_function("() => document.getElementById('board').dataset.zoom === '1.00'")
        track = next(t for t in load_map("usa").tracks if {t.a, t.b} == {"el_paso", "houston"})
        tap_x, tap_y = await page.evaluate(MIDDLE_OF_TRACK, track.id)
        under = await page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.dataset.track", [tap_x, tap_y])
        assert under == str(track.id), f"the finger lands on the track ({tap_x:.0f}, {tap_y:.0f}: {under})"
        await page.touchscreen.tap(tap_x, tap_y)
        tip = page.locator("#tip")
        await tip.wait_for(state="visible")
        assert (await tip.locator("b").inner_text()) in ("El Paso – Houston", "Houston – El Paso")


async def test_a_finished_game_steps_through_its_replay(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, "dice", ("Ann", "Ben"), seed=5, options={"target": 10})
        await players.play_to_the_end(game_id, seed=5)
        moves = len(await bot.records.actions(game_id))
        page = await browser.page()
        await page.goto(bot.web.board_link(game_id, bot.clock()))
        await page.wait_for_function("n => document.body.dataset.frame === String(n)", arg=moves)
        story = await page.locator("#story li").count()
        assert await page.locator("#step").inner_text() == f"Move {moves} of {moves}"

        await page.keyboard.press("ArrowLeft")
        await page.wait_for_function("n => document.body.dataset.frame === String(n)", arg=moves - 1)
        await page.keyboard.press("Home")
        await page.wait_for_function("() => document.body.dataset.frame === '0'")
        assert await page.locator("#story li").count() < story
        await page.get_by_role("button", name="Forward").click()
        await page.wait_for_function("() => document.body.dataset.frame === '1'")
        await page.keyboard.press("End")
        await page.wait_for_function("n => document.body.dataset.frame === String(n)", arg=moves)
        assert await page.locator("#story li").count() == story


async def test_the_page_reconnects_to_a_restarted_bot_and_follows_on(
    stand_in: LocalDiscord, running: WebRunning, browser: Browser
) -> None:
    address = f"127.0.0.1:{free_port()}"  # the restarted bot must answer where the page was opened
    async with running(web_listen=address) as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=3)
        [link] = board_links(await players.turn_message(game_id))
        page = await browser.page()
        await page.goto(link)
        shown = await drawn(page, "ttr")
        await following(page)
    await page.wait_for_function("() => document.getElementById('status').classList.contains('lost')")
    assert await page.locator("#status").inner_text() == "Reconnecting…"

    async with running(web_listen=address) as bot:
        await following(page)
        players = table(stand_in, bot, "Ann", "Ben")
        await players.play_move(game_id, random.Random(3))
        version = (await players.settle(game_id)).version
        assert await drawn(page, "ttr", version) == version > shown
