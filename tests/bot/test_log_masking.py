"""No interaction token reaches the log, at any level: discord.py's HTTP and gateway debug lines are masked by a
filter on every handler the bot logs through."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from typing import Any

from bot.__main__ import MASK, mask_tokens

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldA-x_y.z"
"""An interaction token as Discord writes them (letters, digits, `-`, `_`, `.`)."""
CALLBACK = f"https://discord.com/api/v10/interactions/1234567890/{TOKEN}/callback"
FOLLOWUP = f"https://discord.com/api/v10/webhooks/987654321/{TOKEN}/messages/@original"


def record(message: str, *args: object, exc_info: Any = None) -> logging.LogRecord:
    """A DEBUG record as discord.py's loggers make them."""
    return logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, message, args, exc_info)


def test_a_url_with_an_interaction_or_webhook_token_is_masked() -> None:
    callback = record("%s %s with %s has returned %s", "POST", CALLBACK, None, 204)
    followup = record("Webhook ID %s with %s %s has returned status code %s", 987654321, "PATCH", FOLLOWUP, 200)
    for masked in (callback, followup):
        assert mask_tokens(masked) is True, "the record is kept"
        assert TOKEN not in masked.getMessage()
    assert callback.getMessage() == (
        f"POST https://discord.com/api/v10/interactions/1234567890/{MASK}/callback with None has returned 204"
    )
    assert f"/webhooks/987654321/{MASK}/messages/@original" in followup.getMessage()


def test_a_gateway_event_and_a_traceback_lose_their_token() -> None:
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1234567890", "token": TOKEN, "type": 3}}
    gateway = record("For Shard ID %s: WebSocket Event: %s", 0, event)
    mask_tokens(gateway)
    assert TOKEN not in gateway.getMessage() and f"'token': '{MASK}'" in gateway.getMessage()
    try:
        raise RuntimeError(f"POST {CALLBACK} failed")
    except RuntimeError:
        failed = record("answering failed", exc_info=sys.exc_info())
    mask_tokens(failed)
    assert TOKEN not in logging.Formatter().format(failed)


def test_the_bot_masks_tokens_in_everything_it_logs_at_debug() -> None:
    script = textwrap.dedent(
        f"""
        import logging
        from bot.__main__ import configure_logging
        configure_logging("DEBUG")
        logging.getLogger("discord.http").debug("%s %s has returned %s", "POST", {CALLBACK!r}, 204)
        logging.getLogger("discord.gateway").debug("Event: %s", {{"token": {TOKEN!r}}})
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert "has returned 204" in done.stderr and "Event: " in done.stderr, done.stderr
    assert TOKEN not in done.stderr
