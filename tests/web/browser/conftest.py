"""The browser tests' Chromium: started for each test, so a test's page shares nothing with another's."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.web.browser.chromium import Browser, chromium


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium (the test skips where it is not installed, or fails where it must run)."""
    async with chromium() as started:
        yield started
