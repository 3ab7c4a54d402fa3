"""Debian's Chromium, headless, driven by Playwright (its own browsers are never downloaded): a page per test, on a
desktop or a phone's screen, that fails its test on any script error.

Where Chromium is not installed the tests that need it skip, saying how to install it; with
CONDUCTOR_REQUIRE_BROWSER=1 (CI) they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
REQUIRE = "CONDUCTOR_REQUIRE_BROWSER"
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1400, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
"""The screens a page is looked at on: a laptop's window, and a phone held upright (an iPhone 14's CSS pixels)."""
NETWORK_ERROR = "Failed to load resource"
"""How Chromium logs an answer of 400 or more; `Browser.page` notes those itself, with their addresses."""


def installed() -> bool:
    """Whether Debian's Chromium and the Playwright package are both here."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists()


def missing_browser() -> None:
    """Skip the test (or fail it where CONDUCTOR_REQUIRE_BROWSER=1) because Chromium or Playwright is missing."""
    message = (
        f"the browser tests need Debian's Chromium ({CHROMIUM}: `apt install chromium`) and Playwright's package"
        " (`pip install -e '.[dev]'`)"
    )
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{message} ({REQUIRE}=1: they must run here)", pytrace=False)
    pytest.skip(message)


@dataclass
class Browser:
    """A running headless Chromium; each page opened is watched for script errors."""

    chromium: Any
    errors: list[str] = field(default_factory=list)

    async def page(self, screen: str = "desktop", language: str = "en") -> Any:
        """A new page in a fresh context on this screen, its errors gathered: scripts' errors, and any file or data
        it asks for refused (a refused page itself is a test's to check)."""
        context = await self.chromium.new_context(locale=language, **SCREENS[screen])
        page = await context.new_page()

        def logged(message: Any) -> None:
            if message.type == "error" and not message.text.startswith(NETWORK_ERROR):
                self.errors.append(f"{page.url}: {message.text}")

        def answered(response: Any) -> None:
            if response.status >= 400 and not response.request.is_navigation_request():
                self.errors.append(f"{response.url}: {response.status}")

        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("console", logged)
        page.on("response", answered)
        return page


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """Start Chromium headless for the body; the body's pages may log no script error."""
    if not installed():
        missing_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        browser = Browser(launched)
        try:
            yield browser
        finally:
            await launched.close()
    assert browser.errors == [], "the page logged errors"


async def drawn(page: Any, kind: str, version: int | None = None) -> int:
    """Wait until the page shows a game of this kind (at this version or a later one); return the version shown."""
    await page.wait_for_function(
        "([kind, version]) => document.body.dataset.kind === kind && Number(document.body.dataset.version) >= version",
        arg=[kind, version or 0],
    )
    return int(await page.evaluate("Number(document.body.dataset.version)"))


async def following(page: Any) -> None:
    """Wait until the page follows its game live (its stream is open and has sent the game as it stands)."""
    await page.wait_for_function("() => document.getElementById('status').classList.contains('live')")
